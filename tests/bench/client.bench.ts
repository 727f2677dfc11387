/**
 * The client as a player feels it (DESIGN.md §5), in Debian's Chromium through the browser host, the
 * embedded operator included (a child process, as `npm start` runs it). Needs the built client (`npm
 * run build`; built here when missing) and a Chromium (`/usr/bin/chromium` or CHROMIUM_PATH).
 *
 * - `startup-lobby-ms:cercle`: from launching the host to the lobby listing its tables in the page
 *   (embedded operator started, pinned link up, guest signed in), median of 3 warm starts; the first
 *   run (certificate made, databases created) apart. Peer `startup-page-ms:node-static`: a bare Node
 *   process serving one static page, loaded by the same browser: the floor of any Node-hosted UI.
 * - `action-ack-ms:cercle`: from the click on an action to the frame that shows it as sent (the
 *   action bar gives way to "sent"), median and p95 over 25 decisions. Peer `click-frame-ms:lobby-sort`:
 *   a click that only re-sorts the lobby list, measured the same way.
 * - `tables24-frame-p95-ms:cercle`: 24 tables open, practice players acting every 150-450 ms (four
 *   times the product's pace; `:cercle-extreme` every 0-40 ms) and our seat checking or folding at
 *   once (as pre-actions do), the 95th percentile of frame times over
 *   10 s (requestAnimationFrame deltas; vsync at 60 Hz with 0.1 ms timer steps puts the floor at
 *   16.6-16.8 ms). `tables24-dom-mutations-per-s` says how busy the tiles were. Peer
 *   `frame-p95-ms:idle-lobby`: the same measure with no table open.
 * - `tables24-frame-p95-ms:cercle-tournaments`: the same with 24 tournament tables (a sit &
 *   go of each game and size of the embedded operator, filled by practice players, the tournament bar
 *   on every tile, its clock ticking), practice players at the same pace. Peer: the idle page in the
 *   same run, `frame-p95-ms:idle-lobby-tournaments`.
 * - `tournament-move-ms:cercle`: the operator moves the player to another table of a
 *   multi-table tournament (tests/fixtures/tournaments-moves.json: 3-seat tables, broken and balanced
 *   within the first minutes); from when the page has both the move (the `tournament` event) and the
 *   new table's first state (its `table` event), whichever comes last, to the DOM holding the new
 *   table drawn in the old tile's place (the old tile gone), in the frame that paints it; median and
 *   max over the moves seen. The bar is one frame: its peer `frame-ms:tournament-tables` is the median
 *   frame interval of the same page over the same time.
 */
import { rulesVersion, type RulesShown } from '../../shared/protocol/conditions';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { WebSocket } from 'ws';
import type { TableState } from '../../shared/api';
import { handOf } from '../../shared/protocol/hand';
import { legalActions } from '../../shared/rules/engine';
import type { BenchResult } from './types';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

interface Host {
  url: string;
  origin: string;
  token: string;
  stop(): Promise<void>;
}

function startHost(dataDir: string, args: string[] = []): Promise<Host> {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'out/main/webhost.cjs'), '--port', '0', '--data', dataDir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`host did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const m = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=([\w-]+))/.exec(output);
      if (!m) return;
      clearTimeout(timer);
      const url = m[1];
      done({
        url,
        origin: new URL(url).origin,
        token: m[2],
        stop: () =>
          new Promise<void>((r) => {
            if (child.exitCode !== null) return r();
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`host exited with ${code}:\n${output}`)));
    // A bench that dies (or is stopped) takes its hosts with it.
    process.once('exit', () => child.kill());
  });
}

/** The client API over the host's socket, as the page uses it (token + Origin). */
async function apiOf(host: Host): Promise<{ call: (name: string, args?: unknown) => Promise<unknown>; onTable: (l: (s: TableState) => void) => void; close: () => void }> {
  const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/api?token=${host.token}`, { origin: host.origin });
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  let id = 0;
  const waiting = new Map<number, (v: { ok: boolean; value?: unknown; error?: { message: string } }) => void>();
  const tableListeners: ((s: TableState) => void)[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as { id?: number; ok: boolean; value?: unknown; error?: { message: string }; event?: string; payload?: unknown };
    if (typeof m.id === 'number') waiting.get(m.id)?.(m);
    else if (m.event === 'table') for (const l of tableListeners) l(m.payload as TableState);
  });
  return {
    call: (name, args = {}) =>
      new Promise((r, j) => {
        const n = ++id;
        waiting.set(n, (m) => (m.ok ? r(m.value) : j(new Error(m.error?.message))));
        ws.send(JSON.stringify({ id: n, call: name, args }));
      }),
    onTable: (l) => void tableListeners.push(l),
    close: () => ws.close(),
  };
}

