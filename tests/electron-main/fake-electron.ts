/**
 * A fake of the part of Electron 45's main-process API that electron/main uses (issue 11 item 2), so
 * that the BUILT main bundle (out/main/index.cjs) runs under plain Node: the Electron binary cannot be
 * downloaded on these machines, and without this nothing ran the main process at all (the app://
 * origin bug of issue 11 item 1 went unseen).
 *
 * Written from the documentation (electronjs.org/docs/latest/api/...), one comment per behaviour naming
 * the page and anchor it copies. Where the fake must decide something the documentation does not say,
 * the comment says "fake:" and why. Real where it matters: utilityProcess.fork starts a real Node child
 * process, the single-instance lock is a real OS lock between processes, protocol handlers get real
 * WHATWG Request objects and return real Responses.
 *
 * Test code, never shipped. Two sides:
 * - the Electron API (`app`, `BrowserWindow`, `ipcMain`, ...), what main imports as `electron`;
 * - `fake`: what a test drives (a renderer calling, a user navigating, a second launch) and reads back.
 */
import Database from 'better-sqlite3';
import { fork, type ChildProcess } from 'node:child_process';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How a test sets the fake up (in a child process: JSON in the CERCLE_FAKE_ELECTRON variable). */
export interface FakeConfig {
  userData: string;
  version?: string;
  name?: string;
  isPackaged?: boolean;
  appPath?: string;
  safeStorage?: { available: boolean; backend: string; keyring?: string };
}

const CONFIG_VAR = 'CERCLE_FAKE_ELECTRON';
// This file is loaded both as CommonJS (required by the bundle, in harness.ts) and as ESM (vault.test.ts).
const HERE = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
const UTILITY_PRELOAD = resolve(HERE, 'utility-preload.mjs');

function loadConfig(): FakeConfig {
  const raw = process.env[CONFIG_VAR];
  if (!raw) return { userData: join(tmpdir(), 'cercle-fake-electron-userdata') };
  return JSON.parse(raw) as FakeConfig;
}

let config: FakeConfig = loadConfig();

