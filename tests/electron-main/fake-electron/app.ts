// app (electronjs.org/docs/latest/api/app)
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { config, ending, FakeEvent } from './base';
import { BrowserWindow } from './windows';

class FakeApp extends EventEmitter {
  private ready = false;
  private readyPromise: Promise<void>;
  private markReady!: () => void;
  private quitting = false;
  private sandboxed = false;
  private pending: Promise<unknown>[] = [];
  private lock: { db: Database.Database; server: Server | null } | null = null;

  constructor() {
    super();
    this.readyPromise = new Promise((r) => (this.markReady = r));
  }

  // electronjs.org/docs/latest/api/app#appispackaged-readonly: "A boolean property that returns true if
  // the app is packaged, false otherwise." fake: false unless the test says (electron-updater then stays idle).
  get isPackaged(): boolean {
    return config.isPackaged === true;
  }

  // electronjs.org/docs/latest/api/app#appwhenready: "Returns Promise<void> - fulfilled when Electron is initialized."
  whenReady(): Promise<void> {
    return this.readyPromise;
  }

  // electronjs.org/docs/latest/api/app#appisready: "Returns boolean - true if Electron has finished initializing"
  isReady(): boolean {
    return this.ready;
  }

  // electronjs.org/docs/latest/api/app#appenablesandbox: "Enables full sandbox mode on the app ...
  // This method can only be called before app is ready." fake: calling it later throws, so a test sees the misuse.
  enableSandbox(): void {
    if (this.ready) throw new Error('app.enableSandbox() can only be called before app is ready');
    this.sandboxed = true;
  }

  isSandboxed(): boolean {
    return this.sandboxed;
  }

  // electronjs.org/docs/latest/api/app#appgetpathname: "userData The directory for storing your app's
  // configuration files". fake: only the names main uses; others are a test error.
  getPath(name: string): string {
    if (name === 'userData') return config.userData;
    if (name === 'temp') return tmpdir();
    throw new Error(`fake electron: app.getPath('${name}') is not faked`);
  }

  // electronjs.org/docs/latest/api/app#appgetversion: "Returns string - The version of the loaded
  // application. If no version is found in the application's package.json file, the version of the
  // current bundle or executable is returned." fake: the test's, else package.json's.
  getVersion(): string {
    return config.version ?? '0.1.0';
  }

  // electronjs.org/docs/latest/api/app#appgetname: "Returns string - The current application's name,
  // which is the name in the application's package.json file." (read by electron-updater)
  getName(): string {
    return config.name ?? 'Cercle';
  }

  // electronjs.org/docs/latest/api/app#appgetapppath: "Returns string - The current application directory."
  getAppPath(): string {
    return config.appPath ?? process.cwd();
  }

