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