/** A DOM-like event whose default can be prevented: what Electron passes to preventable events. */
class FakeEvent {
  defaultPrevented = false;
  constructor(readonly extra: Record<string, unknown> = {}) {
    Object.assign(this, extra);
  }
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

// ---------------------------------------------------------------------------------------------
// app

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
    void Promise.allSettled(this.pending).then(() => fake.exit(0));
  }

  // electronjs.org/docs/latest/api/app#appexitexitcode: "Exits immediately with exitCode ... All windows
  // will be closed immediately without asking the user, and the before-quit and will-quit events will not be emitted."
  exit(code = 0): void {
    fake.exit(code);
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

// ---------------------------------------------------------------------------------------------
// protocol

type ProtocolHandler = (request: Request) => Response | Promise<Response>;
interface Privileged {
  scheme: string;
  privileges?: { standard?: boolean; secure?: boolean; supportFetchAPI?: boolean; codeCache?: boolean; bypassCSP?: boolean; corsEnabled?: boolean; stream?: boolean; allowServiceWorkers?: boolean };
}

const privileged: Privileged[] = [];
const handlers = new Map<string, ProtocolHandler>();

export const protocol = {
  // electronjs.org/docs/latest/api/protocol#protocolregisterschemesasprivilegedcustomschemes: "Note: This
  // method can only be used before the ready event of the app module gets emitted and can be called only once."
  registerSchemesAsPrivileged(schemes: Privileged[]): void {
    if (app.isReady()) throw new Error('protocol.registerSchemesAsPrivileged can only be used before the ready event');
    if (privileged.length > 0) throw new Error('protocol.registerSchemesAsPrivileged can be called only once');
    privileged.push(...schemes.map((s) => structuredClone(s)));
  },
  // electronjs.org/docs/latest/api/protocol#protocolhandlescheme-handler: "Register a protocol handler for
  // scheme. Requests made to URLs with this scheme will delegate to this handler to determine what
  // response should be sent. Either a Response or a Promise<Response> can be returned."
  // electronjs.org/docs/latest/api/protocol (Methods): "All methods unless specified can only be used after
  // the ready event of the app module gets emitted." fake: before ready throws.
  handle(scheme: string, handler: ProtocolHandler): void {
    if (!app.isReady()) throw new Error('protocol.handle can only be used after the ready event');
    if (handlers.has(scheme)) throw new Error(`protocol.handle: ${scheme} is already handled`);
    handlers.set(scheme, handler);
  },
  isProtocolHandled(scheme: string): boolean {
    return handlers.has(scheme);
  },
};

/**
 * Chromium's parsing of a URL of a scheme registered `standard: true`
 * (electronjs.org/docs/latest/api/protocol#protocolregisterschemesasprivilegedcustomschemes: "A standard
 * scheme adheres to what RFC 3986 calls generic URI syntax. For example http and https are standard
 * schemes, while file is not."): parsed as http is (lower-case host, dot segments resolved), unlike
 * Node's URL for an unknown scheme. fake: what the handler receives and what a frame's URL is.
 */
function canonical(url: string): string {
  const u = new URL(url);
  const scheme = u.protocol.slice(0, -1);
  if (!privileged.some((p) => p.scheme === scheme && p.privileges?.standard)) return u.href;
  const asHttp = new URL(`http:${url.slice(u.protocol.length)}`);
  return `${scheme}:${asHttp.href.slice('http:'.length)}`;
}

async function fetchThroughProtocol(url: string, init?: RequestInit): Promise<Response> {
  const href = canonical(url);
  const scheme = new URL(href).protocol.slice(0, -1);
  const handler = handlers.get(scheme);
  if (handler) return handler(new Request(href, init));
  // fake: an http page (the development server) is fetched for real; the tests serve it on loopback only.
  if (scheme === 'http' && ['127.0.0.1', 'localhost'].includes(new URL(href).hostname)) return fetch(href, init);
  throw new Error(`net::ERR_UNKNOWN_URL_SCHEME ${href}`);
}

// ---------------------------------------------------------------------------------------------
// webContents and BrowserWindow

let nextId = 1;

/** A frame as ipcMain sees it: electronjs.org/docs/latest/api/web-frame-main (url, parent, top). */
export interface FakeFrame {
  // electronjs.org/docs/latest/api/web-frame-main#frameurl-readonly: "A string representing the current URL of the frame."
  url: string;
  // electronjs.org/docs/latest/api/web-frame-main#frameparent-readonly: "A WebFrameMain | null representing
  // parent frame of frame, the property would be null if frame is the top most frame in the frame hierarchy."
  parent: FakeFrame | null;
}

type WindowOpenHandler = (details: { url: string; frameName: string; features: string; disposition: string; referrer: { url: string; policy: string }; postBody?: unknown }) => { action: 'allow' | 'deny' };

export class WebContents extends EventEmitter {
  readonly id = nextId++;
  private url = '';
  private destroyed = false;
  windowOpenHandler: WindowOpenHandler | null = null;
  /** What main pushed to the page (channel and structured-cloned arguments). */
  readonly sent: { channel: string; args: unknown[] }[] = [];
  /** The answers of the pages loaded, for the test. */
  readonly loads: { url: string; status: number; contentType: string | null }[] = [];

  constructor() {
    super();
    // electronjs.org/docs/latest/api/app#event-web-contents-created: "Emitted when a new webContents is created."
    app.emit('web-contents-created', new FakeEvent(), this);
  }

  // electronjs.org/docs/latest/api/web-contents#contentsgeturl: "Returns string - The URL of the current web page."
  getURL(): string {
    return this.url;
  }

  // electronjs.org/docs/latest/api/web-contents#contentsisdestroyed: "Returns boolean - Whether the web page is destroyed."
  isDestroyed(): boolean {
    return this.destroyed;
  }

  /**
   * electronjs.org/docs/latest/api/web-contents#contentsloadurlurl-options: "Returns Promise<void> - the
   * promise will resolve when the page has finished loading (see did-finish-load), and rejects if the page
   * fails to load (see did-fail-load)."
   * electronjs.org/docs/latest/api/web-contents#event-will-navigate: "This event will not emit when the
   * navigation is started programmatically with APIs like webContents.loadURL".
   * fake: only URLs of a handled scheme, or of a loopback http server, load; the page's answer is kept.
   */
  async loadURL(url: string): Promise<void> {
    if (this.destroyed) throw new Error('Object has been destroyed');
    let res: Response;
    try {
      res = await fetchThroughProtocol(url);
    } catch (e) {
      this.emit('did-fail-load', new FakeEvent(), -302, String((e as Error).message), url, true);
      throw e;
    }
    await res.arrayBuffer();
    this.url = canonical(url);
    this.loads.push({ url: this.url, status: res.status, contentType: res.headers.get('content-type') });
    this.emit('did-finish-load', new FakeEvent());
  }

  // electronjs.org/docs/latest/api/web-contents#contentssendchannel-args: "Send an asynchronous message to
  // the renderer process via channel, along with arguments. Arguments will be serialized with the
  // Structured Clone Algorithm".
  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    this.sent.push({ channel, args: structuredClone(args) });
  }

  // electronjs.org/docs/latest/api/web-contents#contentssetwindowopenhandlerhandler: "Called before creating
  // a window a new window is requested by the renderer, e.g. by window.open() ... Returning {action:
  // 'deny'} cancels the creation of the new window."
  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    // electronjs.org/docs/latest/api/web-contents#event-destroyed: "Emitted when webContents is destroyed."
    this.emit('destroyed');
  }
}

