/**
 * DuckDB-WASM as the {@link CsvEngine} of the data worker. The wasm modules and DuckDB's own
 * worker scripts are bundled with the app through Vite `?url` imports (no CDN); extension
 * autoloading is switched off so nothing is fetched at run time. Files are registered with
 * `BROWSER_FILEREADER`: DuckDB's worker reads the ranges it needs with FileReaderSync, so a
 * 2 GB File is never loaded whole.
 */
import {
  AsyncDuckDB,
  DuckDBDataProtocol,
  VoidLogger,
  selectBundle,
  type AsyncDuckDBConnection,
  type DuckDBBundles,
} from '@duckdb/duckdb-wasm';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import { CsvEngineError, type CsvEngine } from './csv-engine';
import { MISSING_TOKENS } from './csv-sniff';
import type { Cell, ColumnKind, ColumnSchema, ColumnStats } from './types';

const BUNDLES: DuckDBBundles = {
  mvp: { mainModule: mvpWasm, mainWorker: mvpWorker },
  eh: { mainModule: ehWasm, mainWorker: ehWorker },
};

/**
 * Files up to this size get exact distinct counts (`count(DISTINCT)`); larger ones DuckDB's
 * `approx_count_distinct`, whose HyperLogLog is coarse (errors of 10-25 % were seen) but needs
 * no memory per value. Exact counts keep every distinct value of every column in memory, and
 * wasm has 4 GB: 64 MB of csv stays well within it.
 */
export const EXACT_DISTINCT_MAX_BYTES = 64 * 1024 * 1024;

/** Listener of DuckDB's query progress (percent 0..100), set while a stats query runs. */
let progressListener: ((percent: number) => void) | null = null;

let started: Promise<{ db: AsyncDuckDB; conn: AsyncDuckDBConnection }> | null = null;
let fileCounter = 0;

/** Starts DuckDB once per worker (instantiate, open, offline settings). */
export function startDuckDb(): Promise<{ db: AsyncDuckDB; conn: AsyncDuckDBConnection }> {
  started ??= (async () => {
    const bundle = await selectBundle(BUNDLES);
    const worker = new Worker(bundle.mainWorker!);
    const db = new AsyncDuckDB(new VoidLogger(), worker);
    // DuckDB's worker posts PROGRESS_UPDATE messages while a query runs when the progress bar
    // is on; AsyncDuckDB keeps its handlers in a protected list.
    (db as unknown as { _onExecutionProgress: ((p: { percentage: string }) => void)[] })._onExecutionProgress.push((p) => {
      const percent = Number(p.percentage);
      if (progressListener && Number.isFinite(percent)) progressListener(percent);
    });
    await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
    await db.open({ query: { castBigIntToDouble: true, castDecimalToDouble: true } });
    const conn = await db.connect();
    await conn.query('SET autoinstall_known_extensions = false');
    await conn.query('SET autoload_known_extensions = false');
    await conn.query('SET enable_progress_bar = true');
    await conn.query('SET enable_progress_bar_print = true');
    await conn.query('SET progress_bar_time = 100');
    await warmCsvPaths(db, conn);
    return { db, conn };
  })();
  started.catch(() => {
    started = null;
  });
  return started;
}

/**
 * Runs the csv code paths on a small generated file: the first csv queries of a fresh
 * DuckDB-WASM are several times slower (wasm tier-up, lazy initialisation); measured, a 1 MiB
 * preview went from ~1.4 s cold to ~0.1 s warm.
 */
async function warmCsvPaths(db: AsyncDuckDB, conn: AsyncDuckDBConnection): Promise<void> {
  const name = 'decisio-warm-up.csv';
  const lines = ['i,f,s,b,d,t'];
  for (let i = 0; i < 5000; i += 1) {
    lines.push(`${i},${i % 7 === 0 ? 'NaN' : i / 8},"x, ${i % 13}",${i % 2 === 0},2024-01-${String((i % 28) + 1).padStart(2, '0')},2024-01-01 10:00:${String(i % 60).padStart(2, '0')}`);
  }
  await db.registerFileText(name, `${lines.join('\n')}\n`);
  try {
    const cols = await describe(conn, name);
    await conn.query(`SELECT ${cols.map((c) => `CAST(${ident(c.name)} AS VARCHAR)`).join(', ')} FROM ${readCsv(name)} LIMIT 10`);
    await conn.query(statsSql(name, cols, true));
  } finally {
    await db.dropFile(name).catch(() => undefined);
  }
}

