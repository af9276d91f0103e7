import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { missingReason, skipWithout } from './services';

describe('skipWithout', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('skips with the reason npm test found, recorded for its summary, and runs when the service is there', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-skips-'));
    const log = path.join(dir, 'skipped.jsonl');
    try {
      vi.stubEnv('DECISIO_TEST_SKIP_LOG', log);
      vi.stubEnv('DECISIO_TEST_MISSING_REDIS', 'no Redis at 127.0.0.1:6379 (ECONNREFUSED)');
      expect(skipWithout('redis', 'file:///repo/server/a.test.ts', true)).toBe(false);
      expect(fs.existsSync(log)).toBe(false);
      expect(skipWithout('redis', 'file:///repo/server/a.test.ts', false)).toBe(true);
      expect(fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l))).toEqual([
        { file: '/repo/server/a.test.ts', service: 'redis', name: 'Redis', reason: 'TEST_REDIS_URL: no Redis at 127.0.0.1:6379 (ECONNREFUSED)' },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without npm test, goes by the TEST_* variable and says it is unset', () => {
    vi.stubEnv('DECISIO_TEST_SKIP_LOG', '');
    vi.stubEnv('DECISIO_TEST_MISSING_POSTGRES', '');
    vi.stubEnv('TEST_POSTGRES_URL', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(skipWithout('postgres', '/repo/b.test.ts')).toBe(true);
    expect(missingReason('postgres')).toBe('TEST_POSTGRES_URL is not set');
    expect(warn).toHaveBeenCalledWith('skipped: PostgreSQL tests of /repo/b.test.ts (TEST_POSTGRES_URL is not set)');
    warn.mockRestore();
    vi.stubEnv('TEST_POSTGRES_URL', 'postgres://postgres:pw@127.0.0.1:5432/test');
    expect(skipWithout('postgres', '/repo/b.test.ts')).toBe(false);
  });
});