/**
 * Plays our seat at every table as a multi-tabler does with pre-actions: check when free, else fold
 * (so no table waits on our clock and all 24 keep dealing).
 */
function autoCheckFold(api: Awaited<ReturnType<typeof apiOf>>): void {
  const sent = new Set<string>();
  let n = 0;
  api.onTable((s) => {
    const v = s.view;
    if (!v?.hand || !v.you || v.turn?.seat !== v.you.seat || s.pending !== null) return;
    const legal = legalActions(handOf(v.hand));
    if (legal.seat !== v.you.seat) return;
    const key = `${s.tableId}:${v.hand.handId}:${v.hand.actions.length}`;
    if (sent.has(key)) return;
    sent.add(key);
    const move =
      legal.next === 'show' ? { type: legal.muck ? 'muck' : 'show' } : legal.next === 'draw' ? { type: 'draw', discards: [] } : legal.bringIn !== null ? { type: 'bringIn' } : legal.check ? { type: 'check' } : { type: 'fold' };
    void api.call('act', { tableId: s.tableId, actionId: `bench-${++n}`, move }).catch(() => undefined);
  });
}

function percentile(xs: number[], p: number): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const median = (xs: number[]): number => percentile(xs, 50);

async function lobbyShown(browser: Browser, host: Host): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(host.url);
  await page.locator('[data-testid^="lobby-row-"]').first().waitFor({ timeout: 30_000 });
  return page;
}

// In-page code is passed as text: tsx (esbuild keepNames) would wrap functions written here with a
// `__name` helper the page does not have.

/** requestAnimationFrame deltas over `ms`, in the page. */
function frameTimes(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(`new Promise((done) => {
    const deltas = [];
    let last = 0;
    const end = performance.now() + ${Math.trunc(ms)};
    function step(t) {
      if (last) deltas.push(t - last);
      last = t;
      if (t < end) requestAnimationFrame(step);
      else done(deltas);
    }
    requestAnimationFrame(step);
  })`);
}

/** In the page: from a click on a matching element to the start of the first frame rendered with `readySelector` matching. */
async function installClickTimer(page: Page, clickSelector: string, readySelector: string): Promise<void> {
  await page.evaluate(`(() => {
    window.__acks = [];
    const clicks = ${JSON.stringify(clickSelector)};
    const ready = ${JSON.stringify(readySelector)};
    document.addEventListener('click', (e) => {
      if (!(e.target instanceof Element) || !e.target.closest(clicks)) return;
      const t0 = e.timeStamp;
      // The first frame whose rendering starts with the change in the DOM is the one that shows it.
      function check() {
        if (document.querySelector(ready)) window.__acks.push(performance.now() - t0);
        else requestAnimationFrame(check);
      }
      requestAnimationFrame(check);
    }, true);
  })()`);
}

async function acksOf(page: Page): Promise<number[]> {
  return await page.evaluate<number[]>('window.__acks.slice()');
}

type LobbyTable = RulesShown & { tableId: string; buyIn: { min: number; max: number } };

/** Joins as the join dialog does: with the version of the rules and conditions shown (R-INFO). */
async function joinAsShown(api: { call(name: string, args?: unknown): Promise<unknown> }, t: LobbyTable, buyIn: number): Promise<void> {
  const conditions = (await api.call('conditions')) as { version: string };
  await api.call('join', { tableId: t.tableId, buyIn, waitForBigBlind: false, rulesVersion: rulesVersion(t, conditions.version) });
}

type TournamentLine = { tournamentId: string; state: string; seats: number; format: string; version: string; startAt: number | null };

