/**
 * The data worker's entry: exposes {@link DataWorkerApi} through comlink. DuckDB-WASM and
 * h5wasm start lazily on first use. Large results move as transferables (typed arrays of the
 * array previews; the upload stream).
 */
import { expose, proxy, releaseProxy, transfer, wrap } from 'comlink';
import { blobSource } from './byte-source';
import { outcomeValue, type ScanColumn } from './csv-scan';
import { scanCsvInRanges, type RangeRunner } from './csv-scan-parallel';
import { compressFile } from './compress';
import { duckDbEngine, startDuckDb } from './duckdb-engine';
import { openH5InWorker } from './h5-open';
import { inspectFile, inspectTransferables, type DataDeps } from './inspect';
import { statsFile } from './stats';
import type { ScanWorkerApi } from './scan-worker';
import type { DataWorkerApi } from './types';

/** Scan workers at once: one per core, at most 4. */
const SCAN_PARTS = Math.max(1, Math.min(4, globalThis.navigator?.hardwareConcurrency || 2));

/** Scans one range in a fresh scan worker. */
const scanInWorker = (file: Blob, columns: ScanColumn[]): RangeRunner => async (range, onBytes) => {
  const worker = new Worker(new URL('./scan-worker.ts', import.meta.url), { type: 'module', name: 'decisio-scan' });
  const remote = wrap<ScanWorkerApi>(worker);
  try {
    return outcomeValue(await remote.scan(file, columns, range, proxy(onBytes)));
  } finally {
    remote[releaseProxy]();
    worker.terminate();
  }
};

const deps: DataDeps = {
  csvEngine: duckDbEngine,
  openH5: openH5InWorker,
  csvScan: (file, columns, onBytes) => {
    return scanCsvInRanges(blobSource(file), columns, { parts: SCAN_PARTS, run: scanInWorker(file, columns), onBytes });
  },
};

/** The object exposed to the main thread. */
export const dataWorkerApi: DataWorkerApi = {
  async inspect(file, options, onProgress) {
    const r = await inspectFile(file, options, deps, onProgress);
    return transfer(r, inspectTransferables(r));
  },
  stats(file, onProgress, options) {
    return statsFile(file, deps, onProgress, options);
  },
  async warmUp() {
    const t0 = performance.now();
    await startDuckDb();
    return { engineMs: performance.now() - t0 };
  },
  async compressStream(file, options) {
    const r = await compressFile(file, options);
    return transfer(r, [r.stream as unknown as Transferable]);
  },
};

expose(dataWorkerApi);
