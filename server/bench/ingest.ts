/**
 * `npx tsx server/bench/ingest.ts [--size-mb=1024]`: server-side dataset ingest of a
 * generated csv (numeric and text columns) next to DuckDB's own `read_csv` of the same file in
 * the same run, both writing Parquet; the ratio is DuckDB's time over ours (goal >= 0.8).
 * (The upload over loopback is its own suite: `server/bench/upload.ts`.)
 * Prints one JSON line. `npm run bench -- ingest [--size-mb=N]`.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sqlString, withDuck } from '../src/modules/datasets/duck';
import { ingestCsv } from '../src/modules/datasets/ingest';
import { generateCsv } from './csv-file';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const sizeMb = Number(arg('size-mb', '1024'));

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'decisio-bench-ingest-'));
try {
  const csv = path.join(dir, 'data.csv');
  const rows = await generateCsv(csv, sizeMb * 1024 * 1024);
  const size = (await fsp.stat(csv)).size;

  // Warm the engine once (instance start, csv reader).
  await withDuck((c) => c.run(`SELECT count(*) FROM read_csv(${sqlString(csv)}) LIMIT 1`));

  const duck = await time(() =>
    withDuck((c) => c.run(`COPY (SELECT * FROM read_csv(${sqlString(csv)})) TO ${sqlString(path.join(dir, 'duck.parquet'))} (FORMAT parquet, COMPRESSION zstd)`)),
  );
  const ours = await time(() => ingestCsv(csv, path.join(dir, 'ours.parquet')));
  if (ours.value.rows !== rows) throw new Error(`ingest read ${ours.value.rows} rows, expected ${rows}`);
  console.log(
    JSON.stringify({
      bench: 'server-ingest-csv',
      value: Math.round(ours.ms),
      unit: 'ms',
      sizeMb: Math.round(size / 1024 / 1024),
      rows,
      throughputMBs: Math.round(size / 1024 / 1024 / (ours.ms / 1000)),
      baseline: 'duckdb read_csv -> parquet, same file, same run',
      baselineValue: Math.round(duck.ms),
      ratio: Number((duck.ms / ours.ms).toFixed(3)),
      goal: 0.8,
    }),
  );
} finally {
  await fsp.rm(dir, { recursive: true, force: true });
}
process.exit(0);
