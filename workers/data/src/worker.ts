/**
 * The data worker's entry: exposes {@link DataWorkerApi} through comlink. DuckDB-WASM and
 * h5wasm start lazily on first use. Large results move as transferables (typed arrays of the
 * array previews; the upload stream).
 */
import { expose, transfer } from 'comlink';
import { compressFile } from './compress';
import { duckDbEngine, startDuckDb } from './duckdb-engine';
import { openH5InWorker } from './h5-open';
import { inspectFile, inspectTransferables, type DataDeps } from './inspect';
import { statsFile } from './stats';
import type { DataWorkerApi } from './types';

const deps: DataDeps = { csvEngine: duckDbEngine, openH5: openH5InWorker };

/** The object exposed to the main thread. */
export const dataWorkerApi: DataWorkerApi = {
  async inspect(file, options, onProgress) {
    const r = await inspectFile(file, options, deps, onProgress);
    return transfer(r, inspectTransferables(r));
  },
  stats(file, onProgress) {
    return statsFile(file, deps, onProgress);
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
