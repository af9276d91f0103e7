import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'plugins-sdk-licence',
    environment: 'jsdom',
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
  },
});
