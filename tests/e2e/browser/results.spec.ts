/**
 * Results after a few hands (R-RESULTS, R-TRACKER), in Chromium through the browser host against the
 * embedded operator: play hands of no-limit hold'em through the table's buttons, leave, open Results
 * and read the graph (drawn on a canvas by uPlot, under the page's CSP), its total (equal to the
 * status bar's session result), the sessions table and the statistics (VPIP over the hands played).
 */
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { artifactPath, FAST_PRACTICE, type RunningHost, startHost } from '../host';

let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost(undefined, FAST_PRACTICE);
});
test.afterAll(async () => {
  await host.stop();
});

async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = artifactPath(`results-${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

const ACTIONS = ['action-check', 'action-call', 'action-bringin', 'action-standpat', 'action-draw', 'action-show', 'action-muck', 'action-fold'];

/** As in play.spec.ts: waits for a decision, takes the first offered in `prefer` order. */
async function actIn(tile: Locator, prefer: string[] = ['action-check', 'action-bringin', 'action-standpat', 'action-show', 'action-fold'], waitMs = 45_000): Promise<string> {
  const any = tile.locator(ACTIONS.map((a) => `[data-testid="${a}"]`).join(','));
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (await any.first().isVisible().catch(() => false)) {
      for (const id of [...prefer, ...ACTIONS]) {
        const b = tile.getByTestId(id);
        if ((await b.isVisible().catch(() => false)) && (await b.isEnabled().catch(() => false))) {
          const clicked = await b.click({ timeout: 1_500 }).then(
            () => true,
            () => false,
          );
          if (clicked) return id;
        }
      }
    }
    await tile.page().waitForTimeout(50);
  }
  throw new Error('no decision offered within 45 s');
}

/** Chips in a status-bar or results text ("+1 234 jetons", "−50 jetons"). */
function chips(text: string | null): number {
  const m = /([+\-\u2212]?)([\d\s\u202f\u00a0]+) jetons/.exec(text ?? '');
  if (!m) throw new Error(`no chip amount in ${text}`);
  return (m[1] === '' || m[1] === '+' ? 1 : -1) * Number(m[2].replace(/\D/g, ''));
}

test('play a few hands, then read the results graph, total, sessions and statistics', async ({ page }, info) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });

  await page.goto(host.url);
  await expect(page.getByTestId('status-link')).toHaveText('Connecté', { timeout: 20_000 });

  // Before any hand: the page says so, and draws nothing.
  await page.getByTestId('nav-results').click();
  await expect(page.getByTestId('results-view')).toBeVisible();
  await expect(page.getByTestId('results-chart-empty')).toBeVisible();

  // Sit at the no-limit hold'em practice table and play: calls first (voluntary chips: VPIP), then checks and folds.
  await page.getByTestId('nav-lobby').click();
  await page.getByTestId('join-practice-thnl').click();
  await page.getByTestId('join-confirm-info').check();
  await page.getByTestId('join-submit').click();
  const tile = page.getByTestId('tile-practice-thnl');
  await expect(tile.getByTestId('hole-cards')).toBeVisible({ timeout: 30_000 });
  // Ten decisions, or fewer when the table pauses (a practice table waits for players at times).
  for (let i = 0; i < 10; i++) {
    const prefer = i < 4 ? ['action-call', 'action-check', 'action-show', 'action-fold'] : undefined;
    const done = await actIn(tile, prefer, i < 3 ? 45_000 : 15_000).then(
      () => true,
      () => false,
    );
    if (!done) {
      if (i < 3) throw new Error(`only ${i} decisions offered`);
      break;
    }
  }
  // Leave: at the end of the hand in progress, the chips back to the balance.
  await tile.getByTestId('table-leave').click();
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
  await shot(page, info, 'session');

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
  await shot(page, info, 'today-over-time');
  expect(problems).toEqual([]);
});
