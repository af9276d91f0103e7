/**
 * The in-browser preview and checks of a local file before upload, done by the data worker
 * (`workers/data`: DuckDB-WASM, npz and h5 readers, behind comlink). Plugins may not import the
 * workers' package (`decisio/boundaries`), and the SDK has no data-worker service yet, so the
 * worker is started here from its source URL (Vite bundles it as a module worker) and spoken to
 * through comlink with the structural types below, a subset of `DataWorkerApi`.
 *
 * Tests (jsdom has no Worker) replace the factory with {@link setPreviewerFactory}.
 */
import { proxy, releaseProxy, wrap } from 'comlink';
import type { ErrorCodeName } from '@decisio/domain';

/** One failed check (as the worker reports it). */
export interface PreviewIssue {
  code: ErrorCodeName;
  reason: string;
  message: string;
  fatal: boolean;
  details?: Record<string, unknown>;
}

/** A column of the preview. */
export interface PreviewColumn {
  name: string;
  kind: string;
  missing: number;
  nan: number;
}

/** What `inspect` answers (the parts shown here). */
export interface PreviewResult {
  name: string;
  size: number;
  kind: 'csv' | 'npz' | 'h5' | null;
  ok: boolean;
  issues: PreviewIssue[];
  columns?: PreviewColumn[];
  rows?: (string | number | boolean | null)[][];
  arrays?: { name: string; dtype: string; shape: number[] }[];
  elapsedMs: number;
}

/** Statistics of one column over the whole file. */
export interface PreviewColumnStats {
  name: string;
  kind: string;
  count: number;
  nulls: number;
  nan: number;
  min: number | string | null;
  max: number | string | null;
  mean: number | null;
  distinct: number;
  distinctApprox: boolean;
}

/** What `stats` answers. */
export interface PreviewStats {
  ok: boolean;
  issues: PreviewIssue[];
  rows: number | null;
  columns: PreviewColumnStats[];
  elapsedMs: number;
}

/** Progress of a worker operation. */
export interface PreviewProgress {
  phase: string;
  fraction: number | null;
}

/** The previewer the dialog uses. */
export interface Previewer {
  inspect(file: File, onProgress?: (p: PreviewProgress) => void): Promise<PreviewResult>;
  stats(file: File, onProgress?: (p: PreviewProgress) => void): Promise<PreviewStats>;
  dispose(): void;
}

interface WorkerApi {
  inspect(file: File, options?: { rows?: number }, onProgress?: (p: PreviewProgress) => void): Promise<PreviewResult>;
  stats(file: File, onProgress?: (p: PreviewProgress) => void): Promise<PreviewStats>;
  warmUp(): Promise<{ engineMs: number }>;
}

/** Rows shown in the local preview. */
export const PREVIEW_ROWS = 50;

function workerPreviewer(): Previewer {
  const worker = new Worker(new URL('../../workers/data/src/worker.ts', import.meta.url), { type: 'module', name: 'decisio-data' });
  const remote = wrap<WorkerApi>(worker);
  void remote.warmUp().catch(() => undefined);
  return {
    inspect: (file, onProgress) => remote.inspect(file, { rows: PREVIEW_ROWS }, onProgress ? proxy(onProgress) : undefined),
    stats: (file, onProgress) => remote.stats(file, onProgress ? proxy(onProgress) : undefined),
    dispose() {
      remote[releaseProxy]();
      worker.terminate();
    },
  };
}

let factory: () => Previewer = workerPreviewer;

/** Starts a previewer (the data worker, unless a test replaced the factory). */
export function createPreviewer(): Previewer {
  return factory();
}

/** Replaces the previewer factory (tests); returns a function restoring the worker. */
export function setPreviewerFactory(f: () => Previewer): () => void {
  factory = f;
  return () => {
    factory = workerPreviewer;
  };
}
