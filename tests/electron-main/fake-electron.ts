/**
 * A fake of the part of Electron 45's main-process API that electron/main uses, so
 * that the BUILT main bundle (out/main/index.cjs) runs under plain Node: the Electron binary cannot be
 * downloaded on these machines, and without this nothing ran the main process at all (a wrong app://
 * origin check would go unseen).
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
 *
 * One file per API area under fake-electron/ (app, windows and webContents, ipc, protocol, session,
 * desktop: shell, dialog, safeStorage; utilityProcess; driver: the test's side); this module is what
 * `electron` resolves to.
 */
export { type FakeConfig } from './fake-electron/base';
export { app, singletonDir } from './fake-electron/app';
export { protocol } from './fake-electron/protocol';
export { BrowserWindow, type FakeFrame, WebContents, webContents } from './fake-electron/windows';
export { ipcMain } from './fake-electron/ipc';
export { session } from './fake-electron/session';
export { autoUpdater, dialog, net, Notification, safeStorage, shell } from './fake-electron/desktop';
export { UtilityProcess, utilityProcess } from './fake-electron/utility';
export { fake, type InvokeFrom } from './fake-electron/driver';
