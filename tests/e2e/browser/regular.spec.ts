/**
 * What a regular meets at a practice table in Chromium through the
 * browser host: the join dialog says why S'asseoir is disabled ("1e3" is not an amount); a top-up over
 * the maximum says why and what is allowed; the bet button follows the typed amount and more than the
 * stack is all-in; at 0 chips a rebuy is offered and one below the minimum is refused with the range;
 * "Quitter" during a live hand asks first and can leave after the hand, which the table shows.
 */
import { expect, test, type Page } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { actIn, bustAt, chips, decisionOffered, openConnected, shot, watchProblems } from '../player';

let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost(undefined, FAST_PRACTICE);
});
test.afterAll(async () => {
  await host.stop();
});

/** Defect 11: balance + in play − session result, which must be the starting balance at every moment. */
async function accounts(page: Page): Promise<number> {
  const read = async (id: string) => chips(await page.getByTestId(id).textContent());
  return (await read('status-balance')) + (await read('status-inplay')) - (await read('status-session'));
}

test('refused amounts say why; above the stack is all-in; bust, rebuy; leave after the hand', async ({ page }, info) => {
  test.setTimeout(300_000);
  const problems = watchProblems(page);
  await openConnected(page, host.url);

  // Defect 3 and 8: the join dialog says why S'asseoir is disabled.
  await page.getByTestId('join-practice-thnl').click();
  const why = page.getByTestId('join-why');
  await page.getByTestId('join-buyin').fill('1e3');
  await expect(why).toHaveText(/^Indiquez un nombre entier de jetons : la cave va de 2\s000 à 5\s000\.$/);
  await page.getByTestId('join-buyin').fill('999999');
  await expect(why).toHaveText(/^Cave trop haute : elle va de 2\s000 à 5\s000\.$/);
  await page.getByTestId('join-buyin').fill('100');
  await expect(why).toHaveText(/^Cave trop basse/);
  await page.getByTestId('join-buyin').fill('2000');
  await expect(why).toHaveText(/^Cochez/);
  await expect(page.getByTestId('join-submit')).toBeDisabled();
  await page.getByTestId('join-confirm-info').check();
  await expect(why).toHaveCount(0);
  await page.getByTestId('join-submit').click();
  const tile = page.getByTestId('tile-practice-thnl');
  await expect(tile.getByTestId('hole-cards')).toBeVisible({ timeout: 30_000 });

  // A top-up over the maximum: refused with why and the range.
  await tile.getByTestId('table-topup').click();
  await page.getByTestId('topup-amount').fill('6000');
  await expect(page.getByTestId('topup-why')).toHaveText(/^Trop : le tapis ne peut dépasser le maximum de la table \(5\s000\)\. Autorisé : de 1 à \d[\d\s]*\.$/);
  await expect(page.getByTestId('topup-submit')).toBeDisabled();
  await shot(page, info, 'regular-topup-refused');
  await page.getByRole('button', { name: 'Annuler' }).click();

  // Habit: a note and a colour tag on another player, kept locally and shown at the table, after a reload too.
  const other = tile.locator('[data-testid^="seat-name-"]').first();
  const seatNo = ((await other.getAttribute('data-testid')) ?? '').replace('seat-name-', '');
  await other.click();
  await tile.getByTestId('note-text').fill('relance large au bouton');
  await tile.getByTestId('note-color-red').click();
  await tile.getByTestId('note-save').click();
  await expect(tile.getByTestId(`note-tag-${seatNo}`)).toHaveAttribute('data-color', 'red');
  await page.reload();
  await expect(page.getByTestId('tile-practice-thnl').getByTestId(`note-tag-${seatNo}`)).toHaveAttribute('data-color', 'red');
  await expect(page.getByTestId('tile-practice-thnl').getByTestId(`note-tag-${seatNo}`)).toHaveAttribute('title', 'relance large au bouton');

  // Defect 8: the bet button follows the typed amount.
  let typed = false;
  for (let i = 0; i < 30 && !typed; i++) {
    const input = tile.getByTestId('bet-input');
    await expect(decisionOffered(tile)).toBeVisible({ timeout: 45_000 });
    if (await input.isVisible().catch(() => false)) {
      const min = Number((await tile.getByTestId('bet-slider').getAttribute('min', { timeout: 1_500 }).catch(() => '0')) ?? 0);
      const max = Number((await tile.getByTestId('bet-slider').getAttribute('max', { timeout: 1_500 }).catch(() => '0')) ?? 0);
      if (max > min + 1 && (await input.fill(String(min + 1), { timeout: 1_500 }).then(() => true, () => false))) {
        const label = (await tile.getByTestId('action-bet').textContent({ timeout: 1_500 }).catch(() => '')) ?? '';
        expect(label.replace(/\D/g, '')).toBe(String(min + 1));
        typed = true;
        break;
      }
    }
    await actIn(tile, ['action-check', 'action-call', 'guard-confirm', 'action-show', 'action-fold'], 5_000).catch(() => undefined);
  }
  expect(typed).toBe(true);
  // Habit: our made hand is shown once the cards make one (from the flop on).
  for (let i = 0; i < 40 && !(await tile.getByTestId('made-hand').isVisible()); i++) {
    await actIn(tile, ['action-check', 'action-call', 'guard-confirm', 'action-show', 'action-fold'], 5_000).catch(() => undefined);
  }
  await expect(tile.getByTestId('made-hand')).toHaveText(/^(carte haute|paire|double paire|brelan|quinte|couleur|full|carré)/);
  // Mid-session, seated, chips in front: the status bar adds up (defect 11).
  await expect(page.getByTestId('status-inplay')).toContainText('jetons');
  await expect.poll(() => accounts(page), { timeout: 10_000 }).toBe(1_000_000);

  // Defect 3: shove until busted (practice players call strong hands); the table then offers a rebuy.
  await bustAt(tile, 'Recavez pour rejouer (de 2 000 à 5 000)');
  await shot(page, info, 'regular-busted');
  await tile.getByTestId('rebuy').click();
  await page.getByTestId('topup-amount').fill('100');
  await expect(page.getByTestId('topup-why')).toHaveText(/^Trop peu : votre tapis doit revenir au minimum de la table\. Autorisé : de 2\s000 à 5\s000\.$/);
  await page.getByTestId('topup-amount').fill('2000');
  await page.getByTestId('topup-submit').click();
  await expect(tile.getByTestId('rebuy-offer')).toHaveCount(0);
  await expect.poll(() => accounts(page), { timeout: 10_000 }).toBe(1_000_000);

  // Habit: auto top-up to the table's maximum between hands (Réglages). The seat (about 2,000 after
  // the rebuy) is brought up to 5,000: chips leave the balance for the table, the accounts still add up.
  const balance = async () => chips(await page.getByTestId('status-balance').textContent());
  const before = await balance();
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-auto-topup').selectOption('max');
  await page.getByTestId('nav-tables').click();
  // Back in play after the rebuy: our hands go on meanwhile, checked or folded (the top-up comes between them).
  for (let i = 0; i < 40 && (await balance()) >= before; i++) {
    await actIn(tile, ['action-check', 'action-fold', 'action-show', 'guard-confirm'], 3_000).catch(() => undefined);
  }
  await expect.poll(balance, { timeout: 10_000 }).toBeLessThan(before);
  await expect.poll(() => accounts(page), { timeout: 10_000 }).toBe(1_000_000);
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-auto-topup').selectOption('off');
  await page.getByTestId('nav-tables').click();

  // Defect 4: "Quitter" while we hold cards in a live hand asks first; leave after the hand.
  // Our turn: we hold cards in a live hand (our decision buttons, not another player's action clock).
  await expect(decisionOffered(tile)).toBeVisible({ timeout: 45_000 });
  await tile.getByTestId('table-leave').click();
  await expect(tile.getByTestId('leave-confirm')).toBeVisible();
  await shot(page, info, 'regular-leave-confirm');
  await tile.getByTestId('leave-after').click();
  await expect(tile.getByTestId('after-hand-status')).toHaveText('Vous quitterez la table à la fin de cette main.');
  // The hand goes on: we still act (nothing was folded for us), then the table goes.
  for (let i = 0; i < 10 && (await tile.isVisible()); i++) {
    await actIn(tile, ['action-check', 'action-call', 'guard-confirm', 'action-show', 'action-fold'], 3_000).catch(() => undefined);
  }
  await expect(page.locator('[data-testid^="tile-"]')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('tables-left')).toBeVisible();
  expect(problems).toEqual([]);
});