/** The tournaments as the lobby lists them, once the link is up. */
async function tournamentsOf(api: Awaited<ReturnType<typeof apiOf>>): Promise<TournamentLine[]> {
  for (let i = 0; i < 150; i++) {
    const r = (await api.call('tournaments')) as { ok: boolean; tournaments?: TournamentLine[] };
    if (r.ok && r.tournaments) return r.tournaments;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error('the tournaments were not listed');
}

/** Registers in 24 sit & go's (the larger first: they last longer), filled by practice players a moment later. */
async function register24SitAndGos(api: Awaited<ReturnType<typeof apiOf>>): Promise<void> {
  const sngs = (await tournamentsOf(api)).filter((t) => t.format === 'sit-and-go' && t.state === 'registering').sort((a, b) => b.seats - a.seats);
  if (sngs.length < 24) throw new Error(`only ${sngs.length} sit & go's to register in`);
  for (const t of sngs.slice(0, 24)) await api.call('tournamentRegister', { tournamentId: t.tournamentId, version: t.version });
}

async function tables24(browser: Browser, delay: string, kind: 'cash' | 'tournaments' = 'cash'): Promise<{ p95: number; max: number; mutationsPerS: number; idleP95: number }> {
  const host = await startHost(mkdtempSync(join(tmpdir(), 'cercle-bench-24-')), ['--practice-delay', delay, '--between-hands', '300', '--practice-tables', '3']);
  try {
    const page = await lobbyShown(browser, host);
    const idle = await frameTimes(page, 5_000);
    const api = await apiOf(host);
    autoCheckFold(api);
    if (kind === 'cash') {
      const lobby = (await api.call('lobby')) as LobbyTable[];
      for (const t of lobby.slice(0, 24)) await joinAsShown(api, t, t.buyIn.min);
    } else await register24SitAndGos(api);
    await page.goto(`${host.origin}/#/tables`);
    // (Polled from here: waitForFunction evaluates with eval, which the page's CSP forbids.)
    const tiles = page.locator('[data-testid^="tile-"]');
    for (const end = Date.now() + 60_000; (await tiles.count()) < 24; ) {
      if (Date.now() > end) throw new Error('24 tables did not show');
      await page.waitForTimeout(50);
    }
    await page.waitForTimeout(2_000);
    // How busy the tables were while measured: DOM mutations in the tiles.
    await page.evaluate(`(() => { window.__mut = 0; new MutationObserver((l) => { window.__mut += l.length; }).observe(document.querySelector('.grid'), { subtree: true, childList: true, characterData: true, attributes: true }); })()`);
    const busy = await frameTimes(page, 10_000);
    const mutations = await page.evaluate<number>('window.__mut');
    api.close();
    await page.close();
    return { p95: percentile(busy, 95), max: Math.max(...busy), mutationsPerS: mutations / 10, idleP95: percentile(idle, 95) };
  } finally {
    await host.stop();
  }
}

/**
 * In the page, before its code runs: the client API's socket is watched (a listener added before the
 * page's own) for the `tournament` events bringing a move and the `table` events bringing a table's
 * first state; once both of a move are in, the time until the DOM holds the new table in the old
 * tile's place. Read back as `window.__moves`.
 */
const MOVE_WATCH = `(() => {
  window.__moves = [];
  const seen = new Set();
  const waits = new Map();
  const followed = new Set();
  function drawn(to, w) {
    const tile = document.querySelector('[data-tile="' + CSS.escape(to) + '"]');
    return tile !== null && tile.querySelector('[data-testid="table-' + CSS.escape(to) + '"]') !== null && document.querySelector('[data-tile="' + CSS.escape(w.from) + '"]') === null;
  }
  function check() {
    for (const [to, w] of waits) {
      if (w.tMove === undefined || w.tState === undefined) continue;
      if (!drawn(to, w)) continue;
      window.__moves.push({ from: w.from, to, why: w.why, ms: performance.now() - Math.max(w.tMove, w.tState) });
      waits.delete(to);
    }
    if (![...waits.values()].some((w) => w.tMove !== undefined)) observer.disconnect();
  }
  const observer = new MutationObserver(check);
  function wait(to) {
    let w = waits.get(to);
    if (!w) { w = {}; waits.set(to, w); }
    return w;
  }
  function onMessage(e) {
    const t = performance.now();
    const data = typeof e.data === 'string' ? e.data : '';
    if (data.includes('"event":"tournament"')) {
      const m = JSON.parse(data).payload.move;
      if (m && m.from && m.from !== m.to && !followed.has(m.from + '>' + m.to + '@' + m.at)) {
        followed.add(m.from + '>' + m.to + '@' + m.at);
        const w = wait(m.to);
        w.tMove = t; w.from = m.from; w.why = m.why;
        if (seen.has(m.to) && w.tState === undefined) w.tState = t;
      }
    } else if (data.includes('"event":"table"')) {
      const id = /"tableId":"([^"]+)"/.exec(data);
      if (id && !seen.has(id[1])) {
        seen.add(id[1]);
        wait(id[1]).tState = t;
      }
    } else return;
    // Watched only while a move waits to be drawn.
    if (document.body && [...waits.values()].some((w) => w.tMove !== undefined)) observer.observe(document.body, { subtree: true, childList: true });
    queueMicrotask(check);
  }
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', onMessage);
    }
  };
})()`;

/** Moves between the tables of small multi-table tournaments, and how long each took to be drawn. */
async function tournamentMoves(browser: Browser): Promise<{ moves: number[]; frame: number }> {
  const fixture = join(ROOT, 'tests/fixtures/tournaments-moves.json');
  const host = await startHost(mkdtempSync(join(tmpdir(), 'cercle-bench-move-')), ['--practice-delay', '0-40', '--between-hands', '300', '--tournaments', fixture]);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(MOVE_WATCH);
    await page.goto(host.url);
    await page.locator('[data-testid^="lobby-row-"]').first().waitFor({ timeout: 30_000 });
    const api = await apiOf(host);
    autoCheckFold(api);
    // On the minute; practice players fill them 3 s after we register: too close to it, the next ones.
    let open: TournamentLine[] = [];
    for (let i = 0; i < 3 && open.length === 0; i++) {
      open = (await tournamentsOf(api)).filter((t) => t.state === 'registering' && t.startAt !== null && t.startAt - Date.now() > 8_000);
      if (open.length === 0) await new Promise((done) => setTimeout(done, 9_000));
    }
    for (const t of open) await api.call('tournamentRegister', { tournamentId: t.tournamentId, version: t.version });
    await page.goto(`${host.origin}/#/tables`);
    const frames: number[] = [];
    let moves: { ms: number }[] = [];
    for (const end = Date.now() + 240_000; moves.length < 8 && Date.now() < end; ) {
      frames.push(...(await frameTimes(page, 2_000)));
      moves = await page.evaluate<{ ms: number }[]>('window.__moves.slice()');
    }
    api.close();
    await page.close();
    return { moves: moves.map((m) => m.ms), frame: median(frames) };
  } finally {
    await host.stop();
  }
}

