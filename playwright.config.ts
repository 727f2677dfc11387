import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's Chromium where it is installed (these machines and .ci/run); elsewhere (GitHub runners)
// the browser that `npx playwright install chromium` fetched. CHROMIUM_PATH overrides both.
const chromium = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]] : 'list',
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
  projects: [
    {
      // The renderer in Chromium through the browser host (electron/web): runs everywhere.
      name: 'browser-host',
      testMatch: /browser\/.*\.spec\.ts$/,
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: chromium,
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
        },
      },
    },
    {
      // The real Electron app (`_electron.launch`): needs the Electron binary, so it runs in the
      // GitHub workflow on Windows, macOS and Linux, not in .ci/run.
      name: 'electron',
      testMatch: /electron\/.*\.spec\.ts$/,
    },
  ],
});
