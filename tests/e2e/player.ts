/**
 * What the browser-host flows do as a player: take a decision through the table's buttons, join a
 * table from the lobby (confirming its information, R-INFO), read chip amounts, keep screenshots, and
 * collect the page's errors (every flow ends by asserting there were none).
 */
import { execFileSync } from 'node:child_process';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { artifactPath } from './host';

/**
 * Every decision button a table may offer (test ids of ActionBar.vue), and last the accidental-call
 * guard's confirmation: a flow clicks within the guard's window after a practice player's large raise,
 * and a player who meant it confirms.
 */
export const ACTIONS = ['action-check', 'action-call', 'action-bringin', 'action-standpat', 'action-draw', 'action-show', 'action-muck', 'action-fold', 'guard-confirm'];

/** The cheapest way through a hand: check, post the bring-in, stand pat, show, else fold. */
export const PASSIVE = ['action-check', 'action-bringin', 'action-standpat', 'action-show', 'action-fold'];

/**
 * Waits until the table offers us a decision, then takes the first offered in `prefer` order (falling
 * back to any offered). Returns the action taken.
 */
export async function actIn(tile: Locator, prefer: string[] = PASSIVE, waitMs = 45_000): Promise<string> {
  const any = tile.locator(ACTIONS.map((a) => `[data-testid="${a}"]`).join(','));
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (await any.first().isVisible().catch(() => false)) {
      for (const id of [...prefer, ...ACTIONS]) {
        const b = tile.getByTestId(id);
        // isEnabled waits for the element without end by default: the button may go between the two calls.
        if ((await b.isVisible().catch(() => false)) && (await b.isEnabled({ timeout: 200 }).catch(() => false))) {
          const clicked = await b.click({ timeout: 1_500 }).then(
            () => true,
            () => false, // the hand moved on under the pointer: look again
          );
          if (clicked) return id;
        }
      }
    }
    await tile.page().waitForTimeout(50);
  }
  throw new Error(`no decision offered within ${waitMs / 1000} s`);
}

/** Waits for our decision; shoves (types more than the stack) when a bet is offered, else calls or checks. */
export async function shove(tile: Locator): Promise<'shove' | 'other' | 'busted'> {
  const input = tile.getByTestId('bet-input');
  const rebuy = tile.getByTestId('rebuy-offer');
  const any = tile.locator('[data-testid^="action-"]');
  await expect(any.first().or(rebuy)).toBeVisible({ timeout: 45_000 });
  if (await rebuy.isVisible()) return 'busted';
  if (await input.isVisible().catch(() => false)) {
    const ok = await input.fill('999999', { timeout: 1_500 }).then(
      () => true,
      () => false,
    );
    if (ok && (await tile.getByTestId('action-bet').isVisible().catch(() => false))) {
      // More than the stack: the button says all-in (Tapis) and sends the stack.
      const text = (await tile.getByTestId('action-bet').textContent().catch(() => '')) ?? '';
      if (/^Tapis/.test(text) && (await tile.getByTestId('action-bet').click({ timeout: 1_500 }).then(() => true, () => false))) return 'shove';
    }
  }
  await actIn(tile, ['action-call', 'action-check', 'guard-confirm', 'action-show', 'action-fold'], 5_000).catch(() => undefined);
  return 'other';
}

/**
 * Shoves every hand until the stack is gone (practice players call strong hands; bounded), then the
 * table must offer a rebuy within its limits (issue 13 defect 3).
 */
export async function bustAt(tile: Locator, offer: string): Promise<void> {
  let busted = false;
  for (let i = 0; i < 80 && !busted; i++) busted = (await shove(tile)) === 'busted';
  expect(busted).toBe(true);
  await expect(tile.getByTestId('rebuy-offer')).toContainText(offer);
}

/** Sits at a table from the lobby: the information must be confirmed before the button works (R-INFO). */
export async function joinTable(page: Page, tableId: string): Promise<Locator> {
  await page.getByTestId('nav-lobby').click();
  await page.getByTestId(`join-${tableId}`).click();
  await expect(page.getByTestId('join-dialog')).toBeVisible();
  await expect(page.getByTestId('join-submit')).toBeDisabled();
  await page.getByTestId('join-confirm-info').check();
  await page.getByTestId('join-submit').click();
  await expect(page.getByTestId('tables-view')).toBeVisible();
  const tile = page.getByTestId(`tile-${tableId}`);
  await expect(tile).toBeVisible();
  return tile;
}

/**
 * Leaves a table by its "Quitter" button. While we hold cards in a live hand the table asks first
 * (issue 13 defect 4): `now` folds the hand and leaves, `after` plays it on and leaves when it ends.
 * Returns whether the table asked.
 */
export async function leaveTable(tile: Locator, when: 'now' | 'after' = 'now'): Promise<boolean> {
  await tile.getByTestId('table-leave').click();
  const confirm = tile.getByTestId('leave-confirm');
  // The question shows at once when it applies (the click and the check run on the same state).
  if (!(await confirm.isVisible())) return false;
  await tile.getByTestId(when === 'now' ? 'leave-now' : 'leave-after').click();
  return true;
}

/** The embedded operator: the host's child process running embedded-child.cjs. */
export function operatorPid(hostPid: number): number {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(hostPid)], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.includes('embedded'));
  if (!line) throw new Error(`no embedded operator under ${hostPid}:\n${out}`);
  return Number(line.trim().split(/\s+/)[0]);
}

/** Chips in a status-bar or results text ("+1 234 jetons", "−50 jetons"). */
export function chips(text: string | null): number {
  const m = /([+\-\u2212]?)([\d\s\u202f\u00a0]+) jetons/.exec(text ?? '');
  if (!m) throw new Error(`no chip amount in ${text}`);
  return (m[1] === '' || m[1] === '+' ? 1 : -1) * Number(m[2].replace(/\D/g, ''));
}

/** A screenshot kept as an artifact (test-results/artifacts) and attached to the report. */
export async function shot(page: Page, info: TestInfo, name: string, fullPage = false): Promise<void> {
  const path = artifactPath(`${name}.png`);
  await page.screenshot({ path, fullPage });
  await info.attach(name, { path, contentType: 'image/png' });
}

/** Page errors and console errors seen from now on; a flow asserts the list is empty at its end. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  return problems;
}