export default async function clientBench(): Promise<BenchResult[]> {
  if (!existsSync(join(ROOT, 'out/main/webhost.cjs')) || !existsSync(join(ROOT, 'out/renderer/index.html'))) {
    process.stderr.write('building the client (npm run build)\n');
    execFileSync(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: ROOT, stdio: 'ignore' });
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const out: BenchResult[] = [];
  try {
    // CERCLE_BENCH_PARTS=startup,ack,tables24 runs only those parts (profiling one of them).
    const parts = new Set((process.env.CERCLE_BENCH_PARTS ?? 'startup,ack,tables24,tables24-tournaments,tournament-move').split(','));
    // ---- startup
    if (parts.has('startup')) {
    const dataDir = mkdtempSync(join(tmpdir(), 'cercle-bench-client-'));
    const times: number[] = [];
    let firstRun = 0;
    for (let i = 0; i < 4; i++) {
      const t0 = performance.now();
      const host = await startHost(dataDir);
      const page = await lobbyShown(browser, host);
      const t = performance.now() - t0;
      if (i === 0) firstRun = t;
      else times.push(t);
      await page.close();
      await host.stop();
    }
    const staticDir = mkdtempSync(join(tmpdir(), 'cercle-bench-static-'));
    writeFileSync(join(staticDir, 'server.cjs'), "require('http').createServer((q,s)=>{s.setHeader('content-type','text/html');s.end('<!doctype html><p id=ok>ok</p>')}).listen(0,'127.0.0.1',function(){console.log('http://127.0.0.1:'+this.address().port+'/')})");
    const floor: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const child = spawn(process.execPath, [join(staticDir, 'server.cjs')], { stdio: ['ignore', 'pipe', 'ignore'] });
      const url = await new Promise<string>((r) => child.stdout.once('data', (d: Buffer) => r(String(d).trim())));
      const page = await browser.newPage();
      await page.goto(url);
      await page.locator('#ok').waitFor();
      floor.push(performance.now() - t0);
      await page.close();
      child.kill();
    }
    out.push({ name: 'startup-lobby-ms:cercle', unit: 'ms', value: median(times) });
    out.push({ name: 'startup-lobby-first-run-ms:cercle', unit: 'ms', value: firstRun });
    out.push({ name: 'startup-page-ms:node-static', unit: 'ms', value: median(floor) });
    }

    // ---- action acknowledgement
    if (parts.has('ack')) {
      const host = await startHost(mkdtempSync(join(tmpdir(), 'cercle-bench-ack-')), ['--practice-delay', '0-40', '--between-hands', '200']);
      const page = await lobbyShown(browser, host);
      // The peer: a click that only re-sorts the lobby list (no round trip).
      await installClickTimer(page, '[data-testid="sort-name"],[data-testid="sort-stakes"]', '[data-testid="lobby-tables"]');
      for (let i = 0; i < 25; i++) await page.getByTestId(i % 2 ? 'sort-name' : 'sort-stakes').click();
      const sortAcks = await acksOf(page);
      const api = await apiOf(host);
      const thnl = ((await api.call('lobby')) as LobbyTable[]).find((t) => t.tableId === 'practice-thnl')!;
      await joinAsShown(api, thnl, 5000);
      await page.goto(`${host.origin}/#/tables`);
      await page.getByTestId('tile-practice-thnl').waitFor();
      await installClickTimer(page, '[data-testid="action-check"],[data-testid="action-fold"]', '[data-testid="table-pending"]');
      const tile = page.getByTestId('tile-practice-thnl');
      let acks: number[] = [];
      const deadline = Date.now() + 120_000;
      while (acks.length < 25 && Date.now() < deadline) {
        const check = tile.getByTestId('action-check');
        const fold = tile.getByTestId('action-fold');
        const b = (await check.isVisible()) ? check : (await fold.isVisible()) ? fold : null;
        if (b) await b.click({ timeout: 1000 }).catch(() => undefined);
        else await page.waitForTimeout(20);
        acks = await acksOf(page);
      }
      api.close();
      out.push({ name: 'action-ack-ms:cercle', unit: 'ms', value: median(acks) });
      out.push({ name: 'action-ack-p95-ms:cercle', unit: 'ms', value: percentile(acks, 95) });
      out.push({ name: 'click-frame-ms:lobby-sort', unit: 'ms', value: median(sortAcks) });
      await page.close();
      await host.stop();
    }

    // ---- 24 tables: practice players thinking 150-450 ms (four times the product's pace, faster than
    // people), then the extreme 0-40 ms; our seat checks or folds at once at every table.
    if (parts.has('tables24')) {
      for (const [delay, suffix] of [['150-450', ''], ['0-40', '-extreme']] as const) {
        const r = await tables24(browser, delay);
        out.push({ name: `tables24-frame-p95-ms:cercle${suffix}`, unit: 'ms', value: r.p95 });
        out.push({ name: `tables24-frame-max-ms:cercle${suffix}`, unit: 'ms', value: r.max });
        out.push({ name: `tables24-dom-mutations-per-s:cercle${suffix}`, unit: '1/s', value: r.mutationsPerS });
        if (suffix === '') out.push({ name: 'frame-p95-ms:idle-lobby', unit: 'ms', value: r.idleP95 });
      }
    }

    // ---- 24 tournament tables at the practice pace (150-450 ms), the idle page beside.
    if (parts.has('tables24-tournaments')) {
      const r = await tables24(browser, '150-450', 'tournaments');
      out.push({ name: 'tables24-frame-p95-ms:cercle-tournaments', unit: 'ms', value: r.p95 });
      out.push({ name: 'tables24-frame-max-ms:cercle-tournaments', unit: 'ms', value: r.max });
      out.push({ name: 'tables24-dom-mutations-per-s:cercle-tournaments', unit: '1/s', value: r.mutationsPerS });
      out.push({ name: 'frame-p95-ms:idle-lobby-tournaments', unit: 'ms', value: r.idleP95 });
    }

    // ---- A move to another table of a tournament, drawn (bar: one frame).
    if (parts.has('tournament-move')) {
      const r = await tournamentMoves(browser);
      if (r.moves.length === 0) process.stderr.write('tournament-move: no move seen\n');
      else {
        out.push({ name: 'tournament-move-ms:cercle', unit: 'ms', value: median(r.moves) });
        out.push({ name: 'tournament-move-max-ms:cercle', unit: 'ms', value: Math.max(...r.moves) });
        out.push({ name: 'tournament-moves-seen:cercle', unit: 'moves', value: r.moves.length });
      }
      out.push({ name: 'frame-ms:tournament-tables', unit: 'ms', value: r.frame });
    }
  } finally {
    await browser.close();
  }
  return out;
}
