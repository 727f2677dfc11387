import { defineConfig } from 'vitest/config';

// Unit tests sit beside their code (x.ts -> x.test.ts); integration tests under tests/integration.
// End-to-end tests (tests/e2e) run with Playwright, not here.
export default defineConfig({
  test: {
    include: [
      'shared/**/*.test.ts',
      'electron/**/*.test.ts',
      'operator/**/*.test.ts',
      'renderer/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'tests/lint/**/*.test.ts',
      // The pure checks the browser flows use (tests/e2e/*.ts).
      'tests/e2e/*.test.ts',
      // The Electron main process, built, over a fake Electron: needs `electron-vite build` first.
      'tests/electron-main/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // 2 cores: keep the pool small so heavy suites (exhaustive counts) do not starve each other.
    maxWorkers: 2,
  },
});
