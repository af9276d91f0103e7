import type { Knex } from 'knex';
import { AppError, messageOf, parseDecisionGraph, type DecisionGraph } from '@decisio/domain';
import { Generator } from '@decisio/compute';
import { VenvEnsemble, VirtualEnvironment, buildDataset, fromTable, parseCsv, splitDataset, type Dataset, type TableColumns } from '@decisio/learning';
import { loadDatasetTable } from '../../datasets/reader';
import type { BlobStore } from '../../storage/blob-store';
import { parseJson, type Row } from '../common';
import { joinTables, type JoinRelation, type JoinReport, type JoinTable } from './join';
import { mapUpdateTable, mergeDatasets, updateDataset } from './update-data';

/** The table correlation a solution stores (`solution/setTableCorrelation`). */
export interface Correlation {
  primaryTableId: string;
  datasetId?: string;
  trajectoryField: string;
  sequenceField: string;
  datetimeField?: string | undefined;
  /** How the other tables connect to the primary one (`from.fromField = to.toField`, table ids). */
  relations?: JoinRelation[];
}

/**
 * Reads a table by columns with its name: a dataset of the tenant (its columnar copy, through
 * `loadDatasetTable` of the datasets module), else an uploaded CSV file of the tenant
 * (`storage_files`, comma separated, parsed by the learning engine's CSV reader; its name
 * without `.csv`). Another tenant's table, or none: `tableNotFound` naming the id.
 */
export async function loadTable(knex: Knex, blobs: BlobStore, tenantId: string, tableId: string): Promise<JoinTable> {
  const dataset = await knex('datasets').where({ id: tableId, tenant_id: tenantId }).first('id', 'name');
  if (dataset) {
    const table = await loadDatasetTable(knex, blobs, tableId, { tenantId });
    return { id: tableId, name: String(dataset.name), columns: Object.fromEntries(table.columns.map((c) => [c.name, table.column(c.name)])) };
  }
  const file = await knex('storage_files').where({ id: tableId, tenant_id: tenantId }).whereNull('deleted_at').first('blob_key', 'name');
  if (!file) throw new AppError('tableNotFound', { table: tableId }, `${messageOf('tableNotFound', 'en-US')}: table ${tableId}`);
  const text = (await blobs.get(file.blob_key as string)).toString('utf8');
  return { id: tableId, name: String(file.name).replace(/\.csv$/i, ''), columns: parseCsv(text, ',').columns };
}

/** The columns of a table (see {@link loadTable}). */
export async function loadTableColumns(knex: Knex, blobs: BlobStore, tenantId: string, tableId: string): Promise<TableColumns> {
  return (await loadTable(knex, blobs, tenantId, tableId)).columns;
}

/**
 * The table of a correlation: its primary table (`datasetId`, else `primaryTableId`) left-joined
 * with every table its relations name (`joinTables` of `./join`: many-to-one lookups, clashing
 * columns prefixed with the table's name). Every table is read for `tenantId` (`tableNotFound`
 * otherwise). `log` gets one line per step (`reading table ...`, `join: ...`) and a `warn` line
 * for a related table no row matched.
 */
export async function loadCorrelationTable(
  knex: Knex,
  blobs: BlobStore,
  tenantId: string,
  c: Correlation,
  log: (line: string, level?: 'info' | 'warn') => Promise<unknown> = async () => undefined,
): Promise<{ table: TableColumns; report: JoinReport }> {
  const primaryId = c.datasetId ?? c.primaryTableId;
  const primaryIds = new Set([primaryId, c.primaryTableId]);
  const relations = Array.isArray(c.relations) ? c.relations : [];
  await log(`reading table ${primaryId}`);
  const primary = await loadTable(knex, blobs, tenantId, primaryId);
  const others: JoinTable[] = [];
  for (const r of relations) {
    for (const id of [r.from, r.to]) {
      if (!id || primaryIds.has(id) || others.some((t) => t.id === id)) continue;
      await log(`reading related table ${id}`);
      others.push(await loadTable(knex, blobs, tenantId, id));
    }
  }
  const joined = joinTables(primary, others, relations, [...primaryIds]);
  for (const s of joined.report.steps) {
    const renamed = Object.entries(s.renamed).map(([from, to]) => `${from} -> ${to}`);
    await log(`join: "${s.name}" (${s.rows} rows) on ${s.on.join(' and ')}: ${s.matched} of ${joined.report.rows} rows matched${renamed.length ? `; renamed ${renamed.join(', ')}` : ''}`);
    if (s.matched === 0 && joined.report.rows > 0) await log(`join: no row of "${s.name}" matched; its columns are empty (check the relation's key columns)`, 'warn');
  }
  return joined;
}

