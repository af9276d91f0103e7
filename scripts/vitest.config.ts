import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'repo', environment: 'node', include: ['*.test.ts'] } });
