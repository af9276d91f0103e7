/**
 * The data worker (`workers/data`: checks, first rows, types and statistics of a local csv,
 * npz or h5 file before upload) as an SDK service, so that plugins neither construct the worker
 * from its source URL nor depend on the workers' package (plugins may import only the SDK and
 * the domain). What the worker answers is defined once in `@decisio/domain` (`DataFileInspection`,
 * `DataFileStats`, ...), which the worker's package (`@decisio/worker-data`) shares; the SDK
 * re-exports those types.
 *
 * {@link browserDataWorkers} starts a module worker that Vite bundles with the app; the
 * workbench may provide another implementation under {@link dataWorkerServiceRef}, and tests
 * (jsdom has no `Worker`) pass a stand-in.
 */
import { proxy, releaseProxy, wrap } from 'comlink';
import type { DataFileInspection, DataFileProgress, DataFileStats } from '@decisio/domain';
import { createServiceRef } from './services';

export type {
  DataFileArray,
  DataFileArrayHead,
  DataFileCell,
  DataFileColumn,
  DataFileColumnKind,
  DataFileColumnStats,
  DataFileInspection,
  DataFileIssue,
  DataFileIssueReason,
  DataFileKind,
  DataFileProgress,
  DataFileReviveLayout,
  DataFileStats,
} from '@decisio/domain';

/** One running data worker. Operations run one after another; call `dispose` when done. */
export interface DataWorkerSession {
  /** Checks a file against the upload rules and previews its first `rows` rows. */
  inspect(file: File, options?: { rows?: number }, onProgress?: (p: DataFileProgress) => void): Promise<DataFileInspection>;
  /** Statistics of every column over the whole file. */
  stats(file: File, onProgress?: (p: DataFileProgress) => void): Promise<DataFileStats>;
  /** Stops the worker. */
  dispose(): void;
}

/** Starts data workers. */
export interface DataWorkerService {
  /** Starts a worker; `warm` starts its engine (DuckDB-WASM) right away, in the background. */
  open(options?: { warm?: boolean }): DataWorkerSession;
}

/** Reference of the data-worker service (`useService` / `ctx.services`). */
export const dataWorkerServiceRef = createServiceRef<DataWorkerService>('workbench.data-worker');

/** The worker's side as seen through comlink (a subset of its `DataWorkerApi`). */
interface RemoteDataWorker {
  inspect(file: File, options?: { rows?: number }, onProgress?: (p: DataFileProgress) => void): Promise<DataFileInspection>;
  stats(file: File, onProgress?: (p: DataFileProgress) => void): Promise<DataFileStats>;
  warmUp(): Promise<{ engineMs: number }>;
}

/** The data worker of the browser app: a module worker bundled by Vite, spoken to through comlink. */
export const browserDataWorkers: DataWorkerService = {
  open(options = {}) {
    const worker = new Worker(new URL('../../workers/data/src/worker.ts', import.meta.url), { type: 'module', name: 'decisio-data' });
    const remote = wrap<RemoteDataWorker>(worker);
    if (options.warm) void remote.warmUp().catch(() => undefined);
    return {
      inspect: (file, opts, onProgress) => remote.inspect(file, opts, onProgress ? proxy(onProgress) : undefined),
      stats: (file, onProgress) => remote.stats(file, onProgress ? proxy(onProgress) : undefined),
      dispose() {
        remote[releaseProxy]();
        worker.terminate();
      },
    };
  },
};
