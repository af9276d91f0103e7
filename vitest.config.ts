import { defineConfig } from 'vitest/config';

// One vitest run over every workspace; each workspace owns its own `vitest.config.ts`
// (environment, setup files, timeouts). e2e specs run through Playwright, not here.
export default defineConfig({
  test: {
    projects: ['core/*', 'sdk-plugin', 'plugins/*', 'workers/*', 'server', 'scripts'],
  },
});
