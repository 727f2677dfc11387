/**
 * Tournaments in the history and on the results page (issue 17 item 4), in Chromium through the
 * browser host: a real history file filled beforehand with generated sit & go's and cash hands
 * (shared/history/generate.ts, stored through the store as the client stores them), then, as a
 * player: the History's tournament hands and its tournament list, one tournament's hands; the Results
 * page's tournament figures (count, net, ROI), and the graph of cash games, tournaments and both,
 * whose end totals are checked against the generated records.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillHistory } from '../../../electron/services/history/generate';
import { HistoryStore } from '../../../electron/services/history/store';
import { generateHands } from '../../../shared/history/generate';
import { type RunningHost, startHost } from '../host';
import { shot, watchProblems } from '../player';

const DAY = 86_400_000;
const END = Date.now() - 2 * 3_600_000;
const OPTIONS = { hands: 2500, seed: 17, end: END, days: 8, tournaments: 0.3 };
const all = [...generateHands(OPTIONS)];
const finished = all.flatMap((h) => (h.finished ? [h.finished] : []));
const real = finished.filter((t) => t.money === 'real');
const net = (t: (typeof finished)[number]): number => t.prize + t.bounties - t.spent;

let host: RunningHost;
test.beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cercle-e2e-tourn-'));
  const store = HistoryStore.open(join(dataDir, 'history.sqlite'));
  fillHistory(store, OPTIONS);
  store.close();
  host = await startHost(dataDir);
});
test.afterAll(async () => {
  await host.stop();
});

test('tournaments in the history and the results: list, one tournament’s hands, ROI, the graph of cash, tournaments or both', async ({ page }, info) => {
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  expect(real.length).toBeGreaterThan(2);
  expect(finished.length).toBeLessThanOrEqual(50); // one page of the list

  await page.goto(host.url);
  await expect(page.getByTestId('status-link')).toHaveText('Connecté', { timeout: 20_000 });

  // History: tournament hands, with the tournaments listed above them.
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-view')).toBeVisible();
  await page.getByTestId('history-filter-kind').selectOption('tournament');
  const list = page.getByTestId('history-tournaments');
  await expect(list.locator('tbody tr')).toHaveCount(finished.length);
  // Every hand listed is a tournament's (the list is paged: the first page is checked).
  await expect(page.getByTestId('history-count')).toContainText('mains affichées', { timeout: 20_000 });
  const shownHands = page.locator('[data-testid^="history-row-"]');
  // The list is redrawn when the new page of hands arrives: wait until no cash hand is left in it (the
  // count read at once raced the redraw: 14 tournament hands of 20 rows, once).
  // Both at once: an empty list between two pages also has no cash hand (met once in a clean-clone run).
  const kinds = async (): Promise<{ cash: number; tournament: number }> => ({
    cash: await page.locator('[data-testid^="history-row-"]:not(:has([data-tournament]))').count(),
    tournament: await page.locator('[data-testid^="history-row-"]:has([data-tournament])').count(),
  });
  await expect.poll(async () => { const k = await kinds(); return k.cash === 0 && k.tournament > 0; }, { timeout: 20_000 }).toBe(true);
  expect(await shownHands.count()).toBeGreaterThan(0);
  // The newest first; a tournament's place and field, its net, its hands.
  const byNewest = [...finished].sort((a, b) => b.registeredAt - a.registeredAt);
  await expect(list.locator('tbody tr').first()).toHaveAttribute('data-testid', `history-tournament-${byNewest[0].tournamentId}`);
  const newest = byNewest.find((t) => t.hands <= 100)!; // its hands fit the list's first page
  const row = page.getByTestId(`history-tournament-${newest.tournamentId}`);
  await expect(row).toContainText(`${newest.place} / ${newest.entries}`);
  await expect(row.locator('td').nth(6)).toHaveAttribute('data-value', String(net(newest)));
  await expect(row.locator('td').nth(7)).toHaveText(String(newest.hands));
  // A click lists its hands, each at its level.
  await row.click();
  await expect(page.getByTestId('history-tournament-picked')).toContainText(newest.tournamentId);
  await expect(page.getByTestId('history-count')).toHaveText(`${newest.hands} mains affichées`, { timeout: 20_000 });
  await expect(page.locator('[data-tournament]').first()).toContainText('Niveau');
  await shot(page, info, 'history-tournament', true);
  await page.getByTestId('history-tournament-clear').click();
  // Cash hands only: no tournament list.
  await page.getByTestId('history-filter-kind').selectOption('cash');
  await expect(list).toHaveCount(0);

  // Results, real money, over the generated days.
  await page.getByTestId('nav-results').click();
  await expect(page.getByTestId('results-view')).toBeVisible();
  await page.getByTestId('results-period-custom').click();
  const day = (ms: number): string => {
    const d = new Date(ms);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  };
  await page.getByTestId('results-from').fill(day(END - 12 * DAY));
  await page.getByTestId('results-to').fill(day(Date.now()));
  await page.getByTestId('results-money').selectOption('real');
  const tournamentsNet = real.reduce((a, t) => a + net(t), 0);
  const spent = real.reduce((a, t) => a + t.spent, 0);
  await expect(page.getByTestId('results-tournaments-count')).toHaveText(String(real.length));
  await expect(page.getByTestId('results-tournaments-net')).toHaveAttribute('data-value', String(tournamentsNet));
  const roi = new Intl.NumberFormat('fr', { style: 'percent', maximumFractionDigits: 1, minimumFractionDigits: 1, signDisplay: 'exceptZero' }).format(tournamentsNet / spent);
  await expect(page.getByTestId('results-tournaments-roi')).toHaveText(roi);
  // The graph: cash hands (their nets), tournaments (plotted at their ends), both added.
  const cashNet = all
    .filter((h) => h.meta.tournament === undefined && h.meta.money === 'real')
    .reduce((a, h) => a + h.record.seats.find((s) => s.seat === h.meta.heroSeat)!.net, 0);
  await expect(page.getByTestId('results-total')).toHaveAttribute('data-value', String(cashNet));
  await page.getByTestId('results-graph').selectOption('tournaments');
  await expect(page.getByTestId('results-total')).toHaveAttribute('data-value', String(tournamentsNet));
  await expect(page.getByTestId('results-hands')).toHaveText(String(real.length));
  await page.getByTestId('results-graph').selectOption('both');
  await expect(page.getByTestId('results-total')).toHaveAttribute('data-value', String(cashNet + tournamentsNet));
  await shot(page, info, 'results-tournaments', true);
  expect(problems).toEqual([]);
});
