/**
 * Multi-tabling, in Chromium through the browser host: two tables' decisions taken at the same instant
 * both reach the operator, clicked in one task of the page and clicked by two flows at once; and the
 * flows' own clicks made at once on one page all reach their buttons. A click history.spec lost when it
 * played two tables at once was lost by the test's tool, not by the client (`oneAtATime` in ../player.ts).
 */
import { expect, test } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { actAtOnce, actIn, clickOn, joinTable, leaveTable, openConnected, watchProblems } from '../player';

test("the flows' clicks made at once on one page all reach their buttons", async ({ page }) => {
  await page.setContent(
    `<button id="a" style="position:absolute;left:20px;top:20px;width:120px;height:40px">A</button>` +
      `<button id="b" style="position:absolute;left:400px;top:20px;width:120px;height:40px">B</button>` +
      `<script>window.clicks={a:0,b:0};for(const id of ['a','b'])document.getElementById(id).addEventListener('click',()=>window.clicks[id]++)</script>`,
  );
  const rounds = 40;
  for (let i = 0; i < rounds; i++) await Promise.all([clickOn(page.locator('#a')), clickOn(page.locator('#b'))]);
  expect(await page.evaluate(() => (globalThis as unknown as { clicks: { a: number; b: number } }).clicks)).toEqual({ a: rounds, b: rounds });
});

test.describe('at two tables', () => {
  let host: RunningHost;
  test.beforeAll(async () => {
    host = await startHost(undefined, FAST_PRACTICE);
  });
  test.afterAll(async () => {
    await host.stop();
  });

  test('two decisions taken at the same instant both reach the operator', async ({ page }) => {
    test.setTimeout(240_000);
    const problems = watchProblems(page);
    await openConnected(page, host.url);
    const a = await joinTable(page, 'practice-thnl');
    const b = await joinTable(page, 'practice-thl');

    // Both tables wait for us, then both buttons are clicked in one task: each move must be in its
    // table's log (actAtOnce fails the flow otherwise).
    for (let i = 0; i < 6; i++) expect(await actAtOnce([a, b])).toHaveLength(2);
    // The same with the page busy for 1.5 s right after the clicks: the hands go on meanwhile and the
    // page draws what came as one, often the next hand already; each move is then in its hand's record.
    for (let i = 0; i < 4; i++) expect(await actAtOnce([a, b], undefined, 1_500)).toHaveLength(2);
    // Two flows acting at once, each with real clicks, as history.spec plays its two tables.
    for (let i = 0; i < 6; i++) await Promise.all([actIn(a), actIn(b)]);

    for (const tile of [a, b]) await leaveTable(tile);
    await expect(page.locator('[data-testid^="tile-"]')).toHaveCount(0, { timeout: 60_000 });
    expect(problems).toEqual([]);
  });
});
