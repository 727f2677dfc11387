/**
 * Four tables at 1280×720 and nine at 1920×1080 can be read, as a measured property, in the tile,
 * cascade and stack views: in every tile the hole cards, the board, the pot, every seat plate, the
 * hand-strength line and every action button lie on none of the others and inside the tile, no text
 * is under 11 px and no card under 30 × 42 px; tiled, the grid does not scroll. Cascaded tiles
 * overlap one another by design (the focused one in front): the property holds per tile.
 * Measured on practice tables (6 seats, 4 practice players), with the hands running and our decision
 * shown in at least one tile. Screenshots go to tests/artifacts.
 */
import { expect, test, type Page } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { layoutProblems, type Part, type TileMeasure } from '../layout-check';
import { ACTIONS, actIn, clickOn, joinBeside, joinTable, openConnected, shot, watchProblems } from '../player';

let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost(undefined, FAST_PRACTICE);
});
test.afterAll(async () => {
  await host.stop();
});

/** The parts that must not overlap (test ids of TableSeat, PokerTable and ActionBar). */
const PARTS = [
  '[data-testid="hole-cards"]',
  '[data-testid^="cards-"]',
  '[data-testid="board"]',
  '[data-testid="pot"]',
  '[data-testid^="seat-plate-"]',
  '[data-testid="made-hand"]',
  'button[data-testid^="action-"]',
  '[data-testid^="preset-"]',
  '[data-testid="bet-slider"]',
  '[data-testid="bet-input"]',
].join(',');

interface Snapshot {
  tiles: TileMeasure[];
  /** Tiles showing our decision, and tiles with cards dealt to us. */
  deciding: number;
  dealt: number;
  /** The grid's scroll beyond its box, px (0 when it does not scroll). */
  gridOverflow: number;
}

// The page's side, typed here: this program's lib has no DOM.
type El = {
  getAttribute(n: string): string | null;
  getBoundingClientRect(): { x: number; y: number; width: number; height: number };
  querySelectorAll(sel: string): Iterable<El>;
  childNodes: Iterable<{ nodeType: number; textContent: string | null }>;
  textContent: string | null;
  scrollHeight: number;
  clientHeight: number;
};
type Win = { document: { querySelectorAll(sel: string): Iterable<El>; querySelector(sel: string): El | null }; getComputedStyle(e: El): { fontSize: string; visibility: string } };

