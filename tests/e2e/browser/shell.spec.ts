import { expect, test } from '@playwright/test';
import { artifactPath, type RunningHost, startHost } from '../host';

let host: RunningHost;
test.beforeAll(async () => {
  host = await startHost();
});
test.afterAll(async () => {
  await host.stop();
});

test('a new player lands in the French lobby, switches to English, and the choice is kept', async ({ page }, testInfo) => {
  const problems: string[] = [];
  // A CSP violation or a script error shows up here: the shell must run under the strict policy.
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));

  await page.goto(host.url);
  await expect(page.getByTestId('lobby')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Salon');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByTestId('status-balance')).toContainText('Solde');
  await expect(page.getByTestId('responsible-gaming')).toContainText('09 74 75 13 13');
  // The token is kept for the tab but removed from the address bar.
  expect(page.url()).not.toContain('token=');
  const fr = artifactPath('shell-lobby-fr.png');
  await page.screenshot({ path: fr });
  await testInfo.attach('lobby (fr)', { path: fr, contentType: 'image/png' });

  await page.getByTestId('language-switch').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lobby');
  await expect(page.getByTestId('status-balance')).toContainText('Balance');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const en = artifactPath('shell-lobby-en.png');
  await page.screenshot({ path: en });
  await testInfo.attach('lobby (en)', { path: en, contentType: 'image/png' });

  // The setting lives in main (the data folder), so a reload comes back in English.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lobby');

  expect(problems).toEqual([]);
});

test('the page is served with the strict content security policy', async ({ request }) => {
  const res = await request.get(host.origin + '/');
  expect(res.status()).toBe(200);
  const csp = res.headers()['content-security-policy'];
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).not.toContain('unsafe-inline');
});

test('without the token the client API is not reachable', async ({ page }) => {
  await page.goto(host.origin + '/');
  await expect(page.getByTestId('host-unreachable')).toBeVisible();
});
