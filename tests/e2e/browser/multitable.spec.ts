/**
 * The tables stay in sight, in Chromium through the browser host: opening more tables never takes the
 * playing tables out of sight (the lobby opens beside the tiles), "Dernière main" opens the replayer
 * beside them, closing a popped-out tab brings its table back at once; tiled at 1280×720 and
 * 1920×1080 with 4 and 8 tables, names and cards stay readable (tiles never below their minimum:
 * they stack and scroll), Stud down cards are marked. Screenshots go to tests/artifacts.
 */
import { expect, test, type Page } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { actIn, joinBeside, leaveTable, openConnected, shot, watchProblems } from '../player';

let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost(undefined, FAST_PRACTICE);
});
test.afterAll(async () => {
  await host.stop();
});

/** The smallest card height and seat-name font size on screen, in px. */
async function sizes(page: Page): Promise<{ card: number; name: number }> {
  const card = Math.min(...(await page.locator('[data-testid^="tile-"] .card').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))));
  const name = Math.min(...(await page.locator('[data-testid^="tile-"] .seat .name').evaluateAll((els) => els.map((e) => parseFloat((e.ownerDocument.defaultView as unknown as { getComputedStyle(x: unknown): { fontSize: string } }).getComputedStyle(e).fontSize)))));
  return { card, name };
}

test('the tables stay in sight and readable: lobby and last hand beside them, tiles at 1280×720 and 1920×1080', async ({ page }, info) => {
  test.setTimeout(300_000);
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openConnected(page, host.url);
  await page.getByTestId('join-practice-thnl').click();
  await page.getByTestId('join-confirm-info').check();
  await page.getByTestId('join-submit').click();
  await expect(page.getByTestId('tile-practice-thnl')).toBeVisible();

  // Defect 5: more tables from the lobby beside the tiles; "Salon" in the title bar opens it there too.
  const open = ['practice-thnl'];
  for (const id of ['practice-thl', 'practice-o4hpl', 'practice-thpl']) {
    await joinBeside(page, id, open);
    open.push(id);
  }
  await shot(page, info, 'multi-lobby-beside-tables');
  await page.getByTestId('lobby-panel-close').click();
  await page.getByTestId('nav-lobby').click();
  await expect(page.getByTestId('lobby-panel')).toBeVisible();
  await expect(page.getByTestId('tile-practice-thnl')).toBeVisible();
  await page.getByTestId('lobby-panel-close').click();

  // Defect 6: four tables at 1280×720 fit 2×2 and stay readable.
  const thnl = page.getByTestId('tile-practice-thnl');
  await expect(thnl.getByTestId('hole-cards')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('tables-grid')).toHaveAttribute('data-cols', '2');
  let s = await sizes(page);
  expect(s.card).toBeGreaterThanOrEqual(42);
  expect(s.name).toBeGreaterThanOrEqual(11);
  await shot(page, info, 'tiles-1280x720-4');

  // "Dernière main" beside the tiles.
  for (let i = 0; i < 30 && !(await thnl.getByTestId('table-lasthand').isVisible()); i++) await actIn(thnl, ['action-fold', 'action-check'], 5_000).catch(() => undefined);
  await thnl.getByTestId('table-lasthand').click();
  await expect(page.getByTestId('replay-panel')).toBeVisible();
  for (const id of open) await expect(page.getByTestId(`tile-${id}`)).toBeVisible();
  await shot(page, info, 'multi-last-hand-beside-tables');
  await page.getByTestId('replay-panel-close').click();

  // A popped-out tab closed: the table is back in its tile at once, no button to press.
  const thl = page.getByTestId('tile-practice-thl');
  const [popup] = await Promise.all([page.waitForEvent('popup'), thl.getByTestId('table-popout').click()]);
  await expect(popup.getByTestId('table-practice-thl')).toBeVisible();
  await expect(thl.getByTestId('table-practice-thl')).toHaveCount(0);
  await popup.close();
  await expect(thl.getByTestId('table-practice-thl')).toBeVisible();

  await page.setViewportSize({ width: 1920, height: 1080 });
  await expect(page.getByTestId('tables-grid')).toHaveAttribute('data-cols', '2');
  await shot(page, info, 'tiles-1920x1080-4');

  // Eight tables: 4×2 at 1920×1080; at 1280×720 they stack in two columns (never below the minimum tile).
  for (const id of ['practice-7shl', 'practice-2t7td', 'practice-o4jl', 'practice-7sll']) {
    await joinBeside(page, id, open);
    open.push(id);
  }
  await page.getByTestId('lobby-panel-close').click();
  await expect(page.locator('[data-testid^="tile-"]')).toHaveCount(8);
  await expect(page.getByTestId('tables-grid')).toHaveAttribute('data-cols', '4');
  const stud = page.getByTestId('tile-practice-7shl');
  await expect(stud.getByTestId('hole-cards')).toBeVisible({ timeout: 30_000 });
  // Stud down cards: marked on our seat.
  await expect(stud.locator('.card.down').first()).toBeVisible({ timeout: 30_000 });
  s = await sizes(page);
  expect(s.card).toBeGreaterThanOrEqual(42);
  expect(s.name).toBeGreaterThanOrEqual(11);
  await shot(page, info, 'tiles-1920x1080-8');
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(page.getByTestId('tables-grid')).toHaveAttribute('data-cols', '2');
  s = await sizes(page);
  expect(s.card).toBeGreaterThanOrEqual(42);
  expect(s.name).toBeGreaterThanOrEqual(11);
  await shot(page, info, 'tiles-1280x720-8');

  // Habit: tile, cascade or stack, the choice remembered (a reload keeps it).
  await page.getByTestId('layout-cascade').click();
  await expect(page.getByTestId('tables-grid')).toHaveAttribute('data-layout', 'cascade');
  await shot(page, info, 'tiles-1280x720-8-cascade');
  await page.reload();
  await expect(page.getByTestId('tables-grid')).toHaveAttribute('data-layout', 'cascade');
  await page.getByTestId('layout-stack').click();
  await expect(page.getByTestId('tables-grid')).toHaveAttribute('data-cols', '1');
  await shot(page, info, 'tiles-1280x720-8-stack');
  await page.getByTestId('layout-tile').click();
  await expect(page.getByTestId('tables-grid')).toHaveAttribute('data-cols', '2');

  for (const id of open) await leaveTable(page.getByTestId(`tile-${id}`));
  // Polled as the tiles left with what each shows, so a tile that stays says which and in what state.
  await expect
    .poll(() => page.locator('[data-testid^="tile-"]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-testid')}: ${(e.textContent ?? '').slice(0, 160)}`)), { timeout: 90_000 })
    .toEqual([]);
  expect(problems).toEqual([]);
});
