/**
 * The in-browser preview and checks of a local file before upload, done by the data worker
 * (`workers/data`: DuckDB-WASM, npz and h5 readers) through the SDK's data-worker service
 * (`dataWorkerServiceRef`, by default `browserDataWorkers`): the plugin no longer starts the
 * worker from its source URL.
 *
 * Tests (jsdom has no Worker) replace the factory with {@link setPreviewerFactory}.
 */
import {
  browserDataWorkers,
  type DataFileColumn,
  type DataFileColumnStats,
  type DataFileInspection,
  type DataFileIssue,
  type DataFileProgress,
  type DataFileStats,
  type DataWorkerService,
} from '@decisio/sdk-plugin';

/** One failed check (as the worker reports it). */
export type PreviewIssue = DataFileIssue;
/** A column of the preview. */
export type PreviewColumn = DataFileColumn;
/** What `inspect` answers (the parts shown here). */
export type PreviewResult = DataFileInspection;
/** Statistics of one column over the whole file. */
export type PreviewColumnStats = DataFileColumnStats;
/** What `stats` answers. */
export type PreviewStats = DataFileStats;
/** Progress of a worker operation. */
export type PreviewProgress = DataFileProgress;

/** The previewer the dialog uses. */
export interface Previewer {
  inspect(file: File, onProgress?: (p: PreviewProgress) => void): Promise<PreviewResult>;
  stats(file: File, onProgress?: (p: PreviewProgress) => void): Promise<PreviewStats>;
  dispose(): void;
}

/** Rows shown in the local preview. */
export const PREVIEW_ROWS = 50;

/** A previewer over a data worker of `service` (started warm: DuckDB starts while the user picks a file). */
function servicePreviewer(service: DataWorkerService): Previewer {
  const session = service.open({ warm: true });
  return {
    inspect: (file, onProgress) => session.inspect(file, { rows: PREVIEW_ROWS }, onProgress),
    stats: (file, onProgress) => session.stats(file, onProgress),
    dispose: () => session.dispose(),
  };
}

let factory: ((service: DataWorkerService) => Previewer) | null = null;

/** Starts a previewer on `service` (the workbench's, else the browser's data worker), unless a test replaced the factory. */
export function createPreviewer(service: DataWorkerService = browserDataWorkers): Previewer {
  return factory ? factory(service) : servicePreviewer(service);
}

/** Replaces the previewer factory (tests); returns a function restoring the worker. */
export function setPreviewerFactory(f: () => Previewer): () => void {
  factory = () => f();
  return () => {
    factory = null;
  };
}