export const webContents = {
  // electronjs.org/docs/latest/api/web-contents#webcontentsgetallwebcontents
  getAllWebContents(): WebContents[] {
    return allContents.filter((c) => !c.isDestroyed());
  },
};
const allContents: WebContents[] = [];

export class BrowserWindow extends EventEmitter {
  private static all: BrowserWindow[] = [];
  readonly id = nextId++;
  readonly webContents: WebContents;
  private destroyed = false;
  private shown = false;
  private minimized = false;
  /** How often the window was focused and restored (the test reads them). */
  focusCount = 0;
  restoreCount = 0;

  // electronjs.org/docs/latest/api/browser-window#new-browserwindowoptions: "It creates a new BrowserWindow
  // with native properties as set by the options." show: "Whether window should be shown when created. Default is true."
  constructor(readonly options: Record<string, unknown> = {}) {
    super();
    this.webContents = new WebContents();
    allContents.push(this.webContents);
    this.shown = options.show !== false;
    BrowserWindow.all.push(this);
    // electronjs.org/docs/latest/api/browser-window#event-ready-to-show: "Emitted when the web page has been
    // rendered (while not being shown) and window can be displayed without a visual flash."
    // fake: the first page that finished loading is "rendered".
    this.webContents.once('did-finish-load', () => {
      if (!this.destroyed) this.emit('ready-to-show');
    });
    // electronjs.org/docs/latest/api/app#event-browser-window-created: "Emitted when a new browserWindow is created."
    app.emit('browser-window-created', new FakeEvent(), this);
  }

