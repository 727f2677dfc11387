/**
 * A dead link never looks alive. With the client in Chromium through the browser
 * host and its embedded operator: the operator process is killed → the status bar says the operator
 * is unreachable with its next try, and the client starts it again and reconnects by itself; the host
 * is stopped → the status bar says so with its next try, an action that cannot be sent says why; the
 * host is started again on the same data folder → same address, the tab reconnects by itself and
 * joining works again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openOn, PASSWORD, register, yearsAgo } from '../account';
import { FAST_PRACTICE, type RunningHost, startHost, startHostAgain } from '../host';
import { operatorPid, shot, watchProblems } from '../player';

let host: RunningHost | null = null;
test.afterAll(async () => {
  await host?.stop();
});

test('operator killed, host stopped: the status bar says so, actions say why, and the tab reconnects by itself', async ({ page }, info) => {
  test.setTimeout(180_000);
  const problems = watchProblems(page);
  const dataDir = mkdtempSync(join(tmpdir(), 'cercle-e2e-link-'));
  host = await startHostAgain(dataDir, FAST_PRACTICE);
  const firstUrl = host.url;
  await page.goto(host.url);
  const link = page.getByTestId('status-link');
  await expect(link).toHaveText('Connecté', { timeout: 20_000 });
  await expect(page.locator('[data-testid^="lobby-row-"]')).toHaveCount(11);

  // The operator dies: said at once, with the next try; then started again by the client.
  process.kill(operatorPid(host.pid), 'SIGKILL');
  await expect(link).toHaveAttribute('data-state', 'reconnecting');
  await expect(link).toHaveText(/^Opérateur injoignable · reconnexion dans \d+ s$/);
  // Why, in French (the link's English detail, "the embedded operator stopped (SIGKILL)", was shown before).
  await expect(link).toHaveAttribute('title', 'L’opérateur intégré s’est arrêté : Cercle le redémarre et reprend votre session.');
  await shot(page, info, 'link-operator-gone');
  await expect(link).toHaveText('Connecté', { timeout: 30_000 });
  await expect(page.locator('[data-testid^="lobby-row-"]')).toHaveCount(11);

  // The host stops: said at once, with the next try.
  await host.stop();
  host = null;
  await expect(link).toHaveAttribute('data-state', 'host-gone');
  await expect(link).toHaveText(/^Client Cercle arrêté · nouvelle tentative dans \d+ s$/);
  // S'asseoir while it is gone: the dialog says why nothing happens.
  await page.getByTestId('join-practice-thnl').click();
  await page.getByTestId('join-confirm-info').check();
  await page.getByTestId('join-submit').click();
  await expect(page.getByTestId('join-error')).toHaveText(/^Non envoyé : le client Cercle est arrêté/);
  await shot(page, info, 'link-host-gone');

  // Started again on the same data folder: the same address, and the tab comes back by itself.
  host = await startHostAgain(dataDir, FAST_PRACTICE);
  expect(host.url).toBe(firstUrl);
  await expect(link).toHaveText('Connecté', { timeout: 30_000 });
  await page.getByTestId('join-submit').click();
  await expect(page.getByTestId('tile-practice-thnl').getByTestId('hole-cards')).toBeVisible({ timeout: 30_000 });
  // Only what the page itself logs for the refused calls is allowed: nothing.
  expect(problems.filter((p) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(p))).toEqual([]);
});

test('the account signed in elsewhere: the status bar says so in French, and « Reconnecter » takes the session back', async ({ page }, info) => {
  test.setTimeout(120_000);
  const problems = watchProblems(page);
  const { startOperator } = await import('../../../operator/server/operator');
  const { DEFAULT_CONFIG_PATH, loadConfig } = await import('../../../operator/config/config');
  const { TestClient } = await import('../../support/operator/test-client');
  const op = await startOperator({ dataDir: mkdtempSync(join(tmpdir(), 'cercle-e2e-link-op-')), lobby: loadConfig(DEFAULT_CONFIG_PATH), port: 0, log: () => undefined });
  const here = await startHost();
  let elsewhere: Awaited<ReturnType<typeof TestClient.connect>> | null = null;
  try {
    await openOn(page, here.url, op);
    await register(page, yearsAgo(30), 'relie_ici');
    await expect(page.getByTestId('login')).toBeHidden({ timeout: 15_000 });
    const link = page.getByTestId('status-link');
    await expect(link).toHaveText('Connecté');
    await expect(page.getByTestId('status-reconnect')).toHaveCount(0);

    // The same account from another machine: this connection is closed, and not retried (it would take the session back).
    // Connected only now: the operator closes a connection without its hello after 5 s (gate.ts).
    elsewhere = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.2' });
    await elsewhere.hello();
    expect(await elsewhere.request({ type: 'login', username: 'relie_ici', password: PASSWORD })).toMatchObject({ type: 'authed' });
    await expect(link).toHaveText('Hors ligne · compte connecté ailleurs');
    await expect(link).toHaveAttribute('data-why', 'replaced');
    await expect(link).toHaveAttribute('title', /^Ce compte s’est connecté ailleurs et cette connexion a été fermée\./);
    await shot(page, info, 'link-replaced');
    await page.waitForTimeout(1_000);
    await expect(link).toHaveText('Hors ligne · compte connecté ailleurs');

    // « Reconnecter »: the session resumed here (the other connection is told SESSION_REPLACED in turn).
    const told = elsewhere.waitFor((m) => m.type === 'error' && m.code === 'SESSION_REPLACED', 20_000);
    await page.getByTestId('status-reconnect').click();
    await expect(link).toHaveText('Connecté', { timeout: 20_000 });
    await told;
    await expect(page.getByTestId('status-reconnect')).toHaveCount(0);
    await expect(page.getByTestId('login')).toBeHidden();
    expect(problems).toEqual([]);
  } finally {
    await elsewhere?.close();
    await here.stop();
    await op.close();
  }
});
