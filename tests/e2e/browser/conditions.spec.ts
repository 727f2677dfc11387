/**
 * R-RULES and R-INFO from the operator, in Chromium through the browser host,
 * against the embedded operator: the conditions of play the operator serves with its lobby (the clock,
 * time-outs, sitting out, the disconnection grace, voided hands) are shown in the join dialog and on
 * the rules pages, in French then English; the dialog joins on the version of what it showed; and a
 * rules link on the seated table leads to the game's rules and those conditions.
 */
import { expect, test } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { openConnected, shot, watchProblems } from '../player';

let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost(undefined, FAST_PRACTICE);
});
test.afterAll(async () => {
  await host.stop();
});

test('the conditions of play in the join dialog and on the rules pages; a rules link from the seated table', async ({ page }, info) => {
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  await openConnected(page, host.url);

  // The join dialog: the table's rules (R-INFO) and the operator's conditions (R-RULES), as it sent them.
  await page.getByTestId('join-practice-7shl').click();
  const dialog = page.getByTestId('join-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('join-conditions').locator('summary').click();
  const shown = dialog.getByTestId('play-conditions');
  await expect(shown).toContainText('après deux temps écoulés de suite');
  await expect(shown).toContainText('votre place vous est gardée 2 minutes');
  await expect(shown).toContainText('Toutes les mises de la main reviennent alors à chaque joueur');
  const version = await shown.getAttribute('data-version');
  expect(version).toMatch(/^[0-9a-f]{14}$/);
  await shot(page, info, 'conditions-join');
  // Confirmed and sent with the version shown: the operator seats the player (it refuses any other).
  await page.getByTestId('join-confirm-info').check();
  await page.getByTestId('join-submit').click();
  const tile = page.getByTestId('tile-practice-7shl');
  await expect(tile).toBeVisible();
  await expect(page.getByTestId('join-error')).toHaveCount(0);

  // From the seated table, the rules of its game and the conditions of play.
  await tile.getByTestId('table-rules').click();
  await expect(page.getByTestId('game-rules')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Stud');
  const onPage = page.getByTestId('game-rules').getByTestId('play-conditions');
  await expect(onPage).toHaveAttribute('data-version', version!);
  await expect(onPage).toContainText("Conditions de jeu de l’opérateur");
  await expect(onPage).toContainText('Temps écoulé');
  await shot(page, info, 'conditions-rules-fr');

  // The index of the rules shows them too; in English, the operator's English text.
  await page.getByRole('link', { name: 'Tous les jeux' }).click();
  await expect(page.getByTestId('rules-index').getByTestId('play-conditions')).toContainText('Déconnexion');
  await page.getByTestId('language-switch').click();
  const english = page.getByTestId('rules-index').getByTestId('play-conditions');
  await expect(english).toContainText('after two time-outs in a row you are sat out');
  await expect(english).toContainText('your seat is kept for 2 minutes');
  await expect(english).toContainText('Every bet of the hand then goes back to its player');
  await shot(page, info, 'conditions-rules-en');
  expect(problems).toEqual([]);
});
