import { describe, expect, it } from 'vitest';
import type { DataFileInspection, DataWorkerService, DataWorkerSession } from '@decisio/sdk-plugin';
import { createPreviewer, PREVIEW_ROWS } from './preview';

describe('createPreviewer', () => {
  it('runs on the data-worker service it is given: a warm session, the preview rows, dispose', async () => {
    const calls: string[] = [];
    const inspection: DataFileInspection = { name: 'a.csv', size: 3, kind: 'csv', ok: true, issues: [], elapsedMs: 1, timings: {} };
    const service: DataWorkerService = {
      open(options) {
        calls.push(`open warm=${String(options?.warm)}`);
        const session: DataWorkerSession = {
          inspect: async (file, opts) => {
            calls.push(`inspect ${file.name} rows=${String(opts?.rows)}`);
            return inspection;
          },
          stats: async (file) => {
            calls.push(`stats ${file.name}`);
            return { name: file.name, kind: 'csv', ok: true, issues: [], rows: 1, columns: [], elapsedMs: 1 };
          },
          dispose: () => calls.push('dispose'),
        };
        return session;
      },
    };
    const p = createPreviewer(service);
    const file = new File(['a\n1\n'], 'a.csv');
    expect(await p.inspect(file)).toBe(inspection);
    expect((await p.stats(file)).rows).toBe(1);
    p.dispose();
    expect(calls).toEqual(['open warm=true', `inspect a.csv rows=${PREVIEW_ROWS}`, 'stats a.csv', 'dispose']);
  });
});
