/**
 * The hand history and the replayer (R-HISTORY, R-RESULTS), in Chromium through the browser host:
 * play a few hands of Seven Card Stud and of no-limit Hold'em against the practice players, open the
 * last hand from a table, leave, filter the history by game, open a Stud hand's summary, replay it
 * step by step to the end and back, in big blinds and with the names hidden. Screenshots are kept.
 */
import { expect, test, type Locator } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { actIn, joinTable, leaveTable, openConnected, shot, watchProblems } from '../player';

let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost(undefined, FAST_PRACTICE);
});
test.afterAll(async () => {
  await host.stop();
});

/** Plays (checking where it can, else folding: hands end quickly) until `hands` hands have ended at this table. */
async function playHands(tile: Locator, hands: number): Promise<void> {
  const last = tile.getByTestId('table-lasthand');
  const seen = new Set<string>();
  for (let i = 0; i < 80 && seen.size < hands; i++) {
    await actIn(tile, ['action-check', 'action-bringin', 'action-show', 'action-fold']).catch(() => '');
    const id = await last.getAttribute('data-hand-id', { timeout: 200 }).catch(() => null);
    if (id) seen.add(id);
  }
  expect(seen.size).toBeGreaterThanOrEqual(hands);
}

test('filter the history, open a Stud hand, replay it step by step', async ({ page }, info) => {
  test.setTimeout(120_000);
  const problems = watchProblems(page);

  await openConnected(page, host.url);

  // Hands at a Stud table and at a Hold'em table, through the UI.
  const stud = await joinTable(page, 'practice-7shl');
  const holdem = await joinTable(page, 'practice-thnl');
  await Promise.all([playHands(stud, 2), playHands(holdem, 1)]);

  // "Last hand" from a table opens the replayer on it, beside the tables.
  await holdem.getByTestId('table-lasthand').click();
  await expect(page.getByTestId('replay-panel').getByTestId('replayer')).toBeVisible();
  await expect(page.getByTestId('replay-step')).toHaveText(/^1 \/ \d+$/);
  await expect(stud).toBeVisible();
  await page.getByTestId('replay-panel-close').click();

  for (const tile of [stud, holdem]) await leaveTable(tile);
  await expect(page.locator('[data-testid^="tile-"]')).toHaveCount(0, { timeout: 60_000 });

  // The history: both games listed, newest first.
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('exchange-panel')).toBeAttached();
  const list = page.getByTestId('history-list');
  const rows = list.locator('[data-testid^="history-row-"]');
  await expect(rows.first()).toBeVisible();
  await expect(list.locator('[data-variant="7SHL"]').first()).toBeVisible();
  await expect(list.locator('[data-variant="THNL"]').first()).toBeVisible();
  // Our own cards on each line: two in Hold'em, more in Stud.
  await expect(list.locator('[data-testid^="history-cards-"]').first()).toHaveText(/^([2-9]|10|[JQKA])[♣♦♥♠]/);
  await shot(page, info, 'history-list-cards');

  // Filter by game: Seven Card Stud only.
  await page.getByTestId('history-filter-variant').selectOption('7SHL');
  await expect(list.locator('[data-variant="THNL"]')).toHaveCount(0);
  await expect(list.locator('[data-variant="7SHL"]').first()).toBeVisible();
  const studRows = await list.locator('[data-variant]').evaluateAll((els) => els.map((e) => e.getAttribute('data-variant')));
  expect(studRows.length).toBeGreaterThanOrEqual(2);
  expect(new Set(studRows)).toEqual(new Set(['7SHL']));
  // Other filters answer too (the Stud hands are all in the last 7 days).
  await page.getByTestId('history-filter-period').selectOption('7d');
  await expect(rows).toHaveCount(studRows.length);
  await page.getByTestId('history-filter-period').selectOption('all');
  // A player who never sat with us: no hand.
  await page.getByTestId('history-filter-player').fill('personne-inconnue');
  await expect(rows).toHaveCount(0);
  await expect(page.getByTestId('history-count')).toHaveText('Aucune main ne correspond à ces filtres.');
  await page.getByTestId('history-filter-player').fill('');
  await expect(rows).toHaveCount(studRows.length);

  // Sorted by net, biggest win first, then smallest first.
  const sorted = async (desc: boolean): Promise<boolean> => {
    const n = await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-net'))));
    return n.length === studRows.length && n.every((x, i) => i === 0 || (desc ? n[i - 1] >= x : n[i - 1] <= x));
  };
  await page.getByTestId('history-sort-net').click();
  await expect.poll(() => sorted(true)).toBe(true);
  await page.getByTestId('history-sort-net').click();
  await expect.poll(() => sorted(false)).toBe(true);
  await page.getByTestId('history-sort-time').click();

  // The hand's summary: our cards, the pots and who won them.
  await rows.first().click();
  const summary = page.getByTestId('history-summary');
  await expect(summary).toBeVisible();
  await expect(summary.getByTestId('history-summary-cards').locator('.card')).not.toHaveCount(0);
  await expect(summary.getByTestId('result-pot-0')).toBeVisible();
  const handId = ((await rows.first().getAttribute('data-testid')) ?? '').replace('history-row-', '');
  await shot(page, info, 'history-list');

  // Lookup by id finds the same hand.
  await page.getByTestId('history-lookup').fill(handId);
  await page.getByTestId('history-lookup-go').click();
  await expect(summary).toContainText(handId);

  // The replayer: step forward to the end, then back to the start.
  await page.getByTestId('history-replay').click();
  const replayer = page.getByTestId('replayer');
  await expect(replayer).toBeVisible();
  const stepText = page.getByTestId('replay-step');
  await expect(stepText).toHaveText(/^1 \/ \d+$/);
  const total = Number(/\/ (\d+)/.exec((await stepText.textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('replay-round-bringIn')).toBeVisible();
  await expect(page.getByTestId('replay-pot')).toBeVisible();
  for (let n = 2; n <= total; n++) {
    await page.getByTestId('replay-next').click();
    await expect(stepText).toHaveText(`${n} / ${total}`);
    if (n === 3) await shot(page, info, 'history-replayer-step');
  }
  await expect(page.getByTestId('replay-next')).toBeDisabled();
  await expect(page.getByTestId('replay-result')).toBeVisible();
  await shot(page, info, 'history-replayer-end');
  // The arrow keys step too.
  await page.keyboard.press('ArrowLeft');
  await expect(stepText).toHaveText(`${total - 1} / ${total}`);
  for (let n = total - 2; n >= 1; n--) {
    await page.getByTestId('replay-prev').click();
    await expect(stepText).toHaveText(`${n} / ${total}`);
  }
  await expect(page.getByTestId('replay-prev')).toBeDisabled();

  // Jump to 4th street (when the hand got there), in big blinds (Stud: small bets), names hidden.
  const fourth = page.getByTestId('replay-round-fourth');
  if (await fourth.isVisible()) {
    await fourth.click();
    await expect(stepText).not.toHaveText(`1 / ${total}`);
  }
  await page.getByTestId('replay-bb').check();
  await expect(page.getByTestId('replay-pot')).toContainText('BB');
  await page.getByTestId('replay-hide-names').check();
  const names = await replayer.locator('[data-testid^="replay-name-"]').allTextContents();
  expect(names.length).toBeGreaterThanOrEqual(2);
  for (const n of names) expect(n).toMatch(/^Joueur \d/);
  await shot(page, info, 'history-replayer-bb-hidden');

  // Play runs to the end by itself at 4×.
  await page.getByTestId('replay-speed').selectOption('4');
  await page.getByTestId('replay-play').click();
  await expect(stepText).toHaveText(`${total} / ${total}`, { timeout: 20_000 });

  expect(problems).toEqual([]);
});
