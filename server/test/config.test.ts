/** `loadConfig`: the TensorBoard settings (`TENSORBOARD_BIN`, `TENSORBOARD_IDLE_MINUTES`). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

describe('loadConfig', () => {
  const cwd = path.resolve('/srv/decisio');

  it('reads the TensorBoard executable (relative to the working directory) and idle time', () => {
    expect(loadConfig({}, cwd)).toMatchObject({ tensorBoardBin: null, tensorBoardIdleMinutes: 30 });
    expect(loadConfig({ TENSORBOARD_BIN: '  ' }, cwd).tensorBoardBin).toBeNull();
    expect(loadConfig({ TENSORBOARD_BIN: 'venv/bin/tensorboard' }, cwd).tensorBoardBin).toBe(path.join(cwd, 'venv/bin/tensorboard'));
    const absolute = path.resolve('/opt/tb/bin/tensorboard');
    expect(loadConfig({ TENSORBOARD_BIN: absolute }, cwd).tensorBoardBin).toBe(absolute);
    expect(loadConfig({ TENSORBOARD_IDLE_MINUTES: '0.5' }, cwd).tensorBoardIdleMinutes).toBe(0.5);
    expect(loadConfig({ TENSORBOARD_IDLE_MINUTES: '120' }, cwd).tensorBoardIdleMinutes).toBe(120);
  });

  it('refuses an idle time that is not a number greater than 0', () => {
    for (const bad of ['0', '-1', 'soon', 'Infinity']) {
      expect(() => loadConfig({ TENSORBOARD_IDLE_MINUTES: bad }, cwd)).toThrow(`TENSORBOARD_IDLE_MINUTES must be a number greater than 0, got "${bad}"`);
    }
  });
});

describe('loadConfig: data connections', () => {
  it('reads CONNECTION_ALLOW, the connect time-out and the import limits', () => {
    expect(loadConfig({})).toMatchObject({ connectionAllow: [], connectionTimeoutMs: 5000, importMaxRows: 10_000_000, importTimeoutMs: 30 * 60_000 });
    const c = loadConfig({ CONNECTION_ALLOW: ' 127.0.0.1/32, db.internal ,fd00::/8,', CONNECTION_TIMEOUT_SECONDS: '1.5', IMPORT_MAX_ROWS: '1000', IMPORT_TIMEOUT_MINUTES: '2' });
    expect(c).toMatchObject({ connectionAllow: ['127.0.0.1/32', 'db.internal', 'fd00::/8'], connectionTimeoutMs: 1500, importMaxRows: 1000, importTimeoutMs: 120_000 });
  });

  it('refuses a malformed CONNECTION_ALLOW entry at start-up', () => {
    for (const bad of ['127.0.0.1/33', '0x7f000001', 'not a host', '10.0.0.0/8/8']) {
      expect(() => loadConfig({ CONNECTION_ALLOW: bad })).toThrow(/CONNECTION_ALLOW/);
    }
    expect(() => loadConfig({ CONNECTION_TIMEOUT_SECONDS: '0' })).toThrow(/CONNECTION_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ IMPORT_MAX_ROWS: '-1' })).toThrow(/IMPORT_MAX_ROWS/);
  });
});
