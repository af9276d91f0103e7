import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'plugins-user-centre',
    environment: 'jsdom',
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
  },
});
