/**
 * What the browser-host flows do as a player: take a decision through the table's buttons, join a
 * table from the lobby (confirming its information, R-INFO), read chip amounts, keep screenshots, and
 * collect the page's errors (every flow ends by asserting there were none).
 */
import { execFileSync } from 'node:child_process';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { artifactPath } from './host';

/**
 * Every decision button a table may offer (test ids of ActionBar.vue), and last the accidental-call
 * guard's confirmation: a flow clicks within the guard's window after a practice player's large raise,
 * and a player who meant it confirms.
 */
export const ACTIONS = ['action-check', 'action-call', 'action-bringin', 'action-standpat', 'action-draw', 'action-show', 'action-muck', 'action-fold', 'guard-confirm'];

/**
 * Our decision is offered: one of the table's decision buttons. Not `[data-testid^="action-"]`, which
 * the action clock (`action-clock`, shown beside whoever is to act) also matches.
 */
export function decisionOffered(tile: Locator): Locator {
  return tile.locator(ACTIONS.filter((a) => a.startsWith('action-')).map((a) => `[data-testid="${a}"]`).join(',')).first();
}

/** The cheapest way through a hand: check, post the bring-in, stand pat, show, else fold. */
export const PASSIVE = ['action-check', 'action-bringin', 'action-standpat', 'action-show', 'action-fold'];

/**
 * The moves of the table's log (PokerTable's `data-our-moves`: "<hand> <entry>:<kind> …", and
 * `data-last-moves` for the last hand that ended) each button must bring: the guard's confirmation
 * sends the call or bet it held.
 */
const MOVE_OF: Record<string, readonly string[]> = {
  'action-check': ['check'],
  'action-call': ['call'],
  'action-bringin': ['bring-in'],
  'action-standpat': ['discard'],
  'action-draw': ['discard'],
  'action-show': ['show'],
  'action-muck': ['muck'],
  'action-fold': ['fold'],
  'guard-confirm': ['call', 'bet', 'raise', 'complete'],
};

/** How long a sent move may take to come back in the table's log (a round trip to the operator). */
const MOVE_LOGGED_MS = 10_000;

type SeenMoves = { table: string; moves: string; last: string };
// The page's side, typed here: this program's lib has no DOM.
type PageElement = { getAttribute(name: string): string | null; hasAttribute(name: string): boolean; querySelectorAll(sel: string): Iterable<PageElement> };
type PageGlobals = {
  __cercleMoves?: SeenMoves[];
  Element: abstract new () => PageElement;
  document: { documentElement: PageElement; querySelectorAll(sel: string): Iterable<PageElement> };
  MutationObserver: new (cb: (records: { type: string; target: unknown; addedNodes: Iterable<unknown> }[]) => void) => { observe(target: PageElement, options: object): void };
};

/**
 * Records, in the page, every value the tables' `data-our-moves` and `data-last-moves` take (once per
 * page: a state shown for one frame, or a table that leaves between two polls, is still seen). Returns
 * how many values were recorded so far.
 */
async function watchMoves(page: Page): Promise<number> {
  return page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    if (g.__cercleMoves) return g.__cercleMoves.length;
    const seen: SeenMoves[] = (g.__cercleMoves = []);
    const last = new Map<string, string>();
    const note = (el: PageElement): void => {
      const table = el.getAttribute('data-testid') ?? '';
      const moves = el.getAttribute('data-our-moves') ?? '';
      const ended = el.getAttribute('data-last-moves') ?? '';
      if (last.get(table) !== `${moves}|${ended}`) {
        last.set(table, `${moves}|${ended}`);
        seen.push({ table, moves, last: ended });
      }
    };
    const noteAll = (el: PageElement): void => {
      if (el.hasAttribute('data-our-moves')) note(el);
      for (const inner of el.querySelectorAll('[data-our-moves]')) note(inner);
    };
    new g.MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes') note(r.target as PageElement);
        else for (const n of r.addedNodes) if (n instanceof g.Element) noteAll(n);
      }
    }).observe(g.document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-our-moves', 'data-last-moves'] });
    for (const el of g.document.querySelectorAll('[data-our-moves]')) note(el);
    return seen.length;
  });
}

/** "<hand> <entry>:<kind> …" as one "<hand>:<entry>:<kind>" per move. */
function movesOf(value: string): string[] {
  const [hand, ...moves] = value.split(' ');
  return moves.map((m) => `${hand}:${m}`);
}

/** The values of `table`'s moves the page recorded from record `from` on. */
async function valuesSince(page: Page, table: string, from: number): Promise<SeenMoves[]> {
  return page.evaluate(([t, f]) => ((globalThis as unknown as PageGlobals).__cercleMoves ?? []).slice(f).filter((m) => m.table === t), [table, from] as const);
}

