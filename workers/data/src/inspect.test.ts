import { describe, expect, it } from 'vitest';
import { fileOf } from '../test/fixtures';
import { inspectFile } from './inspect';
import type { CsvEngine } from './csv-engine';
import { CsvEngineError } from './csv-engine';

describe('inspectFile (csv, no engine)', () => {
  it('previews with the sniffer', async () => {
    const r = await inspectFile(fileOf('\uFEFFa,b\r\n1,x\r\n2,"y, z"\r\n', 'data.csv'), { rows: 1 });
    expect(r).toMatchObject({ ok: true, kind: 'csv', engine: 'sniffer', issues: [], rows: [[1, 'x']] });
    expect(r.columns?.map((c) => c.kind)).toEqual(['integer', 'string']);
  });

  it('collects name, type and content issues', async () => {
    const r = await inspectFile(fileOf('a;b\n1;2\n', 'bad#name.csv'));
    expect(r.ok).toBe(false);
    expect(r.issues.map((i) => [i.code, i.reason])).toEqual([
      ['tableParamError', 'nameChars'],
      ['tableFileFormatError', 'delimiter'],
    ]);
    expect((await inspectFile(fileOf('', 'e.csv'))).issues.map((i) => i.code)).toEqual(['datasetEmpty']);
    expect((await inspectFile(fileOf('x', 'e.xlsx'))).issues.map((i) => i.reason)).toEqual(['unknownType']);
  });

  it('reads more than the first MiB when rows are long', async () => {
    const wide = `${'x'.repeat(300_000)},1\n`;
    const r = await inspectFile(fileOf(`a,b\n${wide.repeat(8)}`, 'wide.csv'), { rows: 6 });
    expect(r.rows).toHaveLength(6);
  });

  it('hands the engine a prefix cut at a record boundary and reports its format errors', async () => {
    const seen: number[] = [];
    const engine: CsvEngine = {
      async preview(blob) {
        seen.push(blob.size);
        const text = await blob.text();
        if (!text.endsWith('\n')) throw new Error('cut record');
        throw new CsvEngineError('CSV Error on Line: 3');
      },
      async stats() {
        throw new Error('unused');
      },
    };
    const body = Array.from({ length: 200_000 }, (_, i) => `${i},"a\nb"`).join('\n');
    const file = fileOf(`id,t\n${body}\n`, 'big.csv');
    const r = await inspectFile(file, {}, { csvEngine: engine });
    expect(seen[0]).toBeLessThan(file.size);
    expect(r.issues[0]).toMatchObject({ code: 'tableFileFormatError', reason: 'parse', message: 'CSV Error on Line: 3' });
    expect(r.engine).toBe('sniffer');
  });
});
