/**
 * (client side), as a new real-money player would, in Chromium through the browser host. The
 * embedded operator has only a play-money guest and practice tables, so the flow starts a reference
 * operator of its own (`operator/main.ts`, the checked-in lobby with real-money tables, the network-free
 * test payment provider) on 127.0.0.1 and points the client at it through Settings, as a player does:
 *
 * register with an under-18 date (refused, R-AGE, with the reason), then a valid one; a deposit before
 * any limit is refused (LIMIT_NOT_SET) and leads to "Jeu responsable", whose limit inputs are empty (no
 * default, R-LIMITS); the deposit limit set, a deposit with the test card is confirmed and listed with
 * its date, reference and state; the first real-money join without the stake and time limits leads to
 * "Jeu responsable" again; with them set the player sits, the playing-time counter shows in the status
 * bar, leaves; a withdrawal shows the withdrawable amount and is confirmed; self-exclusion is confirmed
 * twice; the next deposit is refused (SELF_EXCLUDED).
 *
 * The second test is the playing-time limit lived through (R-TIMELIMIT): the counter running during
 * dealt hands, the warnings as dialogs, the standing-up at the limit and the refused join after it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { englishIn } from '../../../renderer/src/i18n/english-words';
import { type RunningHost, startHost } from '../host';
import { actIn, decisionOffered, joinTable, PASSIVE, shot, watchProblems } from '../player';
import { openOn, register, yearsAgo } from '../account';

let host: RunningHost | null = null;
let operator: ChildProcess | null = null;
test.afterAll(async () => {
  await host?.stop();
  if (operator && operator.exitCode === null) {
    const exited = new Promise((r) => operator!.once('exit', r));
    operator.kill('SIGTERM');
    await exited;
  }
});

/** The reference operator on a free loopback port; resolves with its URL and pin once it listens. */
function startOperator(): Promise<{ url: string; pin: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cercle-e2e-protect-op-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'operator/main.ts', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  operator = child;
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the operator did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const url = /^(wss:\/\/127\.0\.0\.1:\d+)\/?$/m.exec(output);
      const pin = /^pin (sha256\/\S+)$/m.exec(output);
      if (url && pin) {
        clearTimeout(timer);
        resolve({ url: url[1], pin: pin[1] });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the operator exited with ${code}:\n${output}`)));
  });
}

/** What the player reads in French holds no English word. */
async function frenchOnly(page: Page, where: string): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(englishIn(text), `${where}:\n${text}`).toEqual([]);
}

async function pay(page: Page, direction: 'deposit' | 'withdraw', euros: string): Promise<void> {
  await page.getByTestId(`cashier-${direction}-amount`).fill(euros);
  await page.getByTestId(`cashier-${direction}-card`).fill('4242 4242 4242 4242');
  await page.getByTestId(`cashier-${direction}-submit`).click();
}


test('a new real-money player: registration, limits, deposit, movements, a real-money seat, withdrawal, self-exclusion', async ({ page }, info) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  const op = await startOperator();
  host = await startHost();
  await openOn(page, host.url, op);

  // R-AGE: a day short of 18 is refused, with the operator's reason and rule.
  await register(page, yearsAgo(18, 1));
  await expect(page.getByTestId('login-error')).toHaveText(/il faut avoir 18 ans.*Règle R-AGE/);
  await shot(page, info, 'protect-under-age');
  await register(page, yearsAgo(30));
  await expect(page.getByTestId('login')).toBeHidden({ timeout: 15_000 });
  await expect(page.getByTestId('status-playtime')).toHaveText('Temps de jeu : limite à fixer');
  await expect(page.getByTestId('status-risk')).toContainText('09 74 75 13 13');

  // A deposit before any limit: refused, and the way to "Jeu responsable".
  await page.getByTestId('nav-cashier').click();
  await pay(page, 'deposit', '50');
  await expect(page.getByTestId('cashier-deposit-result')).toContainText('Fixez d’abord vos limites');
  await page.getByTestId('cashier-to-limits').click();
  await expect(page.getByTestId('protection-missing')).toContainText('Dépôts');
  // No default value offered (R-LIMITS, R-TIMELIMIT): every input empty, every limit "non fixée".
  for (const kind of ['deposit', 'stake', 'time']) {
    await expect(page.getByTestId(`limit-${kind}-input`)).toHaveValue('');
    await expect(page.getByTestId(`limit-${kind}-current`)).toHaveText('non fixée');
  }
  await page.getByTestId('limit-deposit-input').fill('200');
  await page.getByTestId('limit-deposit-save').click();
  await expect(page.getByTestId('limit-deposit-current')).toHaveText(/^En vigueur : 200,00\s€$/);

  // A deposit with the test card: confirmed, in the balance and in the movements with its reference.
  await page.getByTestId('nav-cashier').click();
  await pay(page, 'deposit', '50');
  await expect(page.getByTestId('cashier-deposit-result')).toHaveText(/Dépôt de 50,00\s€ confirmé \(référence cercle-\d+\)/);
  const row = page.locator('[data-testid^="movement-cercle-"]').first();
  await expect(row).toHaveAttribute('data-state', 'confirmed');
  await expect(row).toContainText('Dépôt');
  await expect(row).toContainText('4242');
  await expect(row).toContainText(/cercle-\d+ · \S+/); // our reference and the provider's
  await expect(page.getByTestId('status-balance')).toContainText('50,00');
  await shot(page, info, 'protect-cashier');
  await frenchOnly(page, 'cashier');

  // The first real-money join without the stake and time limits leads to "Jeu responsable".
  await page.getByTestId('nav-lobby').click();
  const join = page.locator('[data-testid^="join-thnl-5-10"]').first();
  await join.click();
  await page.getByTestId('join-confirm-info').check();
  await page.getByTestId('join-submit').click();
  await expect(page.getByTestId('protection')).toBeVisible();
  await expect(page.getByTestId('protection-missing')).toContainText(/Mises|Temps de jeu/);
  await page.getByTestId('limit-stake-input').fill('100');
  await page.getByTestId('limit-stake-save').click();
  await expect(page.getByTestId('limit-stake-current')).toHaveText(/^En vigueur : 100,00\s€$/);
  await page.getByTestId('limit-time-input').fill('10');
  await page.getByTestId('limit-time-save').click();
  await expect(page.getByTestId('limit-time-current')).toHaveText('En vigueur : 10 h 00 min');
  await expect(page.getByTestId('counter-period')).toContainText('La période se termine le');
  await expect(page.getByTestId('status-playtime')).toHaveText('Temps de jeu 0 h 00 min / 10 h 00 min');
  // A higher deposit limit waits 48 h, shown with its time.
  await page.getByTestId('limit-deposit-input').fill('300');
  await page.getByTestId('limit-deposit-save').click();
  await expect(page.getByTestId('limit-deposit-pending')).toContainText('Hausse demandée : 300,00');
  await expect(page.getByTestId('limit-deposit-current')).toHaveText(/^En vigueur : 200,00\s€$/);
  await shot(page, info, 'protect-limits', true);
  await frenchOnly(page, 'responsible gaming');

  // Now the seat is given; the money at the table is not withdrawable (R-CASHIER), then the player leaves.
  await page.getByTestId('nav-lobby').click();
  await join.click();
  await page.getByTestId('join-confirm-info').check();
  await page.getByTestId('join-submit').click();
  await expect(page.getByTestId('tables-view')).toBeVisible();
  const tile = page.locator('[data-testid^="tile-thnl-5-10"]').first();
  await expect(tile).toBeVisible();
  await page.getByTestId('nav-cashier').click();
  await expect(page.getByTestId('cashier-withdrawable')).toHaveText(/Retirable maintenant : 0,00\s€/);
  await page.getByTestId('nav-tables').click();
  await tile.getByTestId('table-leave').click();
  await expect(tile).toBeHidden({ timeout: 15_000 });

  // A withdrawal: the withdrawable amount shown, confirmed, listed.
  await page.getByTestId('nav-cashier').click();
  await expect(page.getByTestId('cashier-withdrawable')).toHaveText(/Retirable maintenant : 50,00\s€/);
  await pay(page, 'withdraw', '20');
  await expect(page.getByTestId('cashier-withdraw-result')).toHaveText(/Retrait de 20,00\s€ confirmé/);
  await expect(page.getByTestId('cashier-withdrawable')).toHaveText(/Retirable maintenant : 30,00\s€/);
  await expect(page.locator('[data-testid^="movement-cercle-"]')).toHaveCount(2);
  await expect(page.locator('[data-testid^="movement-cercle-"]').first()).toContainText('Retrait');

  // Self-exclusion for 7 days, confirmed twice (R-EXCLUDE); the ban file is explained.
  await page.getByTestId('nav-responsible').click();
  await expect(page.getByTestId('protection-ban')).toContainText('09 74 75 13 13');
  await page.getByTestId('exclusion-pick-7').check();
  await page.getByTestId('exclusion-ask').click();
  await expect(page.getByTestId('exclusion-confirm')).toContainText('7 jours');
  await page.getByTestId('exclusion-confirm-1').click();
  await page.getByTestId('exclusion-confirm-2').click();
  await expect(page.getByTestId('exclusion-confirm')).toBeHidden();
  await expect(page.getByTestId('exclusion-state')).toContainText('Vous êtes auto-exclu jusqu’au');
  await shot(page, info, 'protect-excluded', true);

  // Excluded: a deposit is refused with the reason and the end of the exclusion.
  await page.getByTestId('nav-cashier').click();
  await pay(page, 'deposit', '10');
  await expect(page.getByTestId('cashier-deposit-result')).toContainText('Vous êtes auto-exclu');
  await expect(page.getByTestId('cashier-deposit-result')).toContainText('Jusqu’au');

  // English second: the same pages in English.
  await page.getByTestId('language-switch').click();
  await page.getByTestId('nav-responsible').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Responsible gaming');
  await expect(page.getByTestId('exclusion-state')).toContainText('You are self-excluded until');
  await expect(page.getByTestId('nav-cashier')).toHaveText('Cashier');
  expect(problems).toEqual([]);
});

/**
 * R-TIMELIMIT (decree 2010-518 art. 16-1), the whole path as a player lives it: a
 * registered real-money player sets a playing-time limit of 0,02 h (72 s: the first two warnings are due
 * at the first hand dealt, `warningThresholds` in operator/protection/playtime.ts, and "reached" at 72 s
 * of play), sits at a real-money table with a second real-money player (a scripted client over TLS that
 * calls or checks every decision) and plays. The counter in the status bar runs; each warning is a dialog
 * only a click closes; at the limit the operator stands the player up from the end of the hand in
 * progress (at once when the limit falls between hands), the stack back to the wallet (R-CASH), and a
 * new join is refused with the reason. Real time (about 80 s): the operator's own clock, no test switch.
 */
test('at the playing-time limit, warned on the way, the player is stood up (after the hand in progress) and cannot sit again', async ({ page }, info) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  const { startOperator } = await import('../../../operator/server/operator');
  const { DEFAULT_CONFIG_PATH, loadConfig } = await import('../../../operator/config/config');
  const { TEST_CARDS } = await import('../../../operator/cashier/provider');
  const { AutoPlayer, TestClient } = await import('../../support/operator/test-client');
  const op = await startOperator({ dataDir: mkdtempSync(join(tmpdir(), 'cercle-e2e-timelimit-op-')), lobby: loadConfig(DEFAULT_CONFIG_PATH), port: 0, log: () => undefined });
  const limitHost = await startHost();
  let other: Awaited<ReturnType<typeof TestClient.connect>> | null = null;
  try {
    await openOn(page, limitHost.url, op);
    await register(page, yearsAgo(40));
    await expect(page.getByTestId('login')).toBeHidden({ timeout: 15_000 });
    await page.getByTestId('nav-responsible').click();
    for (const [kind, value] of [['deposit', '200'], ['stake', '100'], ['time', '0,02']] as const) {
      await page.getByTestId(`limit-${kind}-input`).fill(value);
      await page.getByTestId(`limit-${kind}-save`).click();
      await expect(page.getByTestId(`limit-${kind}-current`)).toContainText('En vigueur');
    }
    await expect(page.getByTestId('status-playtime')).toHaveText('Temps de jeu 0 h 00 min / 0 h 01 min');
    await page.getByTestId('nav-cashier').click();
    await pay(page, 'deposit', '50');
    await expect(page.getByTestId('cashier-deposit-result')).toContainText('confirmé');
    await expect(page.getByTestId('status-balance')).toContainText(/50,00\s€/);

    // The second real-money player sits first, at the first real-money table of the lobby.
    const tableId = op.manager.all().find((t) => t.spec.money === 'real' && t.spec.mode === 'cash')!.tableId;
    // The other player, from another loopback address (one person per address at a table). Connected
    // only now: the operator closes a connection without its hello after 5 s (gate.ts), and the page's
    // setup above took longer than that on a loaded machine (0 messages received, a run under load).
    other = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.2' });
    await other.hello();
    // The other player's setup, with room for a loaded machine (a registration's scrypt went past 10 s once
    // at a load average of 15 on 2 cores); it is not what this flow tests.
    const slow = 30_000;
    const identity = { lastName: 'Martin', firstNames: 'Louis', birthDate: '1985-03-02' };
    expect(await other.request({ type: 'register', username: 'louis_m', password: 'louis password long', identity }, slow)).toMatchObject({ type: 'authed' });
    for (const [limit, value] of [['deposit', 10_000], ['stake', 100_000], ['time', 36_000_000]] as const) {
      expect(await other.request({ type: 'protection.setLimit', limit, value }, slow)).toMatchObject({ protection: { limits: { [limit]: { value } } } });
    }
    expect(await other.request({ type: 'cashier.deposit', requestId: 'louis-1', amount: 5_000, card: TEST_CARDS.succeeds }, slow)).toMatchObject({ payment: { state: 'confirmed' } });
    const bot = new AutoPlayer(other, () => 0.99); // never bets or folds: calls, else checks
    expect(await other.join(tableId, 1_000)).toMatchObject({ type: 'table.joined', stack: 1_000 });

    // The player sits with the minimum buy-in; the balance shows what is left in the wallet.
    const tile = await joinTable(page, tableId);
    await expect(page.getByTestId('status-balance')).toContainText(/46,00\s€/);
    const account = op.accounts.findByUsername('camille_d')!;

    // Plays passively until stood up: each warning dialog is read and closed by its button (a first
    // one is checked to resist Escape and a click beside it); the counter's texts are noted while seated.
    const dialog = page.getByTestId('playtime-warning');
    const counter = page.getByTestId('status-playtime');
    const warned: string[] = [];
    const counted = new Set<string>();
    for (let i = 0; i < 2_000 && (await tile.isVisible()); i++) {
      counted.add((await counter.textContent()) ?? '');
      if (await dialog.isVisible()) {
        const kind = (await page.getByTestId('playtime-warning-text').getAttribute('data-warning')) ?? '';
        if (warned.length === 0) {
          expect(kind).toBe('near');
          await expect(page.getByTestId('playtime-warning-text')).toContainText('sur votre limite de 0 h 01 min');
          await shot(page, info, 'protect-warning');
          await page.keyboard.press('Escape');
          await page.mouse.click(5, 400);
          await expect(dialog).toBeVisible();
        }
        warned.push(kind);
        await page.getByTestId('playtime-warning-ok').click();
        continue;
      }
      if (await decisionOffered(tile).isVisible()) await actIn(tile, PASSIVE, 2_000).catch(() => undefined);
      else await page.waitForTimeout(100);
    }
    await expect(tile).toBeHidden();
    // The counter ran while seated (from the operator's figure, on by the page's clock).
    expect([...counted]).toEqual(expect.arrayContaining(['Temps de jeu 0 h 00 min / 0 h 01 min', 'Temps de jeu 0 h 01 min / 0 h 01 min']));
    // "reached" may arrive as the table goes: read it too.
    if (!warned.includes('reached')) {
      await expect(page.getByTestId('playtime-warning-text')).toHaveAttribute('data-warning', 'reached');
      warned.push('reached');
      await page.getByTestId('playtime-warning-ok').click();
    }
    await expect(dialog).toBeHidden();
    // Each warning once, in order (art. 16-1).
    expect(warned).toEqual(['near', 'ten-minutes', 'reached']);
    // Not stood up before the limit: the operator counted at least the 72 s.
    expect(op.protection.timeUsed(account.id, Date.now()).used).toBeGreaterThanOrEqual(72_000);

    // The stack went back to the wallet (R-CASH): the balance is the operator's, above what was left while seated.
    const cents = op.wallet.balance(account.id, 'real');
    expect(cents).toBeGreaterThan(4_600);
    const euros = `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
    await expect(page.getByTestId('status-balance')).toContainText(new RegExp(`${euros}\\s€`));
    await shot(page, info, 'protect-stood-up');

    // Sitting again is refused with the reason and the end of the period (R-TIMELIMIT).
    await page.getByTestId('nav-lobby').click();
    await page.getByTestId(`join-${tableId}`).click();
    await page.getByTestId('join-confirm-info').check();
    await page.getByTestId('join-submit').click();
    await expect(page.getByTestId('join-error')).toContainText('Votre limite de temps de jeu est atteinte');
    // The refusal in French holds no English word (the dialog: the lobby lists the operator's table names).
    expect(englishIn(await page.getByTestId('join-dialog').innerText())).toEqual([]);
    expect(bot.problems).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await other?.close();
    await limitHost.stop();
    await op.close();
  }
});

