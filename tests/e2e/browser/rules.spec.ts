import { expect, test } from '@playwright/test';
import { artifactPath, type RunningHost, startHost } from '../host';

// R-RULES (D art. 8 II 2°): the rules of every game are reachable from the lobby, before any game.
let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost();
});
test.afterAll(async () => {
  await host.stop();
});

test('from the lobby a player reads the rules of every game, in French then in English', async ({ page }) => {
  await page.goto(host.url);
  await page.getByTestId('lobby-rules-link').click();
  await expect(page.getByTestId('rules-index')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Règles des jeux');
  // All eleven games of the decree are listed.
  for (const code of ['THL', 'THPL', 'THNL', 'O4HPL', 'O4JL', 'O4JPL', 'O5HPL', '7SHL', '7SJL', '7SLL', '2T7TD']) {
    await expect(page.getByTestId(`rules-link-${code}`)).toBeVisible();
  }
  await expect(page.getByText('Quinte flush : cinq cartes')).toBeVisible();

  await page.getByTestId('rules-link-O4JPL').click();
  await expect(page.getByTestId('game-rules')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Omaha 4 High/Low pot limit');
  await expect(page.getByTestId('rules-seats')).toHaveText('jusqu’à 9');
  await expect(page.getByText('exactement deux de ses cartes privatives')).toBeVisible();
  await expect(page.getByText('toutes de 8 ou moins')).toBeVisible();
  await page.screenshot({ path: artifactPath('rules-o4jpl-fr.png'), fullPage: true });

  await expect(page.getByTestId('rules-stud-showdown')).toHaveCount(0);

  // Stud (D art. 7 III): every hidden card is shown at the showdown; Razz's bring-in and first to act.
  await page.getByRole('link', { name: 'Tous les jeux' }).click();
  await page.getByTestId('rules-link-7SLL').click();
  await expect(page.getByTestId('rules-stud-showdown')).toContainText('tous les joueurs encore en jeu montrent leurs trois cartes fermées');
  await expect(page.getByTestId('rules-stud-showdown')).toContainText('art. 7 III');
  await expect(page.getByText('la plus faible carte est la plus haute (le roi)')).toBeVisible();

  await page.getByRole('link', { name: 'Tous les jeux' }).click();
  await page.getByTestId('rules-link-2T7TD').click();
  await expect(page.getByText('la meilleure main est alors 6-5-4-3-2')).toBeVisible();

  await page.getByTestId('language-switch').click();
  await expect(page.getByText('the best hand is 6-5-4-3-2')).toBeVisible();
  await expect(page.getByTestId('rules-seats')).toHaveText('up to 6');
  await page.screenshot({ path: artifactPath('rules-2t7td-en.png'), fullPage: true });
});
