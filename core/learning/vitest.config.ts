import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'learning',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 240_000,
  },
});
