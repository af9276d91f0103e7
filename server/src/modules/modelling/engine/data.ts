import type { Knex } from 'knex';
import { parseDecisionGraph, type DecisionGraph } from '@decisio/domain';
import { Generator } from '@decisio/compute';
import { VirtualEnvironment, buildDataset, fromTable, parseCsv, splitDataset, type Dataset, type TableColumns } from '@decisio/learning';
import { loadDatasetTable } from '../../datasets/reader';
import type { BlobStore } from '../../storage/blob-store';
import { parseJson, type Row } from '../common';

/** The table correlation a solution stores (`solution/setTableCorrelation`). */
export interface Correlation {
  primaryTableId: string;
  datasetId?: string;
  trajectoryField: string;
  sequenceField: string;
  datetimeField: string;
}

/**
 * Reads a table by columns: a dataset of the tenant (its columnar copy, through
 * `loadDatasetTable` of the datasets module), else an uploaded CSV file of the tenant
 * (`storage_files`, comma separated, parsed by the learning engine's CSV reader).
 */
export async function loadTableColumns(knex: Knex, blobs: BlobStore, tenantId: string, tableId: string): Promise<TableColumns> {
  if (await knex('datasets').where({ id: tableId, tenant_id: tenantId }).first('id')) {
    const table = await loadDatasetTable(knex, blobs, tableId, { tenantId });
    return Object.fromEntries(table.columns.map((c) => [c.name, table.column(c.name)]));
  }
  const file = await knex('storage_files').where({ id: tableId, tenant_id: tenantId }).whereNull('deleted_at').first('blob_key');
  if (!file) throw new Error(`table ${tableId} not found`);
  const text = (await blobs.get(file.blob_key as string)).toString('utf8');
  return parseCsv(text, ',').columns;
}

/** The columns a graph reads from a table (fields, `next_` fields) plus the ordering fields and `extra` ones. */
export function neededColumns(graph: DecisionGraph, table: TableColumns, c: Correlation, extra: readonly string[] = []): TableColumns {
  const keep = new Set<string>([c.trajectoryField, c.sequenceField, c.datetimeField, ...extra]);
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
  else if (c.datetimeField in table) opts.datetimeField = c.datetimeField;
  return buildDataset(graph, fromTable(graph, table, opts));
}

/** The graph and processed table of a scheme, ready for training. */
export async function schemeData(knex: Knex, blobs: BlobStore, schemeId: string): Promise<{ graph: DecisionGraph; dataset: Dataset; scheme: Row }> {
  const scheme = await knex('schemes').where({ id: schemeId }).first();
  if (!scheme) throw new Error('The scheme was deleted');
  if (!scheme.processed_key) throw new Error('The scheme has no processed data');
  const pattern = await knex('modelling_patterns').where({ solution_id: scheme.solution_id }).first();
  const processed = parseJson<{ graph: unknown; correlation: Correlation; columns: TableColumns }>((await blobs.get(scheme.processed_key)).toString('utf8'), null as never);
  const graph = parseDecisionGraph(processed.graph ?? parseJson(pattern?.graph, null));
  return { graph, dataset: datasetOf(graph, processed.columns, processed.correlation), scheme };
}

/** What an environment training stores (`venv.json` under the simulator's artifact key). */
export interface VenvArtifact {
  format: 'decisio.venv';
  algorithm: 'bc' | 'revive_p' | 'revive_t';
  seed: number;
  hidden: number[];
  schemeId: string;
  score: number | null;
  weights: Record<string, Record<string, number[]>>;
}

/** Rebuilds a trained environment over its scheme's data. */
export async function loadVenv(knex: Knex, blobs: BlobStore, simulator: Row): Promise<{ venv: VirtualEnvironment; dataset: Dataset; graph: DecisionGraph; artifact: VenvArtifact }> {
  if (!simulator.artifact_key) throw new Error('The environment has not finished training');
  const artifact = JSON.parse((await blobs.get(`${simulator.artifact_key}/venv.json`)).toString('utf8')) as VenvArtifact;
  const { graph, dataset } = await schemeData(knex, blobs, artifact.schemeId);
  const split = splitDataset(dataset, { seed: artifact.seed, validationFraction: 0.2 });
  const venv = new VirtualEnvironment(split.train, { hidden: artifact.hidden }, new Generator(artifact.seed));
  venv.loadWeights(artifact.weights);
  return { venv, dataset, graph, artifact };
}
