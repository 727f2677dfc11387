/**
 * An operator in a process of its own, for the tests that kill it (SIGKILL: no `close()`, nothing
 * flushed but what each commit wrote): `node --import tsx <script> <dataDir> <lobby config JSON>`,
 * resolved when the script prints its `{ "url", "pin" }` line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { OperatorConfig } from '../../operator/config/config';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function startOperatorProcess(
  script: string,
  dataDir: string,
  config: OperatorConfig,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; pin: string; log: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, JSON.stringify(config)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the operator process did not start: ${err}`)), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      const { url, pin } = JSON.parse(out.slice(0, nl)) as { url: string; pin: string };
      resolve({ child, url, pin, log: () => err });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the operator process exited (${code ?? signal}): ${err}`));
    });
  });
}

/** Kills the process with SIGKILL and resolves when it is gone. */
export function killProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
