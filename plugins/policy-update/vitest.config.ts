import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'plugins-policy-update',
    environment: 'jsdom',
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
  },
});
