/**
 * What the flows with a reference operator of their own do as a player: point the client at that
 * operator in Settings, and register an account (R-AGE: a birth date in France's calendar).
 */
import { expect, type Page } from '@playwright/test';
import { dateInFrance } from '../../operator/protection/identity';
import { openConnected } from './player';

/** The password every flow's account has. */
export const PASSWORD = 'un mot de passe assez long 42';

/** Opens the client and points it at another operator as a player does (URL and pin in Settings): its sign-in form shows. */
export async function openOn(page: Page, hostUrl: string, op: { url: string; pin: string }): Promise<void> {
  await openConnected(page, hostUrl);
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-op-custom').check();
  await page.getByTestId('settings-op-url').fill(op.url);
  await page.getByTestId('settings-op-pins').fill(op.pin);
  await page.getByTestId('settings-op-save').click();
  await page.getByTestId('nav-lobby').click();
  await expect(page.getByTestId('login')).toBeVisible({ timeout: 20_000 });
}

/** Fills the sign-in form's registration (Camille Marie Dupont) and submits it. */
export async function register(page: Page, birthDate: string, username = 'camille_d'): Promise<void> {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('register-last-name').fill('Dupont');
  await page.getByTestId('register-first-names').fill('Camille Marie');
  await page.getByTestId('register-birth-date').fill(birthDate);
  await page.getByTestId('register-submit').click();
}

/**
 * Today minus `years` (plus `days`), as YYYY-MM-DD, in France's calendar, the one the operator reckons
 * the age by (R-AGE, identity.ts `dateInFrance`): the machine's calendar was a day behind Paris's from
 * 23:00 UTC, which made "a day short of 18" exactly 18 (a CI run at 23:25 UTC).
 */
export function yearsAgo(years: number, days = 0): string {
  const today = dateInFrance(Date.now());
  const d = new Date(Date.UTC(today.y - years, today.m - 1, today.d + days));
  return d.toISOString().slice(0, 10);
}