  // electronjs.org/docs/latest/api/browser-window#browserwindowgetallwindows: "Returns BrowserWindow[] - An
  // array of all opened browser windows."
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.all.filter((w) => !w.destroyed);
  }

  // electronjs.org/docs/latest/api/browser-window#browserwindowfromwebcontentswebcontents: "Returns
  // BrowserWindow | null - The window that owns the given webContents or null if the contents are not
  // owned by a window."
  static fromWebContents(contents: WebContents): BrowserWindow | null {
    return BrowserWindow.all.find((w) => !w.destroyed && w.webContents === contents) ?? null;
  }

  // electronjs.org/docs/latest/api/browser-window#winloadurlurl-options: "Same as webContents.loadURL(url[, options])."
  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }

  // electronjs.org/docs/latest/api/browser-window#winshow: "Shows and gives focus to the window."
  show(): void {
    this.shown = true;
    this.focusCount++;
  }

  isVisible(): boolean {
    return this.shown && !this.minimized;
  }

  // electronjs.org/docs/latest/api/browser-window#winfocus: "Focuses on the window."
  focus(): void {
    this.focusCount++;
  }

  // electronjs.org/docs/latest/api/browser-window#winminimize: "Minimizes the window."
  minimize(): void {
    this.minimized = true;
  }

  // electronjs.org/docs/latest/api/browser-window#winisminimized: "Returns boolean - Whether the window is minimized."
  isMinimized(): boolean {
    return this.minimized;
  }

  // electronjs.org/docs/latest/api/browser-window#winrestore: "Restores the window from minimized state to its previous state."
  restore(): void {
    this.minimized = false;
    this.restoreCount++;
  }

  // electronjs.org/docs/latest/api/browser-window#winisdestroyed: "Returns boolean - Whether the window is destroyed."
  isDestroyed(): boolean {
    return this.destroyed;
  }

  isShown(): boolean {
    return this.shown;
  }

  // electronjs.org/docs/latest/api/browser-window#winclose: "Try to close the window. This has the same effect
  // as a user manually clicking the close button of the window."
  // electronjs.org/docs/latest/api/browser-window#event-close: "Emitted when the window is going to be closed
  // ... Calling event.preventDefault() will cancel the close."
  close(): void {
    if (this.destroyed) return;
    const e = new FakeEvent();
    this.emit('close', e);
    if (e.defaultPrevented) return;
    this.finish();
    if (BrowserWindow.getAllWindows().length === 0) app.allWindowsClosed();
  }

  /** app.quit closes every window without the window-all-closed event (see FakeApp.quit). */
  destroyForQuit(): void {
    this.finish();
  }

  private finish(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroy();
    // electronjs.org/docs/latest/api/browser-window#event-closed: "Emitted when the window is closed. After
    // you have received this event you should remove the reference to the window and avoid using it any more."
    this.emit('closed');
  }
}

// ---------------------------------------------------------------------------------------------
// ipcMain

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;
const invokeHandlers = new Map<string, InvokeHandler>();

export const ipcMain = Object.assign(new EventEmitter(), {
  // electronjs.org/docs/latest/api/ipc-main#ipcmainhandlechannel-listener: "Adds a handler for an invokable
  // IPC. This handler will be called whenever a renderer calls ipcRenderer.invoke(channel, ...args). If
  // listener returns a Promise, the eventual result of the promise will be returned as a reply to the
  // remote caller. Otherwise, the return value of the listener will be used as the value of the reply."
  // fake: a second handler for one channel throws, as Electron does ("Attempted to register a second handler").
  handle(channel: string, listener: InvokeHandler): void {
    if (invokeHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    invokeHandlers.set(channel, listener);
  },
  // electronjs.org/docs/latest/api/ipc-main#ipcmainremovehandlerchannel: "Removes any handler for channel, if present."
  removeHandler(channel: string): void {
    invokeHandlers.delete(channel);
  },
});

// ---------------------------------------------------------------------------------------------
// session

type PermissionRequestHandler = (wc: WebContents, permission: string, callback: (granted: boolean) => void, details: Record<string, unknown>) => void;
type PermissionCheckHandler = (wc: WebContents | null, permission: string, requestingOrigin: string, details: Record<string, unknown>) => boolean;
type DevicePermissionHandler = (details: Record<string, unknown>) => boolean;

class FakeSession {
  permissionRequest: PermissionRequestHandler | null = null;
  permissionCheck: PermissionCheckHandler | null = null;
  devicePermission: DevicePermissionHandler | null = null;

  // electronjs.org/docs/latest/api/session#sessetpermissionrequesthandlerhandler: "Sets the handler which
  // can be used to respond to permission requests for the session. Calling callback(true) will allow the
  // permission and callback(false) will reject it."
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.permissionRequest = handler;
  }
  // electronjs.org/docs/latest/api/session#sessetpermissioncheckhandlerhandler: "Sets the handler which can
  // be used to respond to permission checks for the session. Returning true will allow the permission and
  // false will reject it."
  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    this.permissionCheck = handler;
  }
  // electronjs.org/docs/latest/api/session#sessetdevicepermissionhandlerhandler: "Sets the handler which can
  // be used to respond to device permission checks for the session. Returning true will allow the device to be permitted"
  setDevicePermissionHandler(handler: DevicePermissionHandler | null): void {
    this.devicePermission = handler;
  }
}

