/**
 * One entry point from a data file to a prepared {@link Dataset}: `.npz` and `.h5` hold one
 * `[N, dim]` array per node plus `index` (REVIVE layout); `.csv` is a table grouped by the
 * trajectory field and sorted by the sequence / datetime field.
 */
import type { DecisionGraph } from '@decisio/domain';
import { LearningError } from '../errors';
import { buildDataset, type BuildDatasetOptions, type Dataset } from './dataset';
import { readH5 } from './h5';
import { readNpz } from './npy';
import { fromNdArrays, fromTable, parseCsv, type RawTrajectories, type TableOptions } from './raw';
import { isReviveCsvHeader, reviveTable, type IndexColumnChoice, type ReviveTableReport } from './revive-table';

/** File kinds the loader reads (spec: csv, npz, h5). */
export type DataFileKind = 'npz' | 'h5' | 'csv';

/** Options of {@link loadDataset}. */
export interface LoadDatasetOptions extends BuildDatasetOptions, TableOptions {
  /** csv delimiter (default comma). */
  delimiter?: string;
  /** A REVIVE CSV's unnamed column (default: dropped). */
  reviveIndexColumn?: IndexColumnChoice;
  /** Told what was mapped when the csv is REVIVE's own (node-named columns). */
  onReviveTable?: (report: ReviveTableReport) => void;
}

/** Guesses the kind from a file name. */
export function dataFileKind(fileName: string): DataFileKind {
  const ext = fileName.toLowerCase().split('.').pop();
  if (ext === 'npz' || ext === 'csv') return ext;
  if (ext === 'h5' || ext === 'hdf5') return 'h5';
  throw new LearningError('data.zipFormat', { detail: `unsupported file type .${ext ?? ''}` });
}

/** Reads raw trajectories from file bytes. */
export async function readTrajectories(bytes: Uint8Array, kind: DataFileKind, graph: DecisionGraph, options: LoadDatasetOptions = {}): Promise<RawTrajectories> {
  if (kind === 'npz') return fromNdArrays(readNpz(bytes));
  if (kind === 'h5') return fromNdArrays(await readH5(bytes));
  const text = new TextDecoder().decode(bytes);
  const table = parseCsv(text, options.delimiter ?? ',');
  if ((options.delimiter ?? ',') === ',' && !options.trajectoryField && isReviveCsvHeader(graph, table.header)) {
    // REVIVE's own CSV: node-named columns and pandas' unnamed row number (dropped)
    const mapped = reviveTable(graph, { kind: 'csv', text }, { indexColumn: options.reviveIndexColumn ?? 'drop' });
    if (mapped.kind === 'table') {
      options.onReviveTable?.(mapped.report);
      return fromTable(graph, mapped.columns, { trajectoryField: mapped.trajectoryField, sequenceField: mapped.sequenceField });
    }
  }
  return fromTable(graph, table.columns, options);
}

/** Reads a data file and prepares it for a graph (see {@link buildDataset} for the errors). */
export async function loadDataset(bytes: Uint8Array, kind: DataFileKind, graph: DecisionGraph, options: LoadDatasetOptions = {}): Promise<Dataset> {
  return buildDataset(graph, await readTrajectories(bytes, kind, graph, options), options);
}