/** How many of `moves` ("<hand>:<entry>:<kind>") are of one of these kinds. */
function countOf(moves: readonly string[], kinds: readonly string[]): number {
  return moves.filter((m) => kinds.includes(m.slice(m.lastIndexOf(':') + 1))).length;
}

/**
 * A click proves nothing until the move is in the table's log. Waits for a move of
 * ours of the clicked kind that was not in the log before the click; a call or bet that opens the
 * accidental-call guard is confirmed (a player who meant it confirms). A click that never reaches the
 * log fails the flow even where the caller tolerates "no decision offered" (a soft failure, then a throw).
 * The move may also be found in the hand's record once it ended: a page busy for a moment draws the
 * pushes that came meanwhile as one, and can go from our decision straight to the next hand (seen
 * when two tables were clicked at once, multitabling.spec).
 */
async function expectLogged(tile: Locator, table: string, before: string, from: number, clicked: string): Promise<void> {
  const page = tile.page();
  const hand = before.split(' ')[0];
  const known = movesOf(before);
  let wanted = MOVE_OF[clicked];
  let values: SeenMoves[] = [];
  const fresh = (): string[] => [...new Set(values.flatMap((v) => movesOf(v.moves)))].filter((m) => !known.includes(m));
  // In the ended hand's record: more moves of the kind than we had made in that hand before the click.
  const inRecord = (): boolean => hand !== '' && values.some((v) => v.last.split(' ')[0] === hand && countOf(movesOf(v.last), wanted) > countOf(known, wanted));
  const deadline = Date.now() + MOVE_LOGGED_MS;
  while (Date.now() < deadline) {
    values = await valuesSince(page, table, from);
    if (countOf(fresh(), wanted) > 0 || inRecord()) return;
    // Leaving after the hand: the operator lets us go once we hold no cards, and the client drops the
    // table at once, maybe before drawing the fold that freed us. A table gone within this wait, well
    // inside the action clock (15 s), went because the move was made, not timed out.
    if ((await page.getByTestId(table).count()) === 0) return;
    const guard = tile.getByTestId('guard-confirm');
    if (clicked !== 'guard-confirm' && (await guard.isVisible().catch(() => false))) {
      if (await clickOn(guard, { timeout: 1_500 }).then(() => true, () => false)) wanted = MOVE_OF['guard-confirm'];
    }
    await page.waitForTimeout(50);
  }
  const error = await tile.getByTestId('table-error').textContent({ timeout: 200 }).catch(() => null);
  const message =
    `${clicked} was clicked on ${table}, but the table's log never showed our ${wanted.join(' or ')}` +
    ` (before: "${before}"; then: ${values.map((v) => `"${v.moves}" (last hand: "${v.last}")`).join(', ') || 'no change'}${error ? `; the table says: ${error}` : ''})`;
  expect.soft(fresh(), message).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`:(${wanted.join('|')})$`))]));
  throw new Error(message);
}

/** Per page, the last input action queued (see oneAtATime). */
const inputQueues = new WeakMap<Page, Promise<unknown>>();

/**
 * Runs a click or typing on this page after the ones already queued there. Playwright's input actions
 * are not safe to run at once on one page: there is one mouse, and the check that a click lands on its
 * element (the page's hit-target interceptor) has one slot per frame. A second click made meanwhile
 * takes the slot: the first click's events are then judged off target and swallowed, while its
 * `click()` resolves as done. Two plain buttons clicked at once 40 times: 16 clicks of the first were
 * lost (multitabling.spec). That was the click history.spec lost playing two tables at once; the
 * client took every click it was given.
 */
export function oneAtATime<T>(page: Page, action: () => Promise<T>): Promise<T> {
  const run = (inputQueues.get(page) ?? Promise.resolve()).then(action, action);
  inputQueues.set(page, run.catch(() => undefined));
  return run;
}

/** A click made after any other input action queued on its page (oneAtATime). */
export function clickOn(target: Locator, options?: { timeout?: number }): Promise<void> {
  return oneAtATime(target.page(), () => target.click(options));
}

/** A decision a table offers us: the table (by its id), our moves in its log so far, and the button to take. */
interface Offer {
  table: Locator;
  tableId: string;
  moves: string;
  button: Locator;
  id: string;
}

