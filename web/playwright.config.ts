import { defineConfig } from '@playwright/test';

// The browser tests: Debian's Chromium (no browser can be downloaded here; CHROMIUM_PATH picks another), one worker
// (each browser context is real CPU on two cores), against one test cluster started by the global setup.
export default defineConfig({
  testDir: 'test',
  testMatch: '**/*.spec.ts',
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  globalSetup: './test/global-setup.ts',
  outputDir: 'test-results',
  reporter: [['list']],
  use: {
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    screenshot: 'only-on-failure',
  },
});