/** The columns a graph reads from a table (fields, `next_` fields) plus the ordering fields and `extra` ones. */
export function neededColumns(graph: DecisionGraph, table: TableColumns, c: Correlation, extra: readonly string[] = []): TableColumns {
  const keep = new Set<string>([c.trajectoryField, c.sequenceField, ...(c.datetimeField ? [c.datetimeField] : []), ...extra]);
  for (const n of graph.nodes) for (const f of n.fields ?? []) {
    keep.add(f.name);
    keep.add(`next_${f.name}`);
  }
  const out: TableColumns = {};
  for (const [k, v] of Object.entries(table)) if (keep.has(k)) out[k] = v;
  return out;
}

/** Table -> data set for the graph, with the correlation's ordering fields. */
export function datasetOf(graph: DecisionGraph, table: TableColumns, c: Correlation): Dataset {
  const opts: { trajectoryField?: string; sequenceField?: string; datetimeField?: string } = {};
  if (c.trajectoryField in table) opts.trajectoryField = c.trajectoryField;
  if (c.sequenceField in table) opts.sequenceField = c.sequenceField;
  else if (c.datetimeField && c.datetimeField in table) opts.datetimeField = c.datetimeField;
  return buildDataset(graph, fromTable(graph, table, opts));
}

/** The graph and processed table of a scheme, ready for training (with the table's columns and the correlation). */
export async function schemeData(
  knex: Knex,
  blobs: BlobStore,
  schemeId: string,
): Promise<{ graph: DecisionGraph; dataset: Dataset; scheme: Row; correlation: Correlation; columns: string[] }> {
  const scheme = await knex('schemes').where({ id: schemeId }).first();
  if (!scheme) throw new Error('The scheme was deleted');
  if (!scheme.processed_key) throw new Error('The scheme has no processed data');
  const pattern = await knex('modelling_patterns').where({ solution_id: scheme.solution_id }).first();
  const processed = parseJson<{ graph: unknown; correlation: Correlation; columns: TableColumns }>((await blobs.get(scheme.processed_key)).toString('utf8'), null as never);
  const graph = parseDecisionGraph(processed.graph ?? parseJson(pattern?.graph, null));
  return { graph, dataset: datasetOf(graph, processed.columns, processed.correlation), scheme, correlation: processed.correlation, columns: Object.keys(processed.columns) };
}

/** What one table added to an environment's data (see {@link environmentData}). */
export interface AddedData {
  datasetId: string;
  rows: number;
  kept: number;
  dropped: number;
  missing: string[];
}

/**
 * The data an environment trains on: its scheme's data set, followed by the rows of each of
 * `extraDatasetIds` (datasets of `tenantId`, read with {@link loadTable}; an environment
 * update's new data, such as a model service's kept calls) mapped onto the graph and appended
 * (`engine/update-data.ts`). `log` gets one line per table: `update data: N rows from dataset D
 * (M dropped)`, and a warning naming the graph columns a table lacks. No extra dataset: the
 * scheme's data set as it always was.
 */
