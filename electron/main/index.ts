/**
 * The Electron main process: thin wiring of windows, the `app://` protocol, the security baseline and
 * the client API's IPC adapter over the services (DESIGN.md §2). No game or storage logic lives here.
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, session, shell } from 'electron';
import { autoUpdater } from 'electron-updater';
import { FolderInUseError, type FolderLock, lockFolder } from '../../shared/node/folder-lock';
import { ClientCore } from '../services/client';
import { createHandlers } from '../services/client-api';
import { builtLaunch, launchEmbeddedOperator } from '../services/embedded';
import { SettingsStore } from '../services/settings';
import { createElectronUpdater, wireUpdates } from '../services/updater';
import { utilityChild } from './utility-child';
import { safeStorageVault } from './vault';
import { registerAppScheme, serveRenderer } from './protocol';
import { APP_START_URL, appPageUrl, appUrlCheck } from './app-url';
import { broadcast, serveIpc } from './ipc';
import { popOuts } from './pop-outs';
import { denyAllPermissions, hardenApp } from './security';

// In development (`electron-vite dev`) the renderer comes from Vite's server; never in a packaged app.
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const startUrl = devServerUrl ?? APP_START_URL;
// Our pages compared on protocol + host (app-url.ts), not on Node's "null" origin.
const isAppUrl = appUrlCheck(devServerUrl);

// Checklist 4: the renderer process sandbox for every window.
app.enableSandbox();
registerAppScheme();
hardenApp(isAppUrl);

// One instance: a second launch focuses the first window instead of opening a second client.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else if (takeDataFolder()) {
  app.on('second-instance', () => {
    const w = BrowserWindow.getAllWindows()[0];
    if (w) {
      if (w.isMinimized()) w.restore();
      w.focus();
    }
  });
  void app.whenReady().then(start);
}

/**
 * One owner per data folder. After the single-instance lock (which only knows other
 * desktop apps) and before any file is read or written, the app takes the folder's lock; a browser host
 * (or a CLI) on the same folder keeps it, and this app says so in one line and quits without touching
 * anything, instead of "recovering" the live seats of the other one.
 */
let folderLock: FolderLock | null = null;
function takeDataFolder(): boolean {
  try {
    folderLock = lockFolder(app.getPath('userData'), 'the Cercle desktop app');
    return true;
  } catch (e) {
    if (!(e instanceof FolderInUseError)) throw e;
    // Safe before 'ready' (on Linux it then goes to stderr): electronjs.org/docs/latest/api/dialog#dialogshowerrorboxtitle-content
    dialog.showErrorBox('Cercle', e.message);
    app.quit();
    return false;
  }
}

function createMainWindow(route = ''): BrowserWindow {
  const win = new BrowserWindow({
    width: route ? 900 : 1280,
    height: route ? 640 : 800,
    minWidth: route ? 480 : 960,
    minHeight: route ? 360 : 600,
    title: 'Cercle',
    show: false,
    backgroundColor: '#0f2a1e',
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click must not open links in new windows (Electronegativity AUXCLICK_JS_CHECK).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(appPageUrl(startUrl, route));
  return win;
}

async function start(): Promise<void> {
  denyAllPermissions(session.defaultSession);
  serveRenderer(join(__dirname, '../renderer'));

  const dataDir = app.getPath('userData');
  const settings = new SettingsStore(dataDir);
  settings.onChange((s) => broadcast('settingsChanged', s));
  const core = new ClientCore({
    dataDir,
    version: app.getVersion(),
    settings: () => settings.get(),
    launchEmbedded: () => launchEmbeddedOperator({ dataDir, ...builtLaunch(__dirname), spawnChild: utilityChild }),
    vault: safeStorageVault(dataDir),
    broadcast,
    // History import and export run in a worker thread: the bundle beside this one.
    historyWorker: { file: join(__dirname, 'history-worker.cjs') },
  });
  // Updates download in the background and install on the next quit ("install on restart").
  const updates = createElectronUpdater(autoUpdater);
  const handlers = createHandlers({
    info: { name: 'Cercle', version: app.getVersion(), host: 'electron', platform: process.platform, dataDir },
    settings,
    core,
    updates,
    openExternal: (url) => shell.openExternal(url),
    // A table in its own window: the same page on the table's route (one window per table), only for
    // a table the player sits at, at most 24 (pop-outs.ts).
    popOut: popOuts({
      isSeated: (tableId) => core.tables.list().some((t) => t.tableId === tableId && (t.status === 'live' || t.status === 'syncing')),
      open: (tableId) => createMainWindow(`/table/${encodeURIComponent(tableId)}`),
    }),
  });
  serveIpc(handlers, isAppUrl);
  void core.start();
  // Quitting stops the embedded operator cleanly first (its tables cash every player out, R-CASH).
  let quitting = false;
  app.on('before-quit', (e) => {
    if (quitting) return;
    quitting = true;
    e.preventDefault();
    void core.close().finally(() => {
      folderLock?.release();
      app.quit();
    });
  });

  createMainWindow();
  // After the window: the first check stays off the path to the lobby.
  wireUpdates(updates, (s) => broadcast('update', s));
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
