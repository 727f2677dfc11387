/**
 * No ghost tables. Seated at a practice table with a hand played, waiting for our decision, the link
 * goes down (the embedded operator killed; the host stopped): the tile says at once that its link is
 * gone, offers no decision, runs no clock, and the "N tables attendent votre décision" counter leaves
 * it out. Once connected again the page takes main's tables as the truth: the practice table went with
 * the operator, so its tile says it closed, keeps its last hand (« Dernière main ») and closes with
 * « Quitter ».
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Locator, type Page, test, type TestInfo } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHostAgain } from '../host';
import { actIn, decisionOffered, joinTable, operatorPid, shot, watchProblems } from '../player';

let host: RunningHost | null = null;
test.afterEach(async () => {
  await host?.stop();
  host = null;
});

const TABLE = 'practice-thnl';

/** Seated, a hand ended (so there is a last hand to keep), and the table waiting for our decision. */
async function seatedAndWaited(page: Page): Promise<Locator> {
  const tile = await joinTable(page, TABLE);
  await expect(tile.getByTestId('hole-cards')).toBeVisible({ timeout: 30_000 });
  const lastHand = tile.getByTestId('table-lasthand');
  for (let i = 0; i < 40 && !(await lastHand.isVisible()); i++) await actIn(tile).catch(() => undefined);
  await expect(lastHand).toBeVisible();
  await expect(decisionOffered(tile)).toBeVisible({ timeout: 45_000 });
  await expect(page.getByTestId('tables-waiting')).toHaveText('1 table attend votre décision');
  return tile;
}

/**
 * While down: no decision, no clock, not counted as waiting, and said on the tile. Soft: the flow goes
 * on to the link's return, checked on its own.
 */
async function expectLinkGone(page: Page, tile: Locator): Promise<void> {
  await expect.soft(tile.locator('button[data-testid^="action-"]')).toHaveCount(0, { timeout: 15_000 });
  await expect.soft(tile.getByTestId('action-clock')).toHaveCount(0);
  await expect.soft(page.getByTestId('tables-waiting')).toHaveCount(0);
  await expect.soft(page.getByTestId('nav-waiting')).toHaveCount(0);
  await expect.soft(tile.getByTestId('table-link-gone')).toHaveText(/^Liaison perdue/);
  await expect.soft(tile.getByTestId('table-link-gone')).toHaveAttribute('data-state', 'down');
}

/** Back, and the table gone with the operator: closed, its last hand kept, closed by « Quitter ». */
async function expectClosedAfterReconnect(page: Page, tile: Locator, info: TestInfo, name: string): Promise<void> {
  await expect(page.getByTestId('status-link')).toHaveText('Connecté', { timeout: 30_000 });
  // Main's truth read again: the table went with the operator, nothing there to act on.
  await expect(tile.locator('button[data-testid^="action-"]')).toHaveCount(0, { timeout: 15_000 });
  await expect(tile.getByTestId('action-clock')).toHaveCount(0);
  await expect(page.getByTestId('tables-waiting')).toHaveCount(0);
  await expect(tile.getByTestId('table-link-gone')).toHaveAttribute('data-state', 'lost');
  await expect(tile.getByTestId('table-link-gone')).toHaveText(/^Table fermée pendant la coupure/);
  await expect(tile.getByTestId('table-topup')).toHaveCount(0);
  // Its last hand kept, to replay.
  await expect(tile.getByTestId('table-lasthand')).toBeVisible();
  await shot(page, info, name);
  await tile.getByTestId('table-leave').click();
  await expect(tile).toHaveCount(0);
}

test('the embedded operator killed: the tile says its link is gone, then closes with its last hand', async ({ page }, info) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  host = await startHostAgain(mkdtempSync(join(tmpdir(), 'cercle-e2e-link-tables-')), FAST_PRACTICE);
  await page.goto(host.url);
  await expect(page.getByTestId('status-link')).toHaveText('Connecté', { timeout: 20_000 });
  const tile = await seatedAndWaited(page);

  process.kill(operatorPid(host.pid), 'SIGKILL');
  await expectLinkGone(page, tile);
  await shot(page, info, 'link-tables-operator-gone');
  await expectClosedAfterReconnect(page, tile, info, 'link-tables-operator-back');
  expect(problems).toEqual([]);
});

test('the host stopped and started again: the tile says its link is gone, then closes with its last hand', async ({ page }, info) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  const dataDir = mkdtempSync(join(tmpdir(), 'cercle-e2e-link-tables-'));
  host = await startHostAgain(dataDir, FAST_PRACTICE);
  await page.goto(host.url);
  await expect(page.getByTestId('status-link')).toHaveText('Connecté', { timeout: 20_000 });
  const tile = await seatedAndWaited(page);

  await host.stop();
  host = null;
  await expect(page.getByTestId('status-link')).toHaveAttribute('data-state', 'host-gone');
  await expectLinkGone(page, tile);
  await shot(page, info, 'link-tables-host-gone');

  host = await startHostAgain(dataDir, FAST_PRACTICE);
  await expectClosedAfterReconnect(page, tile, info, 'link-tables-host-back');
  // Only what the page itself logs for the refused calls is allowed: nothing.
  expect(problems.filter((p) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(p))).toEqual([]);
});
