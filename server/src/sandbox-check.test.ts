import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { checkSandbox } from './sandbox-check';

function capture() {
  const lines: string[] = [];
  return { lines, logger: createLogger('info', (_level, line) => lines.push(line)) };
}

describe('checkSandbox (start-up)', () => {
  afterEach(() => {
    delete process.env['DECISIO_SANDBOX'];
  });

  it('is quiet where bubblewrap starts', async () => {
    const { lines, logger } = capture();
    await checkSandbox(logger);
    expect(lines).toEqual([]);
  });

  it('warns loudly under the unsafe-none opt-out', async () => {
    process.env['DECISIO_SANDBOX'] = 'unsafe-none';
    const { lines, logger } = capture();
    await checkSandbox(logger);
    expect(lines.join('\n')).toContain('WITHOUT the bubblewrap sandbox');
  });

  it('stops the start on an unknown value (a typo must not weaken isolation)', async () => {
    process.env['DECISIO_SANDBOX'] = 'off';
    await expect(checkSandbox(capture().logger)).rejects.toThrow(/DECISIO_SANDBOX/);
  });
});
