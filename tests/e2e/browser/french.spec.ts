/**
 * No user-visible string of the French UI is English, errors that reach the UI
 * included. Every page a newcomer opens (lobby, rules of every game, a table and its dialogs, the
 * tables view after leaving, history with a refused import, results, settings) is read as the player
 * sees it (`innerText`: folded details are not seen) and checked for English words
 * (renderer/src/i18n/english-words.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { englishIn } from '../../../renderer/src/i18n/english-words';
import { VARIANT_CODES } from '../../../shared/rules/variants';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { actIn, joinTable, leaveTable, openConnected, shot, watchProblems } from '../player';

let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost(undefined, FAST_PRACTICE);
});
test.afterAll(async () => {
  await host.stop();
});

const seen: string[] = [];
async function frenchOnly(page: Page, where: string): Promise<void> {
  const text = await page.locator('body').innerText();
  seen.push(where);
  expect(englishIn(text), `${where}:\n${text}`).toEqual([]);
}

test('every page of the French UI is French, errors included', async ({ page }, info) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  await openConnected(page, host.url);
  await expect(page.locator('[data-testid^="lobby-row-"]')).toHaveCount(11);
  // Practice tables read as French names (defect 9).
  await expect(page.getByTestId('lobby-row-practice-thnl')).toContainText("Entraînement · Texas Hold'em no limit");
  await frenchOnly(page, 'lobby');

  await page.getByTestId('nav-rules').click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await frenchOnly(page, 'rules');
  for (const code of VARIANT_CODES) {
    await page.goto(`${host.origin}/#/rules/${code}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await frenchOnly(page, `rules ${code}`);
    if (code === '2T7TD') await expect(page.locator('body')).not.toContainText('flop');
  }

  // A table, its dialogs and the tables view.
  await page.getByTestId('nav-lobby').click();
  await page.getByTestId('join-practice-thnl').click();
  await page.getByTestId('join-buyin').fill('99999');
  await frenchOnly(page, 'join dialog');
  await page.getByRole('button', { name: 'Annuler' }).click();
  const tile = await joinTable(page, 'practice-thnl');
  await expect(tile.getByTestId('hole-cards')).toBeVisible({ timeout: 30_000 });
  for (let i = 0; i < 3; i++) await actIn(tile);
  await frenchOnly(page, 'tables');
  await tile.getByTestId('table-topup').click();
  await frenchOnly(page, 'top-up dialog');
  await page.getByRole('button', { name: 'Annuler' }).click();
  await leaveTable(tile);
  await expect(page.getByTestId('left-notice')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('tables-count')).toHaveText('0 table');
  await frenchOnly(page, 'tables after leaving');
  // The notice closes with its button (defect 6).
  await page.getByTestId('left-close').click();
  await expect(page.getByTestId('left-notice')).toHaveCount(0);

  // History with a refused import: the reason in French, the engine's English folded away.
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('exchange-panel')).toBeVisible();
  if ((await page.getByTestId('exchange-panel').getAttribute('open')) === null) await page.getByTestId('exchange-panel').locator('summary').click();
  const bad = join(mkdtempSync(join(tmpdir(), 'cercle-fr-')), 'one-player.txt');
  writeFileSync(bad, "PokerStars Hand #1: Hold'em No Limit (1/2) - 2026/01/01 00:00:00\nTable 'x' 6-max Seat #1 is the button\nSeat 1: a (100 in chips)\n");
  await page.getByTestId('import-file').setInputFiles(bad);
  await expect(page.getByTestId('import-result')).toContainText('Fichier refusé à la ligne 3', { timeout: 30_000 });
  await frenchOnly(page, 'history with a refused import');
  await shot(page, info, 'french-import-refused');

  await page.getByTestId('nav-results').click();
  await expect(page.getByTestId('results-note')).toBeVisible();
  await expect(page.getByTestId('results-note')).not.toContainText('docs/');
  await frenchOnly(page, 'results');
  await page.getByTestId('nav-settings').click();
  await frenchOnly(page, 'settings');
  expect(seen.length).toBeGreaterThan(15);
  expect(problems).toEqual([]);
});
