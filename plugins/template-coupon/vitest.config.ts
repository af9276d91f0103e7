import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'plugins-template-coupon',
    environment: 'node',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
  },
});