/** The decision the tile offers now, the first offered in `prefer` order (falling back to any offered); null when none. */
async function offered(tile: Locator, prefer: string[]): Promise<Offer | null> {
  const any = tile.locator(ACTIONS.map((a) => `[data-testid="${a}"]`).join(','));
  if (!(await any.first().isVisible().catch(() => false))) return null;
  const root = await tile
    .evaluate((el) => {
      const t = el.matches('[data-our-moves]') ? el : el.querySelector('[data-our-moves]');
      return t === null ? null : { table: t.getAttribute('data-testid') ?? '', moves: t.getAttribute('data-our-moves') ?? '' };
    // A tile found by position may be gone (its table left after the hand): evaluate would wait for
    // it without end (no default timeout), until the test's own timeout. Look again instead.
    }, undefined, { timeout: 1_000 })
    .catch(() => null);
  if (root === null) return null;
  // From here on the table itself, by its id: a tile found by position (`nth`) may show another
  // table by the time we click, once a table before it has left.
  const table = tile.page().getByTestId(root.table);
  for (const id of [...prefer, ...ACTIONS]) {
    const button = table.getByTestId(id);
    // isEnabled waits for the element without end by default: the button may go between the two calls.
    if ((await button.isVisible().catch(() => false)) && (await button.isEnabled({ timeout: 200 }).catch(() => false))) {
      return { table, tableId: root.table, moves: root.moves, button, id };
    }
  }
  return null;
}

/**
 * Waits until the table offers us a decision, then takes the first offered in `prefer` order (falling
 * back to any offered), and waits until the move is in the table's log. Returns the action taken.
 * Several at once on one page are safe: their clicks are made one after another (oneAtATime).
 */
export async function actIn(tile: Locator, prefer: string[] = PASSIVE, waitMs = 45_000): Promise<string> {
  const page = tile.page();
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const o = await offered(tile, prefer);
    if (o !== null) {
      const from = await watchMoves(page);
      const clicked = await clickOn(o.button, { timeout: 1_500 }).then(
        () => true,
        () => false, // the hand moved on under the pointer: look again
      );
      if (clicked) {
        await expectLogged(o.table, o.tableId, o.moves, from, o.id);
        return o.id;
      }
    }
    await page.waitForTimeout(50);
  }
  throw new Error(`no decision offered within ${waitMs / 1000} s`);
}

/**
 * Multi-tabling at the same instant: waits until every tile offers us a decision, then clicks them all
 * in one task of the page (the clicks reach the page back to back, before it draws again), and waits
 * until each move is in its table's log. `busyMs`: the same task then keeps the page busy that long
 * (a page that cannot draw for a moment: what comes meanwhile is drawn at once). Returns the actions taken.
 */
export async function actAtOnce(tiles: Locator[], prefer: string[] = PASSIVE, busyMs = 0, waitMs = 45_000): Promise<string[]> {
  const page = tiles[0].page();
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const offers = await Promise.all(tiles.map((t) => offered(t, prefer)));
    if (offers.every((o) => o !== null)) {
      const from = await watchMoves(page);
      type Clickable = { disabled: boolean; click(): void };
      const clicked = await page.evaluate(
        ([targets, busy]) => {
          const done = targets.map(([table, id]) => {
            const b = (globalThis as unknown as { document: { querySelector(sel: string): Clickable | null } }).document.querySelector(`[data-testid="${table}"] [data-testid="${id}"]`);
            if (b === null || b.disabled) return false;
            b.click();
            return true;
          });
          for (const end = Date.now() + busy; Date.now() < end; );
          return done;
        },
        [offers.map((o) => [o.tableId, o.id] as const), busyMs] as const,
      );
      // A decision gone between the look and the clicks (the hand moved on): none was lost, look again.
      if (clicked.every(Boolean)) {
        await Promise.all(offers.map((o) => expectLogged(o.table, o.tableId, o.moves, from, o.id)));
        return offers.map((o) => o.id);
      }
      await Promise.all(offers.map((o, i) => (clicked[i] ? expectLogged(o.table, o.tableId, o.moves, from, o.id) : undefined)));
    }
    await page.waitForTimeout(50);
  }
  throw new Error(`no decision offered at every table at once within ${waitMs / 1000} s`);
}

/** Waits for our decision; shoves (types more than the stack) when a bet is offered, else calls or checks. */
export async function shove(tile: Locator): Promise<'shove' | 'other' | 'busted'> {
  const input = tile.getByTestId('bet-input');
  const rebuy = tile.getByTestId('rebuy-offer');
  // The decision buttons only: a seat's action clock (`action-clock`) is no decision.
  const any = tile.locator('button[data-testid^="action-"]');
  await expect(any.or(rebuy).first()).toBeVisible({ timeout: 45_000 });
  if (await rebuy.isVisible()) return 'busted';
  if (await input.isVisible().catch(() => false)) {
    const ok = await oneAtATime(tile.page(), () => input.fill('999999', { timeout: 1_500 })).then(
      () => true,
      () => false,
    );
    if (ok && (await tile.getByTestId('action-bet').isVisible().catch(() => false))) {
      // More than the stack: the button says all-in (Tapis) and sends the stack.
      // Bounded: the button may go between the two calls (the turn passed), and textContent waits for it
      // without end by default (a CI run hung here until the test's own timeout).
      const text = (await tile.getByTestId('action-bet').textContent({ timeout: 1_500 }).catch(() => '')) ?? '';
      if (/^Tapis/.test(text) && (await clickOn(tile.getByTestId('action-bet'), { timeout: 1_500 }).then(() => true, () => false))) return 'shove';
    }
  }
  await actIn(tile, ['action-call', 'action-check', 'guard-confirm', 'action-show', 'action-fold'], 5_000).catch(() => undefined);
  return 'other';
}