export const session = {
  // electronjs.org/docs/latest/api/session#sessiondefaultsession: "A Session object, the default session object of the app."
  defaultSession: new FakeSession(),
};

// ---------------------------------------------------------------------------------------------
// shell, dialog

const opened: string[] = [];
export const shell = {
  // electronjs.org/docs/latest/api/shell#shellopenexternalurl-options: "Open the given external protocol URL
  // in the desktop's default manner." Returns Promise<void>. fake: recorded, nothing opens.
  async openExternal(url: string): Promise<void> {
    opened.push(url);
  },
};

const errorBoxes: { title: string; content: string }[] = [];
export const dialog = {
  // electronjs.org/docs/latest/api/dialog#dialogshowerrorboxtitle-content: "Displays a modal dialog that shows
  // an error message. This API can be called safely before the ready event the app module emits ... If
  // called before the app ready event on Linux, the message will be emitted to stderr, and no GUI dialog
  // will appear." fake: recorded, and written to stderr as on Linux before ready.
  showErrorBox(title: string, content: string): void {
    errorBoxes.push({ title, content });
    process.stderr.write(`[dialog.showErrorBox] ${title}: ${content}\n`);
  },
};

// ---------------------------------------------------------------------------------------------
// safeStorage

/** fake: the key of "the OS store": one per keyring name, the same in every process (as a user's login keyring is). */
function storageKey(): Buffer {
  return createHash('sha256').update(`cercle fake keyring:${config.safeStorage?.keyring ?? 'login'}`).digest();
}
export const safeStorage = {
  // electronjs.org/docs/latest/api/safe-storage#safestorageisencryptionavailable: "Returns boolean - Whether
  // encryption is available. On Linux, returns true if the app has emitted the ready event and the secret
  // key is available." fake: as the test configures it.
  isEncryptionAvailable(): boolean {
    return config.safeStorage?.available ?? true;
  },
  // electronjs.org/docs/latest/api/safe-storage#safestoragegetselectedstoragebackend-linux: "Returns string -
  // User friendly name of the password manager selected on Linux. This function will return one of the
  // following values: basic_text - When the desktop environment is not recognised or if the following
  // command line flag is provided --password-store="basic". gnome_libsecret ... kwallet ..."
  getSelectedStorageBackend(): string {
    return config.safeStorage?.backend ?? 'gnome_libsecret';
  },
  // electronjs.org/docs/latest/api/safe-storage#safestorageencryptstringplaintext: "Returns Buffer - An array
  // of bytes representing the encrypted string. This function will throw an error if encryption fails."
  // fake: AES-256-GCM under the keyring's key (another keyring: old files do not decrypt).
  encryptString(plainText: string): Buffer {
    if (!safeStorage.isEncryptionAvailable()) throw new Error('Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.');
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', storageKey(), iv);
    const body = Buffer.concat([c.update(plainText, 'utf8'), c.final()]);
    return Buffer.concat([Buffer.from('v10'), iv, c.getAuthTag(), body]);
  },
  // electronjs.org/docs/latest/api/safe-storage#safestoragedecryptstringencrypted: "Returns string - the
  // decrypted string. Decrypts the encrypted buffer obtained with safeStorage.encryptString back into a
  // string. This function will throw an error if decryption fails."
  decryptString(encrypted: Buffer): string {
    if (!safeStorage.isEncryptionAvailable()) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.');
    if (encrypted.length < 31 || encrypted.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    const d = createDecipheriv('aes-256-gcm', storageKey(), encrypted.subarray(3, 15));
    d.setAuthTag(encrypted.subarray(15, 31));
    return Buffer.concat([d.update(encrypted.subarray(31)), d.final()]).toString('utf8');
  },
};

// ---------------------------------------------------------------------------------------------
// utilityProcess

interface ForkOptions {
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
const forks: { modulePath: string; args: string[]; options: ForkOptions; process: UtilityProcess }[] = [];

export const utilityProcess = {
  // electronjs.org/docs/latest/api/utility-process#utilityprocessforkmodulepath-args-options: "Returns UtilityProcess".
  fork(modulePath: string, args: string[] = [], options: ForkOptions = {}): UtilityProcess {
    return new UtilityProcess(modulePath, args, options);
  },
};

// ---------------------------------------------------------------------------------------------
// Loaded but unused by our code: electron-updater reads these only when packaged (autoUpdater.quitAndInstall,
// notifications, net requests). fake: present so that loading the bundle works; using them is a test error.

function notFaked(what: string): never {
  throw new Error(`fake electron: ${what} is not faked (it is not used while the app is not packaged)`);
}
export const autoUpdater = new EventEmitter();
export class Notification {
  constructor() {
    notFaked('Notification');
  }
}
export const net = {
  request: (): never => notFaked('net.request'),
};

// ---------------------------------------------------------------------------------------------
// What a test drives and reads.

export interface InvokeFrom {
  /** The frame that calls; by default the window's top frame showing its current page. */
  frame?: FakeFrame | null;
  /** A web contents that no window owns (a <webview> guest, a service worker's host). */
  foreign?: boolean;
}

const foreignContents = new WebContents();

export const fake = {
  configure(c: Partial<FakeConfig>): void {
    config = { ...config, ...c };
  },
  get config(): FakeConfig {
    return config;
  },
  /** Electron is initialised: `ready` fires (after main's first synchronous run, as in Electron). */
  ready(): void {
    app.emitReady();
  },
  /** The top frame of a window's page, or a subframe of it. */
  topFrame(w: BrowserWindow): FakeFrame {
    return { url: w.webContents.getURL(), parent: null };
  },
  /**
   * ipcRenderer.invoke from a page. electronjs.org/docs/latest/api/ipc-renderer#ipcrendererinvokechannel-args:
   * "Send a message to the main process via channel and expect a result asynchronously. Arguments will be
   * serialized with the Structured Clone Algorithm". electronjs.org/docs/latest/api/structures/ipc-main-invoke-event:
   * "sender WebContents - Returns the webContents that sent the message; senderFrame WebFrameMain | null
   * - The frame that sent this message." electronjs.org/docs/latest/api/ipc-main#ipcmainhandlechannel-listener:
   * "Errors thrown through handle in the main process are not transparent as they are serialized and only
   * the message property from the original error is provided to the renderer process."
   */
  async invoke(w: BrowserWindow, channel: string, args: unknown[], from: InvokeFrom = {}): Promise<unknown> {
    const handler = invokeHandlers.get(channel);
    if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
    const sender = from.foreign ? foreignContents : w.webContents;
    const senderFrame = from.frame === undefined ? fake.topFrame(w) : from.frame;
    const event = { type: 'frame', sender, senderFrame, frameId: 1, processId: 1, preventDefault() {} };
    try {
      return structuredClone(await handler(event, ...structuredClone(args)));
    } catch (e) {
      throw new Error(`Error invoking remote method '${channel}': ${String(e)}`, { cause: e });
    }
  },
  /** A page's request to an `app://` URL (fetch, a script tag): through the registered handler. */
  fetch: fetchThroughProtocol,
  /**
   * The page starts navigating (a link, `location = ...`).
   * electronjs.org/docs/latest/api/web-contents#event-will-navigate: "Emitted when a user or the page wants
   * to start navigation on the main frame. ... Calling event.preventDefault() will prevent the navigation."
   * Returns details Event<> (url, isSameDocument, isMainFrame, frame, initiator) and the deprecated url, ...
   */
  navigate(w: BrowserWindow, url: string): { prevented: boolean } {
    const e = new FakeEvent({ url, isSameDocument: false, isMainFrame: true, frame: fake.topFrame(w) });
    w.webContents.emit('will-navigate', e, url, false, true);
    return { prevented: e.defaultPrevented };
  },
  // electronjs.org/docs/latest/api/web-contents#event-will-redirect: "Emitted when a server side redirect
  // occurs during navigation. ... Calling event.preventDefault() will prevent the navigation (not just the redirect)."
  redirect(w: BrowserWindow, url: string): { prevented: boolean } {
    const e = new FakeEvent({ url, isSameDocument: false, isMainFrame: true, frame: fake.topFrame(w) });
    w.webContents.emit('will-redirect', e, url, false, true);
    return { prevented: e.defaultPrevented };
  },
  /** window.open(url) from the page: the handler decides (no handler: Electron allows it). */
  windowOpen(w: BrowserWindow, url: string): { action: 'allow' | 'deny' } {
    const h = w.webContents.windowOpenHandler;
    if (!h) return { action: 'allow' };
    const r = h({ url, frameName: '', features: '', disposition: 'new-window', referrer: { url: w.webContents.getURL(), policy: 'strict-origin-when-cross-origin' } });
    return { action: r.action };
  },
  // electronjs.org/docs/latest/api/web-contents#event-will-attach-webview: "Emitted when a <webview>'s web
  // contents is being attached to this web contents. Calling event.preventDefault() will destroy the guest page."
  attachWebview(w: BrowserWindow): { prevented: boolean } {
    const e = new FakeEvent();
    w.webContents.emit('will-attach-webview', e, { nodeIntegration: false }, { src: 'https://example.com/' });
    return { prevented: e.defaultPrevented };
  },
  /**
   * A page asks for a permission. fake: with no handler set, Electron grants it (its documented default is
   * to approve: electronjs.org/docs/latest/tutorial/security#5-handle-session-permission-requests-from-remote-content
   * "By default, Electron will automatically approve all permission requests unless the developer has
   * manually configured a custom handler").
   */
  requestPermission(w: BrowserWindow, permission: string): Promise<boolean> {
    const h = session.defaultSession.permissionRequest;
    if (!h) return Promise.resolve(true);
    return new Promise((done) => h(w.webContents, permission, done, { requestingUrl: w.webContents.getURL(), isMainFrame: true }));
  },
  checkPermission(w: BrowserWindow, permission: string): boolean {
    const h = session.defaultSession.permissionCheck;
    if (!h) return true;
    return h(w.webContents, permission, 'app://cercle', { requestingUrl: w.webContents.getURL(), isMainFrame: true });
  },
  checkDevicePermission(deviceType: string): boolean {
    const h = session.defaultSession.devicePermission;
    if (!h) return true;
    return h({ deviceType, origin: 'app://cercle', device: {} });
  },
  get openedExternal(): readonly string[] {
    return opened;
  },
  get errorBoxes(): readonly { title: string; content: string }[] {
    return errorBoxes;
  },
  get forks(): readonly { modulePath: string; args: string[]; options: ForkOptions; process: UtilityProcess }[] {
    return forks;
  },
  get privileged(): readonly Privileged[] {
    return privileged;
  },
  get sandboxed(): boolean {
    return app.isSandboxed();
  },
  /** Where the process ends: replaced by the harness to report first. */
  exit(code: number): void {
    process.exit(code);
  },
};
