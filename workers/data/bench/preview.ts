/**
 * Browser preview benchmark: generates a csv of `--size-mb` MB (numeric and text columns),
 * serves the test page and measures in headless Chromium, through the data worker:
 * - `browser-preview-first-rows`: `inspect` (checks + first 100 rows and types from DuckDB-WASM)
 *   with DuckDB already started (the workbench warms the worker when the upload dialog opens);
 * - `browser-preview-stats`: `stats` over the whole file (the byte scan in parallel scan workers),
 *   next to DuckDB-WASM's aggregate query over the same file in the same run (`--no-duckdb`
 *   leaves that baseline out);
 * - `browser-preview-engine-start`: starting DuckDB-WASM (wasm fetch + compile + open), once.
 * Prints one JSON line per measure. Run: `npm run bench -- preview --size-mb=1024`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeCsv } from '../test/csv-gen';
import { chooseFile, openHarness } from '../test/browser/harness';
import type { PageApi } from '../test/browser/main';

/** One benchmark result line. */
export interface BenchLine {
  bench: string;
  value: number;
  unit: 'ms';
  goal: number;
  sizeMb: number;
  [extra: string]: unknown;
}

type Win = { dataWorker: PageApi };

function roundAll(t: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)]));
}

/** Runs the benchmark, prints JSON lines and returns them. */
export async function benchPreview({ sizeMb, withDuckDb = true }: { sizeMb: number; withDuckDb?: boolean }): Promise<BenchLine[]> {
  const dir = mkdtempSync(join(tmpdir(), 'decisio-bench-preview-'));
  const lines: BenchLine[] = [];
  const emit = (l: BenchLine): void => {
    lines.push(l);
    console.log(JSON.stringify(l));
  };
  try {
    const csv = await writeCsv(join(dir, `bench-${sizeMb}mb.csv`), sizeMb * 1024 * 1024);
    const h = await openHarness();
    try {
      const warm = await h.page.evaluate(() => (window as unknown as Win).dataWorker.warmUp());
      emit({ bench: 'browser-preview-engine-start', value: Math.round(warm.wallMs), unit: 'ms', goal: 5000, sizeMb });
      await chooseFile(h.page, csv.path);
      const first = await h.page.evaluate(() => (window as unknown as Win).dataWorker.inspect(100));
      if (!first.ok || first.rows?.length !== 100) throw new Error(`inspect failed: ${JSON.stringify(first.issues)}`);
      emit({ bench: 'browser-preview-first-rows', value: Math.round(first.wallMs), unit: 'ms', goal: 1000, sizeMb, engine: first.engine, timings: roundAll(first.timings) });
      const stats = await h.page.evaluate(() => (window as unknown as Win).dataWorker.stats('scan'));
      if (!stats.ok || stats.rows !== csv.rows) throw new Error(`stats failed: rows ${stats.rows} of ${csv.rows}, ${JSON.stringify(stats.issues)}`);
      // Baseline in the same run: DuckDB-WASM's one aggregate query over the file (the engine used before).
      const duck = withDuckDb ? await h.page.evaluate(() => (window as unknown as Win).dataWorker.stats('duckdb')) : null;
      if (duck && (!duck.ok || duck.rows !== csv.rows)) throw new Error(`DuckDB stats failed: ${JSON.stringify(duck.issues)}`);
      emit({
        bench: 'browser-preview-stats',
        value: Math.round(stats.wallMs),
        unit: 'ms',
        goal: 10_000,
        sizeMb,
        rows: csv.rows,
        engine: stats.engine,
        cores: await h.page.evaluate(() => navigator.hardwareConcurrency),
        ...(duck ? { baseline: 'DuckDB-WASM aggregate query, same file, same run', baselineValue: Math.round(duck.wallMs), speedup: Number((duck.wallMs / stats.wallMs).toFixed(2)) } : {}),
      });
      const external = h.external();
      if (external.length > 0) throw new Error(`requests left 127.0.0.1: ${external.join(', ')}`);
    } finally {
      await h.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

function argValue(name: string): string | undefined {
  const eq = process.argv.find((a) => a.startsWith(`${name}=`));
  if (eq) return eq.slice(name.length + 1);
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizeMb = Number(argValue('--size-mb') ?? '256');
  if (!(sizeMb > 0)) throw new Error('--size-mb must be a positive number');
  await benchPreview({ sizeMb, withDuckDb: !process.argv.includes('--no-duckdb') });
}
