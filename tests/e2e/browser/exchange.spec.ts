/**
 * Export and re-import a period (R-HISTORY), in Chromium through the browser host: play a
 * few hands of no-limit Hold'em, leave, export the history as POJEU from the history page (a job in
 * main's worker thread, with its progress), download the file, then in a FRESH client (another host,
 * another data folder, another operator) import a corrupt copy first (refused with its line, nothing
 * listed) and then the file itself: the same hands are listed. Screenshots are kept.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FAST_PRACTICE, type RunningHost, startHost } from '../host';
import { actIn, joinTable, leaveTable, openConnected, shot, watchProblems } from '../player';

let first: RunningHost;
let fresh: RunningHost | null = null;
test.beforeAll(async () => {
  first = await startHost(undefined, FAST_PRACTICE);
});
test.afterAll(async () => {
  await first.stop();
  await fresh?.stop();
});

async function openHistory(page: Page): Promise<void> {
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('exchange-panel')).toBeVisible();
  if ((await page.getByTestId('exchange-panel').getAttribute('open')) === null) await page.getByTestId('exchange-panel').locator('summary').click();
}

async function listedIds(page: Page): Promise<string[]> {
  const ids = await page
    .getByTestId('history-list')
    .locator('[data-testid^="history-row-"]')
    .evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').replace('history-row-', '')));
  return ids.sort();
}

test('export and re-import a period', async ({ page, browser }, info) => {
  test.setTimeout(300_000);
  const problems = watchProblems(page);

  // A few hands at a no-limit Hold'em table (checking or folding: a call could meet an all-in and leave us
  // without chips, and a practice table waits for a person who can play), then leave.
  await openConnected(page, first.url);
  const tile = await joinTable(page, 'practice-thnl');
  const last = tile.getByTestId('table-lasthand');
  const seen = new Set<string>();
  const until = Date.now() + 120_000;
  while (Date.now() < until && seen.size < 3) {
    await actIn(tile, ['action-check', 'action-show', 'action-fold'], 5_000).catch(() => '');
    const id = await last.getAttribute('data-hand-id', { timeout: 200 }).catch(() => null);
    if (id) seen.add(id);
  }
  expect(seen.size).toBeGreaterThanOrEqual(3);
  await leaveTable(tile);
  await expect(page.locator('[data-testid^="tile-"]')).toHaveCount(0, { timeout: 60_000 });

  // The history: the hands played; export them (the whole period) as POJEU.
  await openHistory(page);
  await expect(page.getByTestId('history-list').locator('[data-testid^="history-row-"]').first()).toBeVisible();
  const played = await listedIds(page);
  expect(played.length).toBeGreaterThanOrEqual(3);
  await page.getByTestId('export-format').selectOption('pojeu');
  await page.getByTestId('export-start').click();
  await expect(page.getByTestId('export-result')).toContainText(`${played.length} mains exportées`, { timeout: 30_000 });
  await shot(page, info, 'exchange-exported', true);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-link').click()]);
  expect(download.suggestedFilename()).toMatch(/^cercle-.*\.xml$/);
  const dir = mkdtempSync(join(tmpdir(), 'cercle-exchange-e2e-'));
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  expect(text.startsWith('<?xml')).toBe(true);
  expect(text.match(/<POJEU>/g)?.length).toBe(played.length);
  for (const id of played) expect(text).toContain(`<Pool>${id}</Pool>`);

  // One hand on its own: chosen in the list, exported alone.
  const one = played[0];
  await page.getByTestId(`history-row-${one}`).click();
  await page.getByTestId('export-hand').click();
  await expect(page.getByTestId('export-result')).toContainText('1 main exportée', { timeout: 30_000 });
  const [single] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-link').click()]);
  const singleFile = join(dir, `one-${single.suggestedFilename()}`);
  await single.saveAs(singleFile);
  const singleText = readFileSync(singleFile, 'utf8');
  expect(singleText.match(/<POJEU>/g)?.length).toBe(1);
  expect(singleText).toContain(`<Pool>${one}</Pool>`);

  // A corrupt copy: one amount of the last hand changed. Refused with its line; nothing kept.
  const lines = text.split('\n');
  const lastHand = lines.lastIndexOf('  <POJEU>');
  const netLine = lines.findIndex((l, i) => i > lastHand && /<Net>/.test(l));
  lines[netLine] = lines[netLine].replace(/<Net>(-?)(\d+)/, (_, s: string, n: string) => `<Net>${s}${Number(n) + 7}`);
  const corrupt = join(dir, 'corrupt.xml');
  writeFileSync(corrupt, lines.join('\n'));

  // A fresh client: another data folder and another embedded operator.
  fresh = await startHost(undefined, FAST_PRACTICE);
  const context = await browser.newContext();
  const other = await context.newPage();
  other.on('pageerror', (e) => problems.push(e.message));
  await openConnected(other, fresh.url);
  await openHistory(other);
  expect(await listedIds(other)).toEqual([]);

  await other.getByTestId('import-file').setInputFiles(corrupt);
  const result = other.getByTestId('import-result');
  await expect(result).toContainText('Fichier refusé à la ligne', { timeout: 30_000 });
  const line = Number(await result.getAttribute('data-line'));
  expect(line).toBeGreaterThan(lastHand);
  expect(line).toBeLessThanOrEqual(netLine + 1);
  await expect(result).toContainText('Aucune main n’a été importée');
  await shot(other, info, 'exchange-corrupt', true);
  await other.reload();
  await openHistory(other);
  await other.waitForTimeout(500);
  expect(await listedIds(other)).toEqual([]);

  // The file itself: every hand stored, then listed.
  await other.getByTestId('import-file').setInputFiles(file);
  await expect(result).toHaveAttribute('data-stored', String(played.length), { timeout: 30_000 });
  await expect(result).toHaveAttribute('data-duplicates', '0');
  await other.reload();
  await openHistory(other);
  await expect(other.getByTestId('history-list').locator('[data-testid^="history-row-"]')).toHaveCount(played.length, { timeout: 10_000 });
  expect(await listedIds(other)).toEqual(played);
  await shot(other, info, 'exchange-reimported', true);

  // Importing it again adds nothing.
  await other.getByTestId('import-file').setInputFiles(file);
  await expect(result).toHaveAttribute('data-duplicates', String(played.length), { timeout: 30_000 });
  await expect(result).toHaveAttribute('data-stored', '0');

  // A file over the exchange's bound (32 MiB) is refused before it is read or sent.
  const big = join(dir, 'big.txt');
  writeFileSync(big, Buffer.alloc(33 * 1024 * 1024, 0x41));
  await other.getByTestId('import-file').setInputFiles(big);
  await expect(result).toHaveText('Ce fichier fait 33 Mio ; un import lit au plus 32 Mio. Découpez-le (par mois, par exemple).');
  await context.close();
  expect(problems).toEqual([]);
});
