import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockFolder } from '../../shared/node/folder-lock';
import { startHost, type RunningHost } from '../e2e/host';

// The browser host takes its data folder for itself. A second host (or the desktop
// app) on the same folder used to "recover" the first one's live seats: chips at two tables at once.
const WEBHOST = 'out/main/webhost.cjs';

const hosts: RunningHost[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs the built browser host to its exit; resolves with its exit code and everything it printed. */
function runHost(dataDir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [WEBHOST, '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  return new Promise((ok) => child.on('exit', (code) => ok({ code, output })));
}

/** Every file below `dir` with its size and modification time. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const st = statSync(join(dir, name));
    out[name] = `${st.size}:${st.mtimeMs}`;
  }
  return out;
}

describe('the browser host owns its data folder', () => {
  it('is built (npm test builds before the unit and integration tests)', () => {
    expect(existsSync(WEBHOST), `${WEBHOST} is missing: run "npm run build" first`).toBe(true);
  });

  it('refuses to start on a folder another process holds, in one line naming it, touching no file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cercle-lock-host-'));
    dirs.push(dataDir);
    const lock = lockFolder(dataDir, 'the Cercle desktop app');
    const before = snapshot(dataDir);
    const { code, output } = await runHost(dataDir);
    const after = snapshot(dataDir);
    lock.release();
    expect(code).toBe(3);
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`The data folder ${dataDir} is in use by the Cercle desktop app (process ${process.pid}`);
    expect(after).toEqual(before);
  });

  it('a second real browser host on the same folder is refused while the first keeps serving', async () => {
    const first = await startHost();
    hosts.push(first);
    const { code, output } = await runHost(first.dataDir);
    expect(code).toBe(3);
    expect(output).toMatch(/is in use by the Cercle browser host \(process \d+/);
    // The first host still answers (its page and its data are untouched by the refused one).
    const res = await fetch(first.url);
    expect(res.status).toBe(200);
    expect(existsSync(join(first.dataDir, 'embedded-operator'))).toBe(true);
  });

  it('a folder freed by a stopped host can be used again', async () => {
    const first = await startHost();
    await first.stop();
    const again = await startHost(first.dataDir);
    hosts.push(again);
    expect((await fetch(again.url)).status).toBe(200);
  });
});
