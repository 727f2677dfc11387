/** What every part of the fake shares: the test's configuration and Electron's preventable event. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How a test sets the fake up (in a child process: JSON in the CERCLE_FAKE_ELECTRON variable). */
export interface FakeConfig {
  userData: string;
  version?: string;
  name?: string;
  isPackaged?: boolean;
  appPath?: string;
  safeStorage?: { available: boolean; backend: string; keyring?: string };
}

const CONFIG_VAR = 'CERCLE_FAKE_ELECTRON';
function loadConfig(): FakeConfig {
  const raw = process.env[CONFIG_VAR];
  if (!raw) return { userData: join(tmpdir(), 'cercle-fake-electron-userdata') };
  return JSON.parse(raw) as FakeConfig;
}

/** The configuration in force (the test may change it, `fake.configure`). */
export let config: FakeConfig = loadConfig();

export function configure(c: Partial<FakeConfig>): void {
  config = { ...config, ...c };
}

/** A DOM-like event whose default can be prevented: what Electron passes to preventable events. */
export class FakeEvent {
  defaultPrevented = false;
  constructor(readonly extra: Record<string, unknown> = {}) {
    Object.assign(this, extra);
  }
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

/**
 * Where the process ends (app.quit once done, app.exit, `fake.exit`): the harness may replace `exit`
 * to report first. Here rather than on `fake` so that the app need not import the test's side.
 */
export const ending = {
  exit(code: number): void {
    process.exit(code);
  },
};
