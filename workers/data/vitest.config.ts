import { defineConfig } from 'vitest/config';

// Unit tests run in Node (the parsers are pure); the browser test starts its own Vite server
// and Chromium from Node, so it needs no DOM environment either.
export default defineConfig({
  test: {
    name: 'workers-data',
    environment: 'node',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
});
