import { expect, test } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { joinTable, shot, watchProblems } from '../player';

// A nickname chosen at sign-in, not "guest-5e07b…", and it is the name on our seat.
let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost(undefined, FAST_PRACTICE);
});
test.afterAll(async () => {
  await host.stop();
});

test('a new player chooses a nickname in the lobby prompt, is told why a reserved one is refused, and sits under it', async ({ page }, testInfo) => {
  const problems = watchProblems(page);
  await page.goto(host.url);
  const prompt = page.getByTestId('nickname');
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('Choisissez votre pseudo');
  await expect(prompt).toContainText('guest-');
  // "Plus tard" puts it off, also after a reload; forgetting that brings it back.
  await page.getByTestId('nickname-later').click();
  await expect(prompt).toBeHidden();
  await page.reload();
  // Signed in again (the session carries the account) before checking the prompt stays away.
  await expect(page.getByTestId('status-link')).toHaveAttribute('data-state', 'connected');
  await expect(page.getByTestId('join-practice-thnl')).toBeVisible();
  await expect(prompt).toBeHidden();
  await page.evaluate("localStorage.removeItem('cercle.nicknameLater')"); // the key LobbyView.vue keeps
  await page.reload();
  await expect(prompt).toBeVisible();

  // A practice player's prefix is refused, with the reason in French (R-NOBOT).
  await page.getByTestId('nickname-input').fill('practice-Zoé');
  await page.getByTestId('nickname-save').click();
  await expect(page.getByTestId('nickname-error')).toContainText('Identifiant invalide');
  await expect(page.getByTestId('nickname-error')).toContainText('practice');

  await page.getByTestId('nickname-input').fill('Zoé_Lefèvre');
  await page.getByTestId('nickname-save').click();
  await expect(prompt).toBeHidden();
  await shot(page, testInfo, 'nickname-lobby');

  const tile = await joinTable(page, 'practice-thnl');
  await expect(tile.getByTestId('our-name')).toHaveText('Zoé_Lefèvre');
  await shot(page, testInfo, 'nickname-seat');

  // Réglages shows the name; a change while seated is refused with its reason.
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('nickname')).toContainText('Votre pseudo : Zoé_Lefèvre');
  await page.getByTestId('nickname-input').fill('Zoé_2');
  await page.getByTestId('nickname-save').click();
  await expect(page.getByTestId('nickname-error')).toContainText('Quittez vos tables');
  expect(problems).toEqual([]);
});
