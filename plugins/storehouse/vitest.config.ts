import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'plugins-storehouse',
    environment: 'jsdom',
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['**/node_modules/**'],
    setupFiles: ['@decisio/sdk-plugin/jsdom-setup.ts'],
    testTimeout: 30_000,
  },
});
