import { defineConfig } from 'vitest/config';

// End-to-end tests: real Chromium (playwright-core + the system browser) against the real
// server started by the global setup on a fresh SQLite data directory.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['specs/**/*.spec.ts'],
    globalSetup: ['./global-setup.ts'],
    // Every spec fails on a Content-Security-Policy violation (fixtures/csp.ts).
    setupFiles: ['./setup.ts'],
    testTimeout: 120_000,
    // A page under load (CI's 2 cores) takes longer than vitest's 1 s default to settle: every
    // expect.poll of the specs waits up to 15 s unless it names its own timeout.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
