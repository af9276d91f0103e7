import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'core-workbench',
    environment: 'jsdom',
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['**/node_modules/**'],
    setupFiles: ['./src/test-setup.ts'],
    testTimeout: 30_000,
  },
});