  /**
   * electronjs.org/docs/latest/api/app#apprequestsingleinstancelockadditionaldata: "This method returns
   * true if your process is the primary instance of your application and your app should continue
   * loading. It returns false if your process should immediately quit as it has sent its parameters to
   * another instance that has already acquired the lock."
   * fake: the lock is a real OS lock (an exclusive SQLite lock, released by the OS when the process
   * dies, like Chromium's process singleton), one per userData folder, kept in the temp folder so the
   * data folder itself is not touched; the parameters go to the primary over a local socket.
   */
  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    if (this.lock) return true;
    const dir = singletonDir(config.userData);
    const id = dir.slice(dir.lastIndexOf('-') + 1);
    mkdirSync(dir, { recursive: true });
    const socketPath = process.platform === 'win32' ? `\\\\?\\pipe\\cercle-fake-electron-${id}` : join(dir, 'singleton.sock');
    const db = new Database(join(dir, 'singleton.lock'), { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (at TEXT); COMMIT;');
    } catch {
      db.close();
      this.pending.push(sendToPrimary(socketPath, { argv: process.argv, workingDirectory: process.cwd(), additionalData: additionalData ?? null }));
      return false;
    }
    if (process.platform !== 'win32') rmSync(socketPath, { force: true }); // left by a primary that died: we hold the lock now
    const server = createServer((socket) => {
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        data += chunk;
        if (!data.includes('\n')) return;
        const m = JSON.parse(data.slice(0, data.indexOf('\n'))) as { argv: string[]; workingDirectory: string; additionalData: unknown };
        // electronjs.org/docs/latest/api/app#event-second-instance: "This event will be emitted inside the
        // primary instance of your application when a second instance has been executed and calls
        // app.requestSingleInstanceLock()." Returns event, argv, workingDirectory, additionalData.
        // fake: emitted only once the app is ready, as Chromium queues the notification until then.
        void this.whenReady().then(() => {
          this.emit('second-instance', new FakeEvent(), m.argv, m.workingDirectory, m.additionalData);
          socket.end('ack\n');
        });
      });
    });
    server.listen(socketPath);
    server.unref();
    this.lock = { db, server };
    return true;
  }

  /**
   * electronjs.org/docs/latest/api/app#appquit: "Try to close all windows. The before-quit event will be
   * emitted first. If all windows are successfully closed, the will-quit event will be emitted and by
   * default the application will terminate."
   * electronjs.org/docs/latest/api/app#event-before-quit: "Calling event.preventDefault() will prevent the
   * default behavior, which is terminating the application."
   * electronjs.org/docs/latest/api/app#event-will-quit: "Emitted when all windows have been closed and the
   * application will quit. Calling event.preventDefault() will prevent the default behavior".
   * electronjs.org/docs/latest/api/app#event-window-all-closed: "If the user pressed Cmd + Q, or the
   * developer called app.quit(), Electron will first try to close all the windows and then emit the
   * will-quit event, and in this case the window-all-closed event would not be emitted."
   * electronjs.org/docs/latest/api/app#event-quit: "Emitted when the application is quitting." (exitCode)
   */
  quit(): void {
    if (this.quitting) return;
    const before = new FakeEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    // "It is possible that a window cancels the quitting" (app#appquit): each window's close is preventable.
    for (const w of BrowserWindow.getAllWindows()) {
      const close = new FakeEvent();
      w.emit('close', close);
      if (close.defaultPrevented) return;
    }
    this.quitting = true;
    for (const w of BrowserWindow.getAllWindows()) w.destroyForQuit();
    const will = new FakeEvent();
    this.emit('will-quit', will);
    if (will.defaultPrevented) {
      this.quitting = false;
      return;
    }
    this.emit('quit', new FakeEvent(), 0);
    // fake: the process ends once what must leave it (a second instance's parameters) has left.
    void Promise.allSettled(this.pending).then(() => ending.exit(0));
  }

  // electronjs.org/docs/latest/api/app#appexitexitcode: "Exits immediately with exitCode ... All windows
  // will be closed immediately without asking the user, and the before-quit and will-quit events will not be emitted."
  exit(code = 0): void {
    ending.exit(code);
  }

  /** fake: what Electron does once initialised (electronjs.org/docs/latest/api/app#event-ready: "Emitted once, when Electron has finished initializing."). */
  emitReady(): void {
    if (this.ready || this.quitting) return;
    this.ready = true;
    this.emit('ready', new FakeEvent(), {});
    this.markReady();
  }

  /** Whether a window-all-closed should quit by default (no listener). */
  allWindowsClosed(): void {
    if (this.quitting) return;
    // electronjs.org/docs/latest/api/app#event-window-all-closed: "If you do not subscribe to this event
    // and all windows are closed, the default behavior is to quit the app; however, if you subscribe,
    // you control whether the app quits or not."
    if (this.listenerCount('window-all-closed') === 0) this.quit();
    else this.emit('window-all-closed');
  }
}

/** Where the fake keeps the single-instance lock of a userData folder (the test removes it afterwards). */
export function singletonDir(userData: string): string {
  return join(tmpdir(), `cercle-fake-electron-${createHash('sha256').update(resolve(userData)).digest('hex').slice(0, 16)}`);
}

/** The second instance's side: hands argv to the primary and waits for it to take them. */
function sendToPrimary(socketPath: string, message: unknown): Promise<void> {
  const attempt = (left: number): Promise<void> =>
    new Promise<void>((done, fail) => {
      const s = connect(socketPath);
      let answer = '';
      s.setEncoding('utf8');
      s.on('connect', () => s.write(`${JSON.stringify(message)}\n`));
      s.on('data', (c: string) => (answer += c));
      s.on('end', () => (answer.startsWith('ack') ? done() : fail(new Error('the primary instance did not take the parameters'))));
      s.on('error', fail);
    }).catch(async (e: unknown) => {
      // The primary holds the lock but may not listen yet (it is starting): try again, a bounded number of times.
      if (left <= 0) throw e;
      await new Promise((r) => setTimeout(r, 100));
      return attempt(left - 1);
    });
  return attempt(50);
}

export const app = new FakeApp();
