/**
 * The tournament lobby as a new user meets it, in Chromium through the browser host against the
 * embedded operator (play-money tournaments, practice players fill them): open the lobby's Tournaments
 * tab, register for the scheduled practice tournament and unregister before it starts (the whole entry
 * comes back: R-TOURN-LEAVE), open a heads-up sit & go's page, read its structure and its rules
 * (R-RULES), register after confirming its information (R-INFO), find it first among "my" tournaments,
 * then play it to the end by shoving every hand and read the place and the prize; the balance is the
 * starting balance less the entry plus the prize, the status bar's session result says so, and the
 * tournament is found in the history and in the results. Then, in a small multi-table practice tournament
 * (tests/fixtures/tournaments-moves.json: 3-seat tables, starting on the minute), open another table
 * of the tournament from its page and watch it where tables are shown.
 */
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { chips, openConnected, shot, shove, watchProblems } from '../player';

let host: RunningHost | null = null;
test.afterEach(async () => {
  await host?.stop();
  host = null;
});

const balance = async (page: Page) => chips(await page.getByTestId('status-balance').textContent());

/** The embedded scheduled tournament starts every 10 minutes (operator/embedded.ts): not within the next 45 s. */
async function awayFromScheduledStart(page: Page): Promise<void> {
  const every = 10 * 60_000;
  const left = every - (Date.now() % every);
  if (left < 45_000) await page.waitForTimeout(left + 5_000);
}