/**
 * Shoves every hand until the stack is gone (practice players call strong hands; bounded), then the
 * table must offer a rebuy within its limits.
 */
export async function bustAt(tile: Locator, offer: string): Promise<void> {
  let busted = false;
  for (let i = 0; i < 80 && !busted; i++) busted = (await shove(tile)) === 'busted';
  expect(busted).toBe(true);
  await expect(tile.getByTestId('rebuy-offer')).toContainText(offer);
}

/** Sits at a table from the lobby: the information must be confirmed before the button works (R-INFO). */
export async function joinTable(page: Page, tableId: string): Promise<Locator> {
  await page.getByTestId('nav-lobby').click();
  await page.getByTestId(`join-${tableId}`).click();
  await expect(page.getByTestId('join-dialog')).toBeVisible();
  await expect(page.getByTestId('join-submit')).toBeDisabled();
  await page.getByTestId('join-confirm-info').check();
  await page.getByTestId('join-submit').click();
  await expect(page.getByTestId('tables-view')).toBeVisible();
  const tile = page.getByTestId(`tile-${tableId}`);
  await expect(tile).toBeVisible();
  return tile;
}

/** Joins from the lobby panel beside the tiles; the tables already open stay visible. */
export async function joinBeside(page: Page, tableId: string, open: string[]): Promise<void> {
  if (!(await page.getByTestId('lobby-panel').isVisible())) await page.getByTestId('tables-more').click();
  await expect(page.getByTestId('lobby-panel')).toBeVisible();
  for (const id of open) await expect(page.getByTestId(`tile-${id}`)).toBeVisible();
  await page.getByTestId('lobby-panel').getByTestId(`join-${tableId}`).click();
  await page.getByTestId('join-confirm-info').check();
  await page.getByTestId('join-submit').click();
  await expect(page.getByTestId(`tile-${tableId}`)).toBeVisible();
  for (const id of open) await expect(page.getByTestId(`tile-${id}`)).toBeVisible();
}

/**
 * Leaves a table by its "Quitter" button. While we hold cards in a live hand the table asks first: `now`
 * folds the hand and leaves, `after` plays it on and leaves when it ends.
 * Returns whether the table asked.
 */
export async function leaveTable(tile: Locator, when: 'now' | 'after' = 'now'): Promise<boolean> {
  const confirm = tile.getByTestId('leave-confirm');
  let asked = false;
  for (let attempt = 0; attempt < 5; attempt++) {
    await tile.getByTestId('table-leave').click();
    // The question shows at once when it applies (the click and the check run on the same state).
    if (!(await confirm.isVisible())) return asked;
    asked = true;
    try {
      await tile.getByTestId(when === 'now' ? 'leave-now' : 'leave-after').click({ timeout: 5_000 });
      return true;
    } catch (e) {
      // The question goes with the hand it is about: when that hand ends first (an absent player's
      // cards folded by the clock, met on a loaded machine), nothing was left: ask again.
      if (await confirm.isVisible()) throw e;
    }
  }
  throw new Error('the table kept asking and its question kept going before it was answered');
}

/** The embedded operator: the host's child process running embedded-child.cjs. */
export function operatorPid(hostPid: number): number {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(hostPid)], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.includes('embedded'));
  if (!line) throw new Error(`no embedded operator under ${hostPid}:\n${out}`);
  return Number(line.trim().split(/\s+/)[0]);
}

/** Chips in a status-bar or results text ("+1 234 jetons", "−50 jetons"). */
export function chips(text: string | null): number {
  const m = /([+\-\u2212]?)([\d\s\u202f\u00a0]+) jetons/.exec(text ?? '');
  if (!m) throw new Error(`no chip amount in ${text}`);
  return (m[1] === '' || m[1] === '+' ? 1 : -1) * Number(m[2].replace(/\D/g, ''));
}

/** A screenshot kept as an artifact (test-results/artifacts) and attached to the report. */
/** Opens the client at `url` and waits until the status bar says it is connected to its operator (the guest signed in). */
export async function openConnected(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('status-link')).toHaveText('Connecté', { timeout: 20_000 });
}

export async function shot(page: Page, info: TestInfo, name: string, fullPage = false): Promise<void> {
  const path = artifactPath(`${name}.png`);
  await page.screenshot({ path, fullPage });
  await info.attach(name, { path, contentType: 'image/png' });
}

/** Page errors and console errors seen from now on; a flow asserts the list is empty at its end. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  return problems;
}
