// What a test drives (a renderer calling, a user navigating, a second launch) and reads back.
import { app } from './app';
import { config, configure, ending, FakeEvent, type FakeConfig } from './base';
import { errorBoxes, opened } from './desktop';
import { invokeHandlers } from './ipc';
import { fetchThroughProtocol, privileged, type Privileged } from './protocol';
import { session } from './session';
import { forks, type ForkOptions, type UtilityProcess } from './utility';
import { type BrowserWindow, type FakeFrame, WebContents } from './windows';

export interface InvokeFrom {
  /** The frame that calls; by default the window's top frame showing its current page. */
  frame?: FakeFrame | null;
  /** A web contents that no window owns (a <webview> guest, a service worker's host). */
  foreign?: boolean;
}

const foreignContents = new WebContents();

export const fake = {
  configure(c: Partial<FakeConfig>): void {
    configure(c);
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
  /** Where the process ends (base.ts `ending`, which the app's quit and exit use too). */
  exit(code: number): void {
    ending.exit(code);
  },
};
