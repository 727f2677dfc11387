import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderInUseError, lockFolder } from './folder-lock';

const dirs: string[] = [];
const children: ChildProcess[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cercle-lock-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Another real process that takes the lock through the same module and says "held". */
function holder(folder: string): Promise<ChildProcess> {
  const script = join(tempDir(), 'hold.ts');
  writeFileSync(
    script,
    `import { lockFolder } from ${JSON.stringify(resolve(__dirname, 'folder-lock.ts'))};\n` +
      `lockFolder(${JSON.stringify(folder)}, 'a test holder');\nconsole.log('held');\nsetInterval(() => undefined, 1000);\n`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((ok, fail) => {
    child.stdout.on('data', (b: Buffer) => b.toString().includes('held') && ok(child));
    child.on('exit', (code) => fail(new Error(`holder exited ${code}`)));
  });
}

describe('lockFolder', () => {
  it('refuses a second owner in the same process, and frees the folder on release', () => {
    const dir = tempDir();
    const lock = lockFolder(dir, 'the first');
    expect(() => lockFolder(dir, 'the second')).toThrow(FolderInUseError);
    try {
      lockFolder(dir, 'the second');
    } catch (e) {
      expect((e as Error).message).toContain(dir);
      expect((e as Error).message).toContain(`the first (process ${process.pid}`);
    }
    lock.release();
    lockFolder(dir, 'the second').release();
  });

  it('holds even when the caller drops the returned object and the garbage collector runs', async () => {
    const dir = tempDir();
    // A separate process with --expose-gc: lock, drop the handle, collect, then report.
    const script = join(tempDir(), 'drop.ts');
    writeFileSync(
      script,
      `import { lockFolder } from ${JSON.stringify(resolve(__dirname, 'folder-lock.ts'))};\n` +
        `lockFolder(${JSON.stringify(dir)}, 'a forgetful holder');\n` +
        `void (async () => {\n` +
        `  for (let i = 0; i < 5; i++) { (globalThis as { gc?: () => void }).gc!(); await new Promise((r) => setTimeout(r, 20)); }\n` +
        `  console.log('held');\n  setInterval(() => undefined, 1000);\n})();\n`,
    );
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    await new Promise<void>((ok, fail) => {
      child.stdout.on('data', (b: Buffer) => b.toString().includes('held') && ok());
      child.on('exit', (code) => fail(new Error(`holder exited ${code}`)));
    });
    expect(() => lockFolder(dir, 'the test')).toThrow(/a forgetful holder/);
  });

  it('names a damaged lock file instead of guessing', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'cercle.lock'), 'not a database, '.repeat(64));
    expect(() => lockFolder(dir, 'the test')).toThrow(/lock file .*cercle\.lock is damaged/);
  });

  it('refuses while another process holds it, and takes it once that process is killed', async () => {
    const dir = tempDir();
    const child = await holder(dir);
    let refusal: unknown;
    try {
      lockFolder(dir, 'the test');
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(FolderInUseError);
    expect((refusal as Error).message).toContain(`a test holder (process ${child.pid}`);
    const exited = new Promise((ok) => child.on('exit', ok));
    child.kill('SIGKILL');
    await exited;
    // The OS released the lock with the process: no stale file to clean up.
    lockFolder(dir, 'the test').release();
  });
});
