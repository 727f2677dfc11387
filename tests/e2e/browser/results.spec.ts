/**
 * Results after a few hands (R-RESULTS, R-TRACKER), in Chromium through the browser host against the
 * embedded operator: play hands of limit hold'em through the table's buttons, leave, open Results
 * and read the graph (drawn on a canvas by uPlot, under the page's CSP), its total (equal to the
 * status bar's session result), the sessions table and the statistics (VPIP over the hands played).
 */
import { expect, test } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { actIn, chips, joinTable, leaveTable, openConnected, shot, watchProblems } from '../player';

let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost(undefined, FAST_PRACTICE);
});
test.afterAll(async () => {
  await host.stop();
});

test('play a few hands, then read the results graph, total, sessions and statistics', async ({ page }, info) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);

  await openConnected(page, host.url);

  // Before any hand: the page says so, and draws nothing.
  await page.getByTestId('nav-results').click();
  await expect(page.getByTestId('results-view')).toBeVisible();
  await expect(page.getByTestId('results-chart-empty')).toBeVisible();

  // Sit at the limit hold'em practice table and play: calls first (voluntary chips: VPIP; in limit a
  // call is at most a few big bets, so these calls cannot cost the whole stack), then checks and folds.
  const tile = await joinTable(page, 'practice-thl');
  await expect(tile.getByTestId('hole-cards')).toBeVisible({ timeout: 30_000 });
  // Ten decisions (a practice table offers one every few seconds at this pace).
  for (let i = 0; i < 10; i++) await actIn(tile, i < 4 ? ['action-call', 'action-check', 'action-show', 'action-fold'] : undefined);
  // Leave: at the end of the hand in progress, the chips back to the balance.
  await leaveTable(tile);
  await expect(page.locator('[data-testid^="tile-"]')).toHaveCount(0, { timeout: 90_000 });
  const sessionText = await page.getByTestId('status-session').locator('strong').textContent();
  const sessionNet = chips(sessionText);

  // Results of this session, play chips (the practice tables).
  await page.getByTestId('nav-results').click();
  await expect(page.getByTestId('results-view')).toBeVisible();
  await page.getByTestId('results-period-session').click();
  await expect(page.getByTestId('results-money')).toHaveValue('play');
  const hands = page.getByTestId('results-hands');
  await expect(hands).not.toHaveText('0');
  const handCount = Number(await hands.textContent());
  expect(handCount).toBeGreaterThanOrEqual(1);

  // R-TRACKER: the graph's total is the status bar's session result, to the chip, written the same way.
  await expect(page.getByTestId('results-total')).toHaveText(sessionText ?? '');
  expect(Number(await page.getByTestId('results-total').getAttribute('data-value'))).toBe(sessionNet);

  // The graph: a uPlot canvas with lines drawn on it (pixels that are not transparent).
  const canvas = page.getByTestId('results-chart').locator('canvas');
  await expect(canvas).toHaveCount(1);
  type Canvas2d = { width: number; height: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null };
  const painted = await canvas.evaluate((node) => {
    const c = node as unknown as Canvas2d;
    const ctx = c.getContext('2d');
    if (!ctx) return 0;
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++;
    return n;
  });
  expect(painted).toBeGreaterThan(100);
  // The four lines, each toggled from the legend.
  for (const k of ['total', 'showdown', 'noShowdown', 'allInAdjusted']) await expect(page.getByTestId(`results-line-${k}`)).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('results-line-noShowdown').click();
  await expect(page.getByTestId('results-line-noShowdown')).toHaveAttribute('aria-pressed', 'false');
  await shot(page, info, 'results-session', true);

  // Sessions: one, with every hand of this session.
  const rows = page.getByTestId('results-sessions').getByTestId('results-session');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator('td').nth(3)).toHaveText(String(handCount));

  // Statistics: VPIP over the hands the player was dealt in (at least one call was made).
  const stats = page.getByTestId('results-stats');
  await expect(stats).toContainText('VPIP');
  const vpip = await stats.getByTestId('results-stat-vpip').locator('.counts').textContent();
  const m = /(\d+) \/ (\d+)/.exec(vpip ?? '');
  expect(m).not.toBeNull();
  const [num, den] = [Number(m![1]), Number(m![2])];
  expect(den).toBeGreaterThanOrEqual(1);
  expect(den).toBeLessThanOrEqual(handCount);
  expect(num).toBeLessThanOrEqual(den);
  await expect(stats.locator('caption')).toContainText(`(${den} mains)`);

  // Over time, and other periods: today holds the same hands.
  await page.getByTestId('results-axis').selectOption('time');
  await expect(canvas).toHaveCount(1);
  await page.getByTestId('results-period-today').click();
  await expect(hands).toHaveText(String(handCount));
  await expect(page.getByTestId('results-total')).toHaveText(sessionText ?? '');
  await shot(page, info, 'results-today-over-time', true);
  expect(problems).toEqual([]);
});