/** Every tile measured in one task of the page, so that all boxes are of one and the same moment. */
function measure(page: Page): Promise<Snapshot> {
  return page.evaluate((parts) => {
    const w = globalThis as unknown as Win;
    const rect = (e: El): { x: number; y: number; width: number; height: number } => {
      const b = e.getBoundingClientRect();
      return { x: b.x, y: b.y, width: b.width, height: b.height };
    };
    const tiles = [...w.document.querySelectorAll('[data-tile]')].map((t) => {
      const texts: { name: string; px: number }[] = [];
      for (const e of t.querySelectorAll('*')) {
        const own = [...e.childNodes].filter((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
        const b = e.getBoundingClientRect();
        if (own.length === 0 || b.width === 0 || b.height === 0 || w.getComputedStyle(e).visibility === 'hidden') continue;
        texts.push({ name: own.map((n) => n.textContent ?? '').join('').trim().slice(0, 40), px: parseFloat(w.getComputedStyle(e).fontSize) });
      }
      return {
        tile: t.getAttribute('data-testid') ?? '',
        box: rect(t),
        parts: [...t.querySelectorAll(parts)].map((e) => ({ name: e.getAttribute('data-testid') ?? '', ...rect(e) })),
        texts,
        cards: [...t.querySelectorAll('.card')].map((e) => ({ name: e.getAttribute('aria-label') ?? 'card', ...rect(e) })),
      };
    });
    const grid = w.document.querySelector('[data-testid="tables-grid"]');
    return {
      tiles,
      deciding: tiles.filter((t) => t.parts.some((p) => p.name.startsWith('action-'))).length,
      dealt: tiles.filter((t) => t.parts.some((p) => p.name === 'hole-cards')).length,
      gridOverflow: grid === null ? 0 : Math.max(0, grid.scrollHeight - grid.clientHeight),
    };
  }, PARTS);
}

/** What was found in one view: the problems, and the smallest text and card seen. */
interface Finding {
  problems: string[];
  minText: number;
  minCard: string;
  parts: number;
}

/** Our decision buttons (not the action clock, also `action-…`). */
const DECISIONS = ACTIONS.filter((a) => a.startsWith('action-')).map((a) => `[data-testid="${a}"]`).join(',');

/**
 * Plays every decision shown (check, call, else fold), each about a second after it shows, until
 * stopped; sits back in at a table that sat us out. Tables left to their clock would sit us out,
 * and a table with no hand for us has no hole cards and no buttons to measure.
 */
function keepPlaying(page: Page): () => Promise<void> {
  let on = true;
  const run = (async () => {
    while (on) {
      // Pacing, not a wait for a state: each decision stays on screen for the measures to see it.
      await page.waitForTimeout(1_000).catch(() => (on = false));
      const deciding = page.locator('[data-tile]').filter({ has: page.locator(DECISIONS) });
      for (let k = await deciding.count(); k > 0 && on; k--) await actIn(deciding.first(), ['action-check', 'action-call', 'action-fold'], 2_000).catch(() => undefined);
      const back = page.locator('[data-testid="table-sitout"][aria-pressed="true"]');
      if (on && (await back.count()) > 0) await clickOn(back.first(), { timeout: 2_000 }).catch(() => undefined);
    }
  })();
  return async () => {
    on = false;
    await run;
  };
}

/** What one snapshot shows, to tell two snapshots apart. */
const signature = (s: Snapshot): string => JSON.stringify(s.tiles.map((t) => [t.parts.map((p) => p.name), t.cards.map((c) => c.name)]));

/**
 * Measures the tiles `rounds` times, each at a moment our decision is shown in one tile and cards
 * are dealt to us in at least two, each moment a different one.
 */
async function readability(page: Page, tiles: number, rounds: number, scrolls: boolean): Promise<Finding> {
  const problems = new Set<string>();
  let minText = Infinity;
  let minCard: Part | null = null;
  let parts = 0;
  let last = '';
  for (let i = 0; i < rounds; i++) {
    let snap: Snapshot | null = null;
    await expect
      .poll(async () => {
        snap = await measure(page);
        return snap.deciding > 0 && snap.dealt >= Math.min(2, tiles) && signature(snap) !== last;
      }, { timeout: 90_000, intervals: [100, 200, 300] })
      .toBe(true);
    const s = snap as unknown as Snapshot;
    last = signature(s);
    expect(s.tiles).toHaveLength(tiles);
    if (!scrolls && s.gridOverflow > 1) problems.add(`the grid scrolls (${s.gridOverflow} px more than its box)`);
    for (const t of s.tiles) {
      for (const p of layoutProblems(t)) problems.add(p);
      for (const x of t.texts) minText = Math.min(minText, x.px);
      for (const c of t.cards) if (minCard === null || c.width * c.height < minCard.width * minCard.height) minCard = c;
      parts += t.parts.length;
    }
  }
  return { problems: [...problems], minText, minCard: minCard === null ? 'none' : `${Math.round(minCard.width)}×${Math.round(minCard.height)}`, parts };
}

/** Each view in turn (tile, cascade, stack), measured and shot; the findings reported per view. */
async function everyView(page: Page, info: Parameters<typeof shot>[1], size: string, tiles: number): Promise<string[]> {
  const all: string[] = [];
  for (const view of ['tile', 'cascade', 'stack'] as const) {
    // Queued after the clicks of keepPlaying: two clicks at once on one page lose one (oneAtATime).
    await clickOn(page.getByTestId(`layout-${view}`));
    await expect(page.getByTestId('tables-grid')).toHaveAttribute('data-layout', view);
    const f = await readability(page, tiles, 3, view === 'stack');
    await shot(page, info, `layout-${size}-${tiles}-${view}`);
    const line = `${size} ${tiles} tables, ${view}: ${f.problems.length} problems, ${f.parts} parts measured, smallest text ${f.minText} px, smallest card ${f.minCard}`;
    info.annotations.push({ type: 'layout', description: line });
    console.log([line, ...f.problems].join('\n'));
    all.push(...f.problems.map((p) => `${size} ${view}: ${p}`));
  }
  return all;
}

test.use({ actionTimeout: 30_000 });

test('four tables at 1280×720 and nine at 1920×1080 can be read: nothing on anything, nothing cut, text and cards large enough', async ({ page }, info) => {
  test.setTimeout(600_000);
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openConnected(page, host.url);
  await joinTable(page, 'practice-thnl');
  const open = ['practice-thnl'];
  for (const id of ['practice-thl', 'practice-o4hpl', 'practice-thpl']) {
    await joinBeside(page, id, open);
    open.push(id);
  }
  await page.getByTestId('lobby-panel-close').click();
  let stop = keepPlaying(page);
  const found = await everyView(page, info, '1280x720', 4).finally(stop);

  await page.setViewportSize({ width: 1920, height: 1080 });
  await clickOn(page.getByTestId('layout-tile'));
  for (const id of ['practice-7shl', 'practice-2t7td', 'practice-o4jl', 'practice-o5hpl', 'practice-7sll']) {
    await joinBeside(page, id, open);
    open.push(id);
  }
  await page.getByTestId('lobby-panel-close').click();
  await expect(page.getByTestId('tables-grid')).toHaveAttribute('data-cols', '3');
  stop = keepPlaying(page);
  found.push(...(await everyView(page, info, '1920x1080', 9).finally(stop)));
  await page.getByTestId('layout-tile').click();

  expect(found).toEqual([]);
  expect(problems).toEqual([]);
});