/**
 * R-EXCLUDE ("a player can also close their account themselves") and R-BALANCE, as a player lives
 * them at 1280 × 720: the status bar says how to register on the national ban file beside the risk
 * message, every item inside the window and none on another; closing the account is asked twice; the
 * status bar then says the account is closed, a deposit is refused with the reason, and the money can
 * still be withdrawn.
 */
test('closing one’s own account: asked twice, said in the status bar, deposits refused, the money withdrawn', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = watchProblems(page);
  const { startOperator } = await import('../../../operator/server/operator');
  const { DEFAULT_CONFIG_PATH, loadConfig } = await import('../../../operator/config/config');
  const op = await startOperator({ dataDir: mkdtempSync(join(tmpdir(), 'cercle-e2e-closure-op-')), lobby: loadConfig(DEFAULT_CONFIG_PATH), port: 0, log: () => undefined });
  const closureHost = await startHost();
  try {
    await openOn(page, closureHost.url, op);
    await register(page, yearsAgo(35), 'dominique_c');
    await expect(page.getByTestId('login')).toBeHidden({ timeout: 15_000 });
    await page.getByTestId('nav-responsible').click();
    await page.getByTestId('limit-deposit-input').fill('200');
    await page.getByTestId('limit-deposit-save').click();
    await expect(page.getByTestId('limit-deposit-current')).toContainText('En vigueur');
    await page.getByTestId('nav-cashier').click();
    await pay(page, 'deposit', '50');
    await expect(page.getByTestId('cashier-deposit-result')).toContainText('confirmé');

    // R-BALANCE: the ban-file line beside the risk message, with its explanation; the status bar's items
    // each inside the window, none over another (measured: bounding boxes).
    await expect(page.getByTestId('status-ban')).toHaveText('Interdiction volontaire de jeux : anj.fr');
    await expect(page.getByTestId('status-ban')).toHaveAttribute('title', /fichier national des interdits de jeu/);
    const statusItems = async () => {
      const boxes: { id: string; x: number; y: number; width: number; height: number }[] = [];
      for (const id of ['status-balance', 'status-playtime', 'status-risk', 'status-ban', 'status-closed']) {
        const l = page.getByTestId(id);
        if ((await l.count()) === 0) continue;
        const b = await l.first().boundingBox();
        if (b) boxes.push({ id, ...b });
      }
      return boxes;
    };
    const checkLaidOut = async () => {
      const boxes = await statusItems();
      expect(boxes.map((b) => b.id)).toEqual(expect.arrayContaining(['status-balance', 'status-risk', 'status-ban']));
      for (const b of boxes) {
        expect(b.x, b.id).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width, b.id).toBeLessThanOrEqual(1280);
        expect(b.y + b.height, b.id).toBeLessThanOrEqual(720);
      }
      for (const a of boxes) {
        for (const b of boxes) {
          if (a.id >= b.id) continue;
          const overlap = a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
          expect(overlap, `${a.id} over ${b.id}`).toBe(false);
        }
      }
    };
    await checkLaidOut();

    // Closing the account, asked twice.
    await page.getByTestId('nav-responsible').click();
    await page.getByTestId('closure-ask').click();
    await page.getByTestId('closure-confirm-1').click();
    await page.getByTestId('closure-confirm-2').click();
    await expect(page.getByTestId('closure-confirm')).toBeHidden();
    await expect(page.getByTestId('status-closed')).toHaveText('Compte clôturé');
    await expect(page.getByTestId('closure-ask')).toBeHidden();
    await checkLaidOut();
    await shot(page, info, 'protect-closed');

    // Closed: a deposit is refused with the reason; the balance can be withdrawn.
    await page.getByTestId('nav-cashier').click();
    await pay(page, 'deposit', '10');
    await expect(page.getByTestId('cashier-deposit-result')).toContainText('clôturé');
    await pay(page, 'withdraw', '50');
    await expect(page.getByTestId('cashier-withdraw-result')).toHaveText(/Retrait de 50,00\s€ confirmé/);
    const account = op.db.prepare("SELECT closed_reason FROM accounts WHERE username = 'dominique_c'").get();
    expect(account).toEqual({ closed_reason: 'closed-by-player' });
    await frenchOnly(page, 'the cashier of a closed account');
    expect(problems).toEqual([]);
  } finally {
    await closureHost.stop();
    await op.close();
  }
});
