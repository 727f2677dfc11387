// webContents and BrowserWindow (electronjs.org/docs/latest/api/web-contents, .../browser-window)
import { EventEmitter } from 'node:events';
import { app } from './app';
import { FakeEvent } from './base';
import { canonical, fetchThroughProtocol } from './protocol';

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
