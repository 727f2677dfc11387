/**
 * Tournaments in the history and on the results page, in Chromium through the
 * browser host: a real history file filled beforehand with generated sit & go's and cash hands
 * (shared/history/generate.ts, stored through the store as the client stores them), then, as a
 * player: the History's tournament hands and its tournament list, one tournament's hands; the Results
 * page's tournament figures (count, net, ROI), and the graph of cash games, tournaments and both,
 * whose end totals are checked against the generated records. Beside them a running
 * tournament (its entry and a bounty already won count in the net, the graph and its day's line) and
 * a refunded registration (listed as "remboursé", in no result); the period by day and by game, each
 * line cash + tournaments, adding up to the whole.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillHistory } from '../../../electron/services/history/generate';
import { HistoryStore } from '../../../electron/services/history/store';
import { generateHands } from '../../../shared/history/generate';
import { type RunningHost, startHost } from '../host';
import { openConnected, shot, watchProblems } from '../player';

const DAY = 86_400_000;
const END = Date.now() - 2 * 3_600_000;
const OPTIONS = { hands: 2500, seed: 17, end: END, days: 8, tournaments: 0.3 };
const all = [...generateHands(OPTIONS)];
const finished = all.flatMap((h) => (h.finished ? [h.finished] : []));
const real = finished.filter((t) => t.money === 'real');
const net = (t: (typeof finished)[number]): number => t.prize + t.bounties - t.spent;
const HOUR = 3_600_000;
/** Local noon `days` days before END (the generated tournaments are all later). */
const noonBefore = (days: number): number => {
  const d = new Date(END - days * DAY);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate(), 12).getTime();
};
const localDate = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
/** A running real-money tournament (registered, a bounty won an hour later) and a refunded registration. */
const running = { ...finished.find((t) => t.money === 'real')!, tournamentId: 'e2e-running', name: 'En cours', registeredAt: noonBefore(9), startedAt: noonBefore(9) + 60_000, endedAt: null, place: null, prize: 0, bounties: 0, spent: 1100, buyIn: 1000, fee: 100, hands: 0 };
const RUNNING_BOUNTY = 300;
const refunded = { ...running, tournamentId: 'e2e-refunded', name: 'Remboursé', registeredAt: noonBefore(10), startedAt: null };
const runningNet = RUNNING_BOUNTY - running.spent;

let host: RunningHost;
test.beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cercle-e2e-tourn-'));
  const store = HistoryStore.open(join(dataDir, 'history.sqlite'));
  fillHistory(store, OPTIONS);
  // As the client stores them (client/tournaments.ts): at registration, as a bounty is won, as refunded.
  for (const [t, at] of [
    [running, running.registeredAt],
    [{ ...running, bounties: RUNNING_BOUNTY }, running.registeredAt + HOUR],
    [refunded, refunded.registeredAt],
    [{ ...refunded, spent: 0, endedAt: refunded.registeredAt + 60_000, refundedAt: refunded.registeredAt + 60_000 }, refunded.registeredAt + 60_000],
  ] as const) {
    const r = store.putTournament(t, at);
    if (!r.ok) throw new Error(r.reason);
  }
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

  await openConnected(page, host.url);

  // History: tournament hands, with the tournaments listed above them.
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-view')).toBeVisible();
  await page.getByTestId('history-filter-kind').selectOption('tournament');
  const list = page.getByTestId('history-tournaments');
  await expect(list.locator('tbody tr')).toHaveCount(finished.length + 2);
  // The running one says so; the refunded registration too, without a net.
  await expect(page.getByTestId('history-tournament-e2e-running').getByTestId('history-tournament-state')).toHaveText('en cours');
  const refundedRow = page.getByTestId('history-tournament-e2e-refunded-refunded');
  await expect(refundedRow.getByTestId('history-tournament-state')).toHaveText('remboursé');
  await expect(refundedRow.locator('td').nth(6)).toHaveText('—');
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
  const finishedNet = real.reduce((a, t) => a + net(t), 0);
  const spent = real.reduce((a, t) => a + t.spent, 0);
  // The running one counts in the net from its entry, with its bounty; the refunded one nowhere; ROI is of the finished ones.
  const tournamentsNet = finishedNet + runningNet;
  await expect(page.getByTestId('results-tournaments-count')).toHaveText(String(real.length));
  await expect(page.getByTestId('results-tournaments-running')).toHaveText('1');
  await expect(page.getByTestId('results-tournaments-net')).toHaveAttribute('data-value', String(tournamentsNet));
  const roi = new Intl.NumberFormat('fr', { style: 'percent', maximumFractionDigits: 1, minimumFractionDigits: 1, signDisplay: 'exceptZero' }).format(finishedNet / spent);
  await expect(page.getByTestId('results-tournaments-roi')).toHaveText(roi);
  // The graph: cash hands (their nets), tournaments (plotted at their ends), both added.
  const cashNet = all
    .filter((h) => h.meta.tournament === undefined && h.meta.money === 'real')
    .reduce((a, h) => a + h.record.seats.find((s) => s.seat === h.meta.heroSeat)!.net, 0);
  await expect(page.getByTestId('results-total')).toHaveAttribute('data-value', String(cashNet));
  await page.getByTestId('results-graph').selectOption('tournaments');
  await expect(page.getByTestId('results-total')).toHaveAttribute('data-value', String(tournamentsNet));
  await expect(page.getByTestId('results-hands')).toHaveText(String(real.length + 1));
  await page.getByTestId('results-graph').selectOption('both');
  await expect(page.getByTestId('results-total')).toHaveAttribute('data-value', String(cashNet + tournamentsNet));
  // The period by day, then by game: each line cash + tournaments, together the whole.
  const periods = page.getByTestId('results-periods');
  const totalLine = page.getByTestId('results-periods-total');
  await expect(totalLine.locator('td').nth(3)).toHaveAttribute('data-value', String(cashNet + tournamentsNet));
  await expect(totalLine.locator('td').nth(2)).toHaveAttribute('data-value', String(tournamentsNet));
  // The running tournament's day: its entry and its bounty, that day (no generated tournament then).
  const runningDay = page.getByTestId(`results-period-line-${localDate(running.registeredAt)}`);
  await expect(runningDay.locator('td').nth(2)).toHaveAttribute('data-value', String(runningNet));
  await expect(page.getByTestId(`results-period-line-${localDate(refunded.registeredAt)}`)).toHaveCount(0);
  let sum = 0;
  for (const v of await periods.locator('tbody tr td:nth-child(5)').evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-value'))))) sum += v;
  expect(sum).toBe(cashNet + tournamentsNet);
  await page.getByTestId('results-periods-by').selectOption('variant');
  await expect(periods.locator(`[data-testid="results-period-line-${running.variant}"]`)).toHaveCount(1);
  await expect(totalLine.locator('td').nth(3)).toHaveAttribute('data-value', String(cashNet + tournamentsNet));
  await shot(page, info, 'results-tournaments', true);
  expect(problems).toEqual([]);
});