export async function environmentData(
  knex: Knex,
  blobs: BlobStore,
  tenantId: string,
  schemeId: string,
  extraDatasetIds: readonly string[] = [],
  log: (line: string, level?: 'info' | 'warn') => Promise<unknown> = async () => undefined,
): Promise<{ graph: DecisionGraph; dataset: Dataset; scheme: Row; added: AddedData[] }> {
  const data = await schemeData(knex, blobs, schemeId);
  const added: AddedData[] = [];
  const extras: Dataset[] = [];
  for (const id of extraDatasetIds) {
    const mapped = mapUpdateTable(data.graph, await loadTableColumns(knex, blobs, tenantId, id), data.correlation, data.columns);
    if (mapped.missing.length > 0) await log(`update data: dataset ${id} has no column for ${mapped.missing.join(', ')} (nor decision_/outcome_ ones)`, 'warn');
    const ds = updateDataset(data.graph, mapped);
    const kept = ds?.rows ?? 0;
    // Rows dropped here or while building (e.g. a trajectory's last step when next values are shifted).
    added.push({ datasetId: id, rows: kept, kept: mapped.kept, dropped: mapped.rows - kept, missing: mapped.missing });
    await log(`update data: ${kept} rows from dataset ${id} (${mapped.rows - kept} dropped)`);
    if (ds) extras.push(ds);
  }
  return { graph: data.graph, dataset: mergeDatasets(data.dataset, extras), scheme: data.scheme, added };
}

/** What an environment training stores (`venv.json` under the simulator's artifact key). */
export interface VenvArtifact {
  format: 'decisio.venv';
  algorithm: 'bc' | 'revive_p' | 'revive_t';
  seed: number;
  hidden: number[];
  schemeId: string;
  /** Member 0's held-out score (the environment's score; the one deductions reproduce). */
  score: number | null;
  /** Member 0's weights: the environment (the only weights of a single-model training and of older artefacts). */
  weights: Record<string, Record<string, number[]>>;
  /**
   * An ensemble training (`engine/ensemble.ts`): the weights of members 1 .. k-1, trained on
   * the same split as member 0 (`seed`) and rebuilt the same way. Absent for a single model
   * and in artefacts of older trainings: readers that ignore it see member 0 alone.
   */
  members?: Array<Record<string, Record<string, number[]>>>;
  /** The members' held-out scores, member 0 first (an ensemble training). */
  memberScores?: Array<number | null>;
  /**
   * Datasets whose rows were appended to the scheme's data for this training (an environment
   * update with `datasetIds`); whoever rebuilds the environment rebuilds the same data
   * ({@link environmentData}). Absent in artefacts of older trainings: the scheme's data alone.
   */
  extraDatasetIds?: string[];
  /** The job that trained these weights (a policy notes the environment it trained in). Absent in older artefacts. */
  jobId?: string;
}

/**
 * Rebuilds a trained environment over the data it was trained on: its scheme's data plus the
 * artefact's `extraDatasetIds` (read for the simulator's tenant), so normalisation and rollout
 * start states are those of its training. Reads the simulator's current artefact: after an
 * environment update, everything that loads it (policy trainings and their updates, parameter
 * searches, deductions) uses the updated environment. `venv` is member 0 (the environment);
 * `ensemble` (every member, member 0 first, on the same split) only when the artefact holds
 * more than one member: policy trainings use it, everything else uses `venv`.
 */
export async function loadVenv(
  knex: Knex,
  blobs: BlobStore,
  simulator: Row,
): Promise<{ venv: VirtualEnvironment; ensemble: VenvEnsemble | undefined; dataset: Dataset; graph: DecisionGraph; artifact: VenvArtifact }> {
  if (!simulator.artifact_key) throw new Error('The environment has not finished training');
  const artifact = JSON.parse((await blobs.get(`${simulator.artifact_key}/venv.json`)).toString('utf8')) as VenvArtifact;
  const { graph, dataset } = await environmentData(knex, blobs, String(simulator.tenant_id), artifact.schemeId, Array.isArray(artifact.extraDatasetIds) ? artifact.extraDatasetIds : []);
  const split = splitDataset(dataset, { seed: artifact.seed, validationFraction: 0.2 });
  const build = (weights: VenvArtifact['weights'], i: number) => {
    const v = new VirtualEnvironment(split.train, { hidden: artifact.hidden }, new Generator(artifact.seed + 1000 * i));
    v.loadWeights(weights);
    return v;
  };
  const venv = build(artifact.weights, 0);
  const others = Array.isArray(artifact.members) ? artifact.members : [];
  const ensemble = others.length > 0 ? new VenvEnsemble([venv, ...others.map((w, i) => build(w, i + 1))]) : undefined;
  return { venv, ensemble, dataset, graph, artifact };
}