test('tournaments tab, unregister before the start, a sit & go read, registered, played to the end', async ({ page }, info) => {
  test.setTimeout(420_000);
  const problems = watchProblems(page);
  host = await startHost(undefined, FAST_PRACTICE);
  await openConnected(page, host.url);
  const start = await balance(page);

  // The Tournaments tab beside cash games: sit & go's and the scheduled tournament, each with its entry.
  await page.getByTestId('lobby-tab-tournaments').click();
  await expect(page.getByTestId('tournament-list')).toBeVisible({ timeout: 20_000 });
  const sng = page.getByTestId('trow-sng-thnl-2-1');
  // Named by its size and game, not codes (R-INFO); its expected duration from its structure and seats.
  await expect(sng).toContainText('Heads-up · Texas Hold\'em no limit');
  await expect(page.getByTestId('trow-duration-sng-thnl-2-1')).toContainText(/Durée estimée : \d/);
  await expect(sng).toContainText('Dès que complet');
  await expect(page.getByTestId('trow-entry-sng-thnl-2-1')).toHaveText(/^1\s000 \+ 0$/);
  // Turbo read from the structure's 5-minute levels (TournamentLobby reads each structure once).
  await expect(sng.locator('[data-badge="turbo"]')).toBeVisible();
  await expect(sng.locator('[data-badge="freezeout"]')).toBeVisible();
  // Filters: scheduled only, then sit & go's of Stud only.
  await page.getByTestId('tfilter-format').selectOption('scheduled');
  await expect(page.locator('[data-testid^="trow-sng-"]')).toHaveCount(0);
  await expect(page.locator('[data-testid^="trow-mtt-practice-"]').first()).toBeVisible();
  await page.getByTestId('tfilter-format').selectOption('sit-and-go');
  await page.getByTestId('tfilter-family').selectOption('stud');
  await expect(page.locator('[data-testid^="trow-mtt-"]')).toHaveCount(0);
  await expect(page.locator('[data-testid^="trow-sng-7s"]').first()).toBeVisible();
  await expect(page.locator('[data-testid^="trow-sng-thnl"]')).toHaveCount(0);
  await page.getByTestId('tfilter-family').selectOption('all');
  await page.getByTestId('tfilter-format').selectOption('scheduled');
  await shot(page, info, 'tournaments-lobby');

  // R-TOURN-LEAVE: registered to the scheduled tournament, then unregistered before its start: the
  // whole entry comes back.
  await awayFromScheduledStart(page);
  const mtt = page.locator('[data-testid^="trow-mtt-practice-"]').filter({ hasText: 'Inscriptions' }).first();
  await expect(mtt.getByTestId('trow-countdown')).toContainText(/dans \d/);
  await mtt.getByRole('link', { name: 'Voir' }).click();
  await expect(page.getByTestId('tournament-page')).toBeVisible();
  await page.getByTestId('tournament-register').click();
  await expect(page.getByTestId('tregister-dialog')).toBeVisible();
  await expect(page.getByTestId('tinfo-entry').first()).toContainText('1 000');
  await page.getByTestId('tregister-confirm').check();
  await page.getByTestId('tregister-send').click();
  await expect(page.getByTestId('tournament-notice')).toContainText('Inscription enregistrée');
  await expect.poll(() => balance(page)).toBe(start - 1000);
  await page.getByTestId('tournament-unregister').click();
  await expect(page.getByTestId('tunregister-text')).toContainText('toute l’entrée vous est rendue');
  await page.getByTestId('tunregister-send').click();
  await expect(page.getByTestId('tournament-notice')).toContainText(/1\s000 rendus/);
  await expect.poll(() => balance(page)).toBe(start);
  await expect(page.getByTestId('tournament-register')).toBeVisible();
  // No longer ours in the lobby: no tag, not first.
  const mttId = (await page.url()).replace(/^.*#\/tournament\//, '');
  await page.getByTestId('tournament-back').click();
  await expect(page.getByTestId(`trow-${mttId}`)).toHaveAttribute('data-mine', 'false');
  await expect(page.getByTestId(`trow-${mttId}`).getByTestId('trow-mine')).toHaveCount(0);

  // A heads-up sit & go's page: its structure (levels, the 5-minute turbo) and its rules, French first.
  await page.getByTestId('tfilter-format').selectOption('all');
  await page.getByTestId('topen-sng-thnl-2-1').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Heads-up · Texas Hold\'em no limit');
  // A sit & go's payouts from the start: its full field's (heads-up: the winner takes all).
  await expect(page.getByTestId('payout-row')).toHaveCount(1);
  await expect(page.getByTestId('tournament-payouts-note')).toContainText('dès la première inscription');
  await expect(page.getByTestId('tinfo-duration')).toContainText(/niveaux pour 2 joueurs/);
  await expect(page.getByTestId('level-1')).toContainText('50/100');
  await expect(page.getByTestId('level-1')).toContainText('5 min');
  await expect(page.getByTestId('tinfo-startingStack')).toContainText('10 000 jetons');
  const rules = page.getByTestId('tournament-rules');
  await expect(rules).toContainText('un seul joueur possède tous les jetons');
  await expect(rules).toContainText('Ni recave ni add-on');
  await expect(rules).toContainText('(T 2-15)');
  await expect(rules).toContainText('(T 8-15, 8-16)');
  await expect(rules.locator('[data-rule="balancing"]')).toHaveCount(0);
  await shot(page, info, 'tournament-page-sng', true);

  // Register: the information to confirm (R-INFO), the balance shown; the button waits for the box.
  await page.getByTestId('tournament-register').click();
  await expect(page.getByTestId('tregister-balance')).toContainText('Votre solde');
  await expect(page.getByTestId('tinfo-version').first()).toContainText('turbo');
  await expect(page.getByTestId('tregister-send')).toBeDisabled();
  await page.getByTestId('tregister-confirm').check();
  await page.getByTestId('tregister-send').click();
  await expect(page.getByTestId('tournament-notice')).toContainText('Inscription enregistrée');
  await expect.poll(() => balance(page)).toBe(start - 1000);

  // Among "my" tournaments, first in the lobby whatever the order.
  await page.getByTestId('tournament-back').click();
  await page.getByTestId('tsort-pool').click();
  await expect(page.locator('[data-testid="tournament-list"] tbody tr').first()).toHaveAttribute('data-testid', 'trow-sng-thnl-2-1');
  await expect(page.getByTestId('trow-sng-thnl-2-1')).toHaveAttribute('data-mine', 'true');
  await expect(page.getByTestId('trow-sng-thnl-2-1').getByTestId('trow-mine')).toBeVisible();

  // Practice players fill it within seconds; it starts; the table shows where tables are shown. Shove
  // every hand until it ends for us (bounded), then read the place and the prize on its page.
  await page.getByTestId('nav-tables').click();
  const tile = page.locator('[data-testid^="tile-"]').first();
  await expect(tile).toBeVisible({ timeout: 30_000 });
  await shot(page, info, 'tournament-table');
  // The table's tournament bar says when it ends for us (its own finish line, components/table).
  const over = tile.getByTestId('tournament-finished');
  for (let i = 0; i < 60 && !(await over.isVisible()); i++) {
    // Either may show first, or both for a frame: the finish is pushed at once, the table's last
    // state with the next frame (electron/services/client/pace.ts), so the opponent's clock may still show.
    await expect(tile.locator('button[data-testid^="action-"]').or(over).first()).toBeVisible({ timeout: 45_000 });
    if (!(await over.isVisible())) await shove(tile).catch(() => 'other');
  }
  await expect(over).toBeVisible();
  await page.getByTestId('nav-lobby').click();
  await page.getByTestId('lobby-tab-tournaments').click();
  await page.getByTestId('topen-sng-thnl-2-1').click();
  const finished = page.getByTestId('tpage-finished');
  await expect(finished).toContainText(/Votre place : [12]\./, { timeout: 60_000 });
  const text = (await finished.textContent()) ?? '';
  const place = Number(/place : (\d)/.exec(text)?.[1]);
  const prize = Number(text.replace(/^.*Gain : /, '').replace(/\D/g, ''));
  // Heads-up: the winner takes the pool (2 × 1,000), the second nothing.
  expect(prize).toBe(place === 1 ? 2000 : 0);
  await expect(over).toHaveCount(0); // the table's tile is not on this page

  await expect.poll(() => balance(page)).toBe(start - 1000 + prize);
  // The status bar (R-TRACKER): the session's result counts the entry when paid and the prize when
  // won, so balance + chips in play − session result is the starting balance.
  const read = async (id: string) => chips(await page.getByTestId(id).textContent());
  await expect.poll(async () => (await read('status-balance')) + (await read('status-inplay')) - (await read('status-session'))).toBe(start);
  // The entrants, ranked by place once out, found by name.
  await expect(page.getByTestId('entrant-row')).toHaveCount(2);
  await page.getByTestId('entrants-search').fill('GUEST');
  await expect(page.getByTestId('entrant-row')).toHaveCount(1);
  await expect(page.getByTestId('entrant-row').locator('td').first()).toHaveText(String(place));
  await shot(page, info, 'tournament-finished', true);
  // The same page in English (French first, English too).
  await page.getByTestId('language-switch').click();
  await expect(page.getByTestId('tournament-rules')).toContainText('The tournament ends when one player holds every chip.');
  await expect(finished).toContainText(`Your place: ${place}.`);
  await page.getByTestId('tournament-back').click();
  await expect(page.getByTestId('lobby-tab-tournaments')).toHaveText('Tournaments');
  await expect(page.getByTestId('trow-sng-thnl-2-1')).toContainText('Finished');

  // Kept in the history: the tournament listed with its place, field and net, and
  // its hands under it; counted in the results' tournaments (this session: it is the only one placed).
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-filter-kind').selectOption('tournament');
  const kept = page.getByTestId('history-tournament-sng-thnl-2-1');
  await expect(kept).toContainText(`${place} / 2`, { timeout: 20_000 });
  await expect(kept.locator('td').nth(6)).toHaveAttribute('data-value', String(prize - 1000));
  expect(Number(await kept.locator('td').nth(7).textContent())).toBeGreaterThan(0);
  await page.getByTestId('nav-results').click();
  await expect(page.getByTestId('results-tournaments-count')).toHaveText('1', { timeout: 20_000 });
  await expect(page.getByTestId('results-tournaments-net')).toHaveAttribute('data-value', String(prize - 1000));
  expect(problems).toEqual([]);
});

