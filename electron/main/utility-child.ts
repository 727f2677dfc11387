/**
 * The embedded operator in Electron runs in a utility process (DESIGN.md §3), not as
 * `ELECTRON_RUN_AS_NODE` (that fuse is off in electron-builder.yml): the same launcher drives it
 * through this adapter.
 */
import { utilityProcess } from 'electron';
import { type ChildHandle, embeddedChildEnv } from '../services/embedded';

export function utilityChild(entry: string, env: Record<string, string>): ChildHandle {
  const child = utilityProcess.fork(entry, [], {
    serviceName: 'Cercle embedded operator',
    stdio: 'pipe',
    // A minimal environment, never the whole process.env (Electron's default when
    // `env` is left out: electronjs.org/docs/latest/api/utility-process#utilityprocessforkmodulepath-args-options).
    env: embeddedChildEnv(process.env, env),
  });
  let alive = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code) => {
      alive = false;
      done({ code, signal: null });
    }),
  );
  return {
    get pid() {
      return child.pid;
    },
    stdout: child.stdout,
    stderr: child.stderr,
    alive: () => alive,
    send: (m) => void (alive && child.postMessage(m)),
    onMessage: (l) => {
      child.on('message', l);
      return () => void child.off('message', l);
    },
    onError: (l) => void child.once('error', (type, location) => l(new Error(`${type} at ${location}`))),
    kill: () => void child.kill(),
    exited,
  };
}