/** SQL string literal. */
function lit(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** SQL identifier. */
function ident(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** Column kind of a DuckDB type name. */
export function kindOfDuckType(t: string): ColumnKind {
  const u = t.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/.test(u)) return 'integer';
  if (/^(FLOAT|DOUBLE|REAL)$/.test(u) || u.startsWith('DECIMAL')) return 'float';
  if (u === 'BOOLEAN') return 'boolean';
  if (u === 'DATE') return 'date';
  if (u.startsWith('TIMESTAMP')) return 'timestamp';
  if (u === 'NULL' || u === '"NULL"') return 'empty';
  return 'string';
}

const NULLSTR = [...MISSING_TOKENS].filter((t) => !/nan/i.test(t));

/**
 * `read_csv` call: comma only, RFC 4180 quotes (`""` inside quotes), a header, the usual
 * missing-value spellings as NULL, types sniffed by DuckDB on the first 20 480 rows. (Passing
 * the sniffed types back with `auto_detect=false, parallel=false` was measured: no faster on
 * large files, and it fails when a later value does not fit.)
 */
function readCsv(name: string): string {
  return `read_csv(${lit(name)}, delim=',', quote='"', escape='"', header=true, auto_detect=true, `
    + `nullstr=[${NULLSTR.map(lit).join(', ')}], sample_size=20480)`;
}

function num(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return v;
  const n = Number(v);
  return Number.isNaN(n) ? null : n;
}

async function withFile<T>(file: Blob, run: (conn: AsyncDuckDBConnection, name: string) => Promise<T>): Promise<T> {
  const { db, conn } = await startDuckDb();
  fileCounter += 1;
  const name = `decisio-${fileCounter}.csv`;
  await db.registerFileHandle(name, file, DuckDBDataProtocol.BROWSER_FILEREADER, true);
  try {
    return await run(conn, name);
  } catch (e) {
    throw new CsvEngineError(e instanceof Error ? e.message : String(e));
  } finally {
    await db.dropFile(name).catch(() => undefined);
  }
}

async function describe(conn: AsyncDuckDBConnection, name: string): Promise<{ name: string; type: string }[]> {
  const t = await conn.query(`DESCRIBE SELECT * FROM ${readCsv(name)}`);
  return t.toArray().map((r) => {
    const o = r.toJSON() as { column_name: string; column_type: string };
    return { name: o.column_name, type: o.column_type };
  });
}

/** One aggregate query computing every column's statistics in a single scan. */
function statsSql(name: string, cols: { name: string; type: string }[], exactDistinct: boolean): string {
  const parts: string[] = ['count(*) AS "n"'];
  cols.forEach((c, i) => {
    const id = ident(c.name);
    const k = kindOfDuckType(c.type);
    const isFloat = /^(FLOAT|DOUBLE|REAL)$/i.test(c.type);
    const keep = isFloat ? ` FILTER (WHERE NOT isnan(${id}))` : '';
    const numeric = k === 'integer' || k === 'float';
    parts.push(
      `count(${id}) AS c${i}`,
      isFloat ? `count_if(isnan(${id})) AS nan${i}` : `0 AS nan${i}`,
      numeric ? `CAST(min(${id})${keep} AS DOUBLE) AS lo${i}` : `CAST(min(${id}) AS VARCHAR) AS lo${i}`,
      numeric ? `CAST(max(${id})${keep} AS DOUBLE) AS hi${i}` : `CAST(max(${id}) AS VARCHAR) AS hi${i}`,
      numeric ? `avg(${id})${keep} AS mean${i}` : k === 'boolean' ? `avg(CAST(${id} AS INTEGER)) AS mean${i}` : `NULL AS mean${i}`,
      exactDistinct ? `count(DISTINCT ${id}) AS d${i}` : `approx_count_distinct(${id}) AS d${i}`,
    );
  });
  return `SELECT ${parts.join(', ')} FROM ${readCsv(name)}`;
}

/** The {@link CsvEngine} backed by DuckDB-WASM. */
export const duckDbEngine: CsvEngine = {
  async preview(file, rows) {
    return withFile(file, async (conn, name) => {
      const cols = await describe(conn, name);
      const select = cols.map((c) => {
        const k = kindOfDuckType(c.type);
        const id = ident(c.name);
        if (k === 'integer' || k === 'float') return `CAST(${id} AS DOUBLE)`;
        if (k === 'boolean') return id;
        return `CAST(${id} AS VARCHAR)`;
      });
      const t = await conn.query(`SELECT ${select.join(', ')} FROM ${readCsv(name)} LIMIT ${Math.floor(rows)}`);
      const vectors = cols.map((_, i) => t.getChildAt(i));
      const out: Cell[][] = [];
      for (let r = 0; r < t.numRows; r += 1) {
        out.push(vectors.map((v) => {
          const x: unknown = v?.get(r);
          if (x === null || x === undefined) return null;
          if (typeof x === 'bigint') return Number(x);
          return x as Cell;
        }));
      }
      const columns: ColumnSchema[] = cols.map((c, i) => {
        let missing = 0;
        let nan = 0;
        for (const row of out) {
          const x = row[i];
          if (x === null) missing += 1;
          else if (typeof x === 'number' && Number.isNaN(x)) {
            missing += 1;
            nan += 1;
          }
        }
        return { name: c.name, kind: kindOfDuckType(c.type), rawType: c.type, missing, nan };
      });
      return { columns, rows: out };
    });
  },

  async columns(file) {
    return withFile(file, async (conn, name) => (await describe(conn, name)).map((c) => ({ name: c.name, kind: kindOfDuckType(c.type), rawType: c.type })));
  },

  async stats(file, onPercent) {
    return withFile(file, async (conn, name) => {
      const cols = await describe(conn, name);
      const exact = file.size <= EXACT_DISTINCT_MAX_BYTES;
      progressListener = onPercent ?? null;
      const t = await conn.query(statsSql(name, cols, exact)).finally(() => {
        progressListener = null;
      });
      const row = (t.toArray()[0]?.toJSON() ?? {}) as Record<string, unknown>;
      const total = num(row.n) ?? 0;
      const columns: ColumnStats[] = cols.map((c, i) => {
        const nonNull = num(row[`c${i}`]) ?? 0;
        const nan = num(row[`nan${i}`]) ?? 0;
        const lo = row[`lo${i}`];
        const hi = row[`hi${i}`];
        const show = (v: unknown): number | string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : num(v));
        return {
          name: c.name,
          kind: kindOfDuckType(c.type),
          count: nonNull - nan,
          nulls: total - nonNull + nan,
          nan,
          min: show(lo),
          max: show(hi),
          mean: num(row[`mean${i}`]),
          distinct: num(row[`d${i}`]) ?? 0,
          distinctApprox: !exact,
        };
      });
      return { rows: total, columns };
    });
  },
};
