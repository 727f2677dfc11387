// utilityProcess (electronjs.org/docs/latest/api/utility-process)
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { dirname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

// This file is loaded both as CommonJS (required by the bundle, in harness.ts) and as ESM (vault.test.ts).
const HERE = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
const UTILITY_PRELOAD = resolve(HERE, '../utility-preload.mjs');

export interface ForkOptions {
  env?: Record<string, string>;
  execArgv?: string[];
  cwd?: string;
  stdio?: 'pipe' | 'ignore' | 'inherit' | ('pipe' | 'ignore' | 'inherit')[];
  serviceName?: string;
}

/**
 * electronjs.org/docs/latest/api/utility-process: "utilityProcess creates a child process with Node.js and
 * Message ports enabled. It provides the equivalent of child_process.fork API from Node.js". fake: a real
 * Node child process (child_process.fork), its `process.parentPort` made by utility-preload.mjs.
 */
export class UtilityProcess extends EventEmitter {
  private child: ChildProcess;
  private exited = false;
  // electronjs.org/docs/latest/api/utility-process#childstdout: "A NodeJS.ReadableStream | null that represents
  // the child process's stdout. If the child was spawned with options.stdio[1] set to anything other than
  // 'pipe', then this will be null."
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;

  constructor(modulePath: string, args: string[], options: ForkOptions) {
    super();
    // electronjs.org/docs/latest/api/utility-process#utilityprocessforkmodulepath-args-options: "stdio ...
    // pipe: equivalent to ['ignore', 'pipe', 'pipe'] ... inherit: equivalent to ['ignore', 'inherit',
    // 'inherit'] (the default)". "env Object (optional) - Environment key-value pairs. Default is process.env."
    const mode = options.stdio ?? 'inherit';
    const [, out, err] = typeof mode === 'string' ? ['ignore', mode, mode] : mode;
    this.child = fork(modulePath, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      // fake: the child's parentPort comes from the preload; Node's own flags of this test process are not passed on.
      execArgv: ['--import', pathToFileURL(UTILITY_PRELOAD).href, ...(options.execArgv ?? [])],
      stdio: ['ignore', out ?? 'inherit', err ?? 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    this.stdout = this.child.stdout;
    this.stderr = this.child.stderr;
    // electronjs.org/docs/latest/api/utility-process#event-spawn: "Emitted once the child process has spawned successfully."
    this.child.once('spawn', () => this.emit('spawn'));
    // electronjs.org/docs/latest/api/utility-process#event-message: "Emitted when the child process sends a
    // message using process.parentPort.postMessage()." (the message itself, not an event object)
    this.child.on('message', (m) => this.emit('message', m));
    // electronjs.org/docs/latest/api/utility-process#event-exit: "Emitted after the child process ends."
    // Returns code: "Contains the exit code for the process obtained from waitpid on POSIX". fake: a
    // signal's death is reported as its POSIX code 128 + n, since the event carries only a number.
    this.child.once('exit', (code, signal) => {
      this.exited = true;
      this.emit('exit', code ?? (signal ? 128 + (signalNumbers[signal] ?? 0) : 0));
    });
    // electronjs.org/docs/latest/api/utility-process#event-error: "Emitted when the child process needs to
    // terminate due to non continuable error from V8." fake: a failure to start is reported the same way.
    this.child.once('error', (e) => this.emit('error', 'FatalError', String(e.message), ''));
    forks.push({ modulePath, args, options: structuredClone(options), process: this });
  }

  // electronjs.org/docs/latest/api/utility-process#childpid: "A Integer | undefined representing the process
  // identifier (PID) of the child process. Until the child process has spawned successfully, the value is
  // undefined. When the child process exits, then the value is undefined after the exit event is emitted."
  get pid(): number | undefined {
    return this.exited ? undefined : this.child.pid;
  }

  // electronjs.org/docs/latest/api/utility-process#childpostmessagemessage-transfer: "Send a message to the
  // child process, optionally transferring ownership of zero or more MessagePortMain objects."
  postMessage(message: unknown): void {
    if (!this.exited && this.child.connected) this.child.send(message as never);
  }

  // electronjs.org/docs/latest/api/utility-process#childkill: "Terminates the process gracefully. On POSIX, it
  // uses SIGTERM but will ensure the process is reaped on exit. This function returns true if the kill is
  // successful, and false otherwise."
  kill(): boolean {
    if (this.exited) return false;
    return this.child.kill('SIGTERM');
  }

  /** The real child, for the test (its pid after exit, its exit code). */
  get real(): ChildProcess {
    return this.child;
  }
}

const signalNumbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
export const forks: { modulePath: string; args: string[]; options: ForkOptions; process: UtilityProcess }[] = [];

export const utilityProcess = {
  // electronjs.org/docs/latest/api/utility-process#utilityprocessforkmodulepath-args-options: "Returns UtilityProcess".
  fork(modulePath: string, args: string[] = [], options: ForkOptions = {}): UtilityProcess {
    return new UtilityProcess(modulePath, args, options);
  },
};
