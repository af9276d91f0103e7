import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'plugins-template-inventory',
    environment: 'node',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
  },
});