test('a multi-table tournament: another of its tables opened from its page and watched', async ({ page }, info) => {
  test.setTimeout(300_000);
  const problems = watchProblems(page);
  host = await startHost(undefined, [...FAST_PRACTICE, '--tournaments', join(process.cwd(), 'tests/fixtures/tournaments-moves.json')]);
  await openConnected(page, host.url);
  // They start on the minute; practice players fill them 3 s after we register: not too close to it.
  if (60_000 - (Date.now() % 60_000) < 12_000) await page.waitForTimeout(60_000 - (Date.now() % 60_000) + 2_000);
  await page.getByTestId('lobby-tab-tournaments').click();
  await page.getByTestId('tfilter-state').selectOption('open');
  const row = page.locator('[data-testid^="trow-mtt-moves-"]').first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  await row.getByRole('link', { name: 'Voir' }).click();
  await expect(page.getByTestId('tinfo-entrants')).toContainText('(au moins 2)');
  await expect(page.getByTestId('tournament-rules').locator('[data-rule="balancing"]')).toContainText('3 joueurs d’écart');
  await page.getByTestId('tournament-register').click();
  await page.getByTestId('tregister-confirm').check();
  await page.getByTestId('tregister-send').click();
  await expect(page.getByTestId('tournament-notice')).toContainText('Inscription enregistrée');
  // Practice players fill it (9 entrants, three tables of three); it starts on the minute.
  await expect(page.getByTestId('tournament-state')).toHaveText('En cours', { timeout: 90_000 });
  await expect(page.locator('[data-testid^="twatch-"]').nth(1)).toBeVisible({ timeout: 15_000 });

  // A table we do not sit at: ours is the one our name is at among the entrants. Tables close as
  // players go (T 6-11): if the one chosen closed meanwhile, the page reads the tables again.
  const me = page.getByTestId('entrant-row').filter({ hasText: /guest-/ });
  let watched: string | null = null;
  for (let attempt = 0; attempt < 4 && watched === null; attempt++) {
    // Tables read "Table n" (not their ids); the cell keeps the id for this lookup.
    await expect(me.locator('td').nth(3)).toHaveText(/^Table \d+$/);
    const mine = (await me.locator('td').nth(3).getAttribute('data-table-id')) ?? '';
    const ids = (await page.locator('[data-testid^="twatch-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''))).map((x) => x.slice('twatch-'.length));
    const other = ids.find((id) => id !== mine);
    if (other === undefined) break;
    await page.getByTestId(`twatch-${other}`).click();
    if (await page.getByTestId('tables-view').waitFor({ timeout: 5_000 }).then(() => true, () => false)) watched = other;
    else await page.waitForTimeout(5_000);
  }
  expect(watched).not.toBeNull();
  const tile = page.getByTestId(`tile-${watched}`);
  await expect(tile).toBeVisible();
  await expect(tile.getByTestId('table-status')).toHaveText('Vous regardez cette table.');
  await shot(page, info, 'tournament-watch');
  expect(problems).toEqual([]);
});
