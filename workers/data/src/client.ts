/**
 * Main-thread side of the data worker. `createDataWorker()` starts the worker (bundled by Vite
 * as a module worker) and returns its typed comlink proxy with helpers that wrap progress
 * callbacks in `comlink.proxy`.
 */
import { proxy, releaseProxy, wrap, type Remote } from 'comlink';
import type {
  CompressOptions, CompressResult, DataWorkerApi, InspectOptions, InspectResult, ProgressCallback, StatsOptions, StatsResult } from './types';

/** A running data worker. Call {@link DataWorkerClient.terminate} when done. */
export interface DataWorkerClient {
  /** The raw comlink proxy (callbacks must be wrapped with `comlink.proxy`). */
  readonly remote: Remote<DataWorkerApi>;
  /** Checks and previews a local file; see `inspect.ts`. */
  inspect(file: File, options?: InspectOptions, onProgress?: ProgressCallback): Promise<InspectResult>;
  /** Column statistics over the whole file; see `stats.ts`. */
  stats(file: File, onProgress?: ProgressCallback, options?: StatsOptions): Promise<StatsResult>;
  /** Starts DuckDB ahead of the first file; see {@link DataWorkerApi.warmUp}. */
  warmUp(): Promise<{ engineMs: number }>;
  /** The stream to upload (gzip when it pays); see `compress.ts`. */
  compressStream(file: File, options?: CompressOptions): Promise<CompressResult>;
  /** Stops the worker (DuckDB's own worker ends with it). */
  terminate(): void;
}

/** Options of {@link createDataWorker}. */
export interface DataWorkerOptions {
  /** Start DuckDB right away (in the background) so the first preview is fast; default false. */
  warm?: boolean;
}

/**
 * Starts a data worker. One worker serves many files; operations on one worker run one after
 * another inside DuckDB, so a UI should not start a second `stats` while one runs.
 */
export function createDataWorker(options: DataWorkerOptions = {}): DataWorkerClient {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'decisio-data' });
  const remote = wrap<DataWorkerApi>(worker);
  if (options.warm) void remote.warmUp().catch(() => undefined);
  return {
    remote,
    warmUp: () => remote.warmUp(),
    inspect: (file, options, onProgress) => remote.inspect(file, options, onProgress ? proxy(onProgress) : undefined),
    stats: (file, onProgress, options) => remote.stats(file, onProgress ? proxy(onProgress) : undefined, options),
    compressStream: (file, options) => remote.compressStream(file, options),
    terminate() {
      remote[releaseProxy]();
      worker.terminate();
    },
  };
}
