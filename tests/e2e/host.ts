import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningHost {
  url: string;
  origin: string;
  dataDir: string;
  /** The host process (its embedded operator is a child of it). */
  pid: number;
  stop(): Promise<void>;
}

/** Starts the built browser host (`out/main/webhost.cjs`) on a free port with a fresh data folder. */
/** Practice players that think 0-40 ms and hands 300 ms apart: flows that play hands take seconds. */
export const FAST_PRACTICE = ['--practice-delay', '0-40', '--between-hands', '300'];

export async function startHost(dataDir = mkdtempSync(join(tmpdir(), 'cercle-e2e-')), extraArgs: string[] = []): Promise<RunningHost> {
  return spawnHost(dataDir, ['--port', '0', ...extraArgs]);
}

/** Starts the host as a player does (no `--port`): at the address its data folder had last time (electron/web/address.ts). */
export function startHostAgain(dataDir: string, extraArgs: string[] = []): Promise<RunningHost> {
  return spawnHost(dataDir, extraArgs);
}

async function spawnHost(dataDir: string, args: string[]): Promise<RunningHost> {
  const child: ChildProcess = spawn(process.execPath, ['out/main/webhost.cjs', '--data', dataDir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser host did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`browser host exited with ${code}:\n${output}`)));
  });
  return {
    url,
    origin: new URL(url).origin,
    dataDir,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Where screenshots are kept as test artifacts (uploaded by the GitHub workflow). */
export function artifactPath(name: string): string {
  const dir = join(process.cwd(), 'tests', 'artifacts');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
