/**
 * `node out/main/webhost.cjs [--port N] [--data DIR]`: the client without Electron. Serves the built
 * renderer and the client API on 127.0.0.1 and prints the URL to open. `npm start` runs it when the
 * Electron binary is missing; the end-to-end tests run it to drive the client in Chromium.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { version } from '../../package.json';
import { FolderInUseError, lockFolder } from '../../shared/node/folder-lock';
import { ClientCore, memoryVault } from '../services/client';
import { createHandlers } from '../services/client-api';
import { defaultDataDir } from '../services/data-dir';
import { builtLaunch, launchEmbeddedOperator, type EmbeddedTiming } from '../services/embedded';
import { SettingsStore } from '../services/settings';
import { loadHostAddress, newHostToken, saveHostAddress } from './address';
import { startBrowserHost } from './server';

const { values } = parseArgs({
  options: {
    // Default: the port (and token) this data folder's host had last time, so an open tab reconnects.
    port: { type: 'string' },
    data: { type: 'string' },
    'renderer-dir': { type: 'string' },
    // Tests, benchmarks and demos: practice players think for <lo>-<hi> ms, hands <ms> apart.
    'practice-delay': { type: 'string' },
    'between-hands': { type: 'string' },
    // Benchmarks: this many practice tables of each game (24 tables open at once).
    'practice-tables': { type: 'string' },
    // Tests and benchmarks: the embedded operator's tournaments from this file instead.
    tournaments: { type: 'string' },
    // Tests (the rebuy, add-on and finish flows): the tournaments' clock this many times faster.
    'tournament-clock': { type: 'string' },
  },
});

const port = values.port === undefined ? null : Number(values.port);
if (port !== null && (!Number.isInteger(port) || port < 0 || port > 65535)) {
  console.error(`cercle: --port must be an integer from 0 to 65535, got ${values.port}`);
  process.exit(2);
}
const rendererDir = values['renderer-dir'] ?? join(__dirname, '../renderer');
if (!existsSync(join(rendererDir, 'index.html'))) {
  console.error(`cercle: no built renderer in ${rendererDir}; run "npm run build" first`);
  process.exit(2);
}
const dataDir = values.data ?? defaultDataDir();
const timing: EmbeddedTiming = {};
if (values['practice-delay'] !== undefined) {
  const m = /^(\d{1,5})-(\d{1,5})$/.exec(values['practice-delay']);
  if (!m || Number(m[1]) > Number(m[2])) {
    console.error(`cercle: --practice-delay must be <lo>-<hi> in ms, got ${values['practice-delay']}`);
    process.exit(2);
  }
  timing.practiceDelayMs = [Number(m[1]), Number(m[2])];
}
if (values['between-hands'] !== undefined) {
  if (!/^\d{1,5}$/.test(values['between-hands'])) {
    console.error(`cercle: --between-hands must be a number of ms, got ${values['between-hands']}`);
    process.exit(2);
  }
  timing.betweenHandsMs = Number(values['between-hands']);
}
if (values['practice-tables'] !== undefined) {
  const n = Number(values['practice-tables']);
  if (!Number.isInteger(n) || n < 1 || n > 10) {
    console.error(`cercle: --practice-tables must be 1 to 10, got ${values['practice-tables']}`);
    process.exit(2);
  }
  timing.tablesPerVariant = n;
}
if (values.tournaments !== undefined) {
  if (!existsSync(values.tournaments)) {
    console.error(`cercle: --tournaments: no file ${values.tournaments}`);
    process.exit(2);
  }
  timing.tournamentsFile = resolve(values.tournaments);
}
if (values['tournament-clock'] !== undefined) {
  const n = Number(values['tournament-clock']);
  if (!/^\d{1,4}$/.test(values['tournament-clock']) || n < 1 || n > 1000) {
    console.error(`cercle: --tournament-clock must be 1 to 1000 (times faster), got ${values['tournament-clock']}`);
    process.exit(2);
  }
  timing.tournamentClockRate = n;
}
// One owner per data folder: a second browser host or the desktop app on the same
// folder would "recover" the live seats of the first. Refuse before touching any file.
try {
  lockFolder(dataDir, 'the Cercle browser host');
} catch (e) {
  if (!(e instanceof FolderInUseError)) throw e;
  console.error(`cercle: ${e.message}`);
  process.exit(3);
}
const settings = new SettingsStore(dataDir);
if (settings.loadProblem) console.error(`cercle: settings reset to defaults (${settings.loadProblem}); the old file was kept aside`);

// Events go to every page once the host is up; before that there is no page to tell.
let broadcast: ((event: never, payload: never) => void) | null = null;
const core = new ClientCore({
  dataDir,
  version,
  settings: () => settings.get(),
  // The built operator beside this file, run by this same Node (a child process: DESIGN.md §3).
  launchEmbedded: () => launchEmbeddedOperator({ dataDir, ...builtLaunch(__dirname), timing, log: (line) => console.error(`[operator] ${line}`) }),
  // No OS secret store here: a custom operator's session lasts as long as the host (tokens only in main).
  vault: memoryVault(),
  broadcast: (event, payload) => broadcast?.(event as never, payload as never),
  log: (line) => console.error(`[client] ${line}`),
  historyWorker: { file: join(__dirname, 'history-worker.cjs') },
});

const handlers = createHandlers({
  info: { name: 'Cercle', version, host: 'browser', platform: process.platform, dataDir },
  settings,
  core,
  // Under the browser host the "system browser" is the one the player already uses: ask the OS to open it.
  // No shell is involved: the URL (already allow-listed) is one argument of the opener.
  openExternal: async (url) => {
    const href = new URL(url).href;
    const [cmd, args] =
      process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', href]] : process.platform === 'darwin' ? ['open', [href]] : ['xdg-open', [href]];
    spawn(cmd, args, { stdio: 'ignore', detached: true }).on('error', () => undefined).unref();
  },
});

/** The same address as last time unless `--port` says otherwise; a remembered port taken by now: a free one. */
async function listen(): ReturnType<typeof startBrowserHost> {
  const remembered = port === 0 ? null : loadHostAddress(dataDir);
  const token = remembered?.token ?? newHostToken();
  const base = { rendererDir, handlers, token, download: (jobId: string, key: string) => core.history.jobs.download(jobId, key) };
  const wanted = port ?? remembered?.port ?? 0;
  let host;
  try {
    host = await startBrowserHost({ ...base, port: wanted });
  } catch (e) {
    if (port !== null || wanted === 0) throw e;
    console.error(`cercle: port ${wanted} is taken; another one is used (the address changes)`);
    host = await startBrowserHost({ ...base, port: 0 });
  }
  if (port !== 0) saveHostAddress(dataDir, { port: host.port, token: host.token });
  return host;
}

void listen().then((host) => {
  broadcast = host.broadcast;
  settings.onChange((s) => host.broadcast('settingsChanged', s));
  void core.start();
  console.log(`Cercle browser host: open ${host.url}`);
  console.log(`data folder: ${dataDir}`);
  console.log('stop: Ctrl+C here (the tables cash out first)');
  // Closing stops the embedded operator cleanly: its tables cash every player out (R-CASH).
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void Promise.allSettled([host.close(), core.close()]).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
});
