/**
 * New data for an environment update (`train/createTrainUpdate` with `datasetIds`): a table
 * such as the kept calls of a model service (`modeldeploy/createDatasetFromRecords`: columns
 * `decision_id`, `row`, `called_at`, the input fields as sent, `decision_<field>`,
 * `outcome_<field>`) mapped onto the columns of a decision graph, built into a data set, and
 * appended to the scheme's data set.
 *
 * - {@link mapUpdateTable}: graph column `f` from column `f`, else `decision_f`; `next_f` from
 *   `next_f`, else `outcome_f`. Rows missing a value the graph needs are dropped (counted).
 *   Trajectories by the correlation's trajectory field (ordered by its sequence, else datetime
 *   field) when the table has it, else each row is a one-step trajectory (keyed by
 *   `decision_id` and `row` when present).
 * - {@link mergeDatasets}: the rows of several data sets of one graph as one data set, with the
 *   codecs (normalisation) computed over all of them exactly as `buildDataset` computes them over
 *   one table, so that an environment and whatever later rolls it (policy training, deductions)
 *   scale the same way.
 *
 * Pure functions: the job (`engine/kinds.ts`) and `loadVenv` (`engine/data.ts`) read the tables.
 */
import { NEXT_PREFIX, type DecisionGraph } from '@decisio/domain';
import { Dataset, analyseGraph, buildDataset, codecFromRows, encodeRows, fromTable, type NodeCodec, type TableColumns, type TableOptions } from '@decisio/learning';
import type { Correlation } from './data';

/** A column a graph reads from a table (as `fromTable` looks it up). */
export interface GraphColumn {
  column: string;
  node: string;
  /** A `next_X` column of a node that inherits its state's fields (built by shifting when absent). */
  inheritedNext: boolean;
  /** Of a function node (computed when absent). */
  fn: boolean;
}

/** The columns `fromTable` reads for the nodes of `graph`. */
export function graphColumns(graph: DecisionGraph): GraphColumn[] {
  const out: GraphColumn[] = [];
  for (const spec of analyseGraph(graph).nodes.values()) {
    if (spec.historyOf) continue; // built from its base node's frames
    const own = spec.node.fields.length > 0;
    const inheritedNext = !own && spec.name.startsWith(NEXT_PREFIX);
    for (const f of spec.fields) out.push({ column: inheritedNext ? `${NEXT_PREFIX}${f.name}` : f.name, node: spec.name, inheritedNext, fn: spec.source === 'function' });
  }
  return out;
}

/** The table column that gives graph column `column`: itself, else `decision_f` / `outcome_f` for `next_f`. */
export function sourceColumn(column: string, table: TableColumns): string | undefined {
  if (column in table) return column;
  const alias = column.startsWith(NEXT_PREFIX) ? `outcome_${column.slice(NEXT_PREFIX.length)}` : `decision_${column}`;
  return alias in table ? alias : undefined;
}

/** What {@link mapUpdateTable} made of a table. */
export interface MappedUpdateTable {
  /** Graph columns (and ordering columns) of the kept rows. */
  table: TableColumns;
  options: TableOptions;
  /** Rows of the table. */
  rows: number;
  /** Rows kept. */
  kept: number;
  /** Rows dropped for a missing value the graph needs. */
  dropped: number;
  /** Graph columns needed that the table has under no name (every row dropped). */
  missing: string[];
  /** Each row a one-step trajectory (the table has no trajectory field). */
  oneStep: boolean;
}

/** The column of the one-step trajectories' keys (not a column name a dataset can have). */
export const STEP_KEY = '#update-step';

const missingCell = (v: unknown): boolean =>
  v === null || v === undefined || v === '' || (typeof v === 'number' && Number.isNaN(v)) || (typeof v === 'string' && /^(nan|null|na)$/i.test(v.trim()));

/**
 * Maps `table` onto the columns of `graph` (see the module comment). `baseColumns` are the
 * columns of the scheme's processed table: a graph column the scheme has is needed here too
 * (so both give the same nodes), except an inherited `next_` column of a table with
 * trajectories (built by shifting, as for the scheme); a one-step table needs every inherited
 * `next_` column (there is no next row to shift from), and any graph column it has.
 */
export function mapUpdateTable(graph: DecisionGraph, table: TableColumns, c: Pick<Correlation, 'trajectoryField' | 'sequenceField' | 'datetimeField'>, baseColumns: readonly string[]): MappedUpdateTable {
  const names = Object.keys(table);
  const n = names.length === 0 ? 0 : table[names[0]!]!.length;
  const base = new Set(baseColumns);
  const oneStep = !(c.trajectoryField && c.trajectoryField in table);
  const source: TableColumns = {};
  const required: string[] = [];
  const missing: string[] = [];
  for (const g of graphColumns(graph)) {
    const from = sourceColumn(g.column, table);
    if (from) source[g.column] = table[from]!;
    const needed = from !== undefined || (g.inheritedNext ? oneStep : base.has(g.column));
    if (!needed) continue;
    required.push(g.column);
    if (!from) missing.push(g.column);
  }
  const options: TableOptions = {};
  if (!oneStep) {
    options.trajectoryField = c.trajectoryField;
    source[c.trajectoryField] = table[c.trajectoryField]!;
    if (c.sequenceField && c.sequenceField in table) {
      options.sequenceField = c.sequenceField;
      source[c.sequenceField] = table[c.sequenceField]!;
    } else if (c.datetimeField && c.datetimeField in table) {
      options.datetimeField = c.datetimeField;
      source[c.datetimeField] = table[c.datetimeField]!;
    }
  } else {
    const id = table['decision_id'];
    const row = table['row'];
    source[STEP_KEY] = Array.from({ length: n }, (_, i) => (id ? `${String(id[i] ?? '')}#${row ? String(row[i] ?? '') : i}` : String(i)));
    options.trajectoryField = STEP_KEY;
  }
  const keep: number[] = [];
  if (missing.length === 0) {
    for (let r = 0; r < n; r++) if (!required.some((col) => missingCell(source[col]![r]))) keep.push(r);
  }
  const out: TableColumns = {};
  for (const [k, v] of Object.entries(source)) out[k] = keep.map((r) => v[r]);
  return { table: out, options, rows: n, kept: keep.length, dropped: n - keep.length, missing, oneStep };
}

/** The data set of a mapped table, or null when no row was kept. */
export function updateDataset(graph: DecisionGraph, mapped: MappedUpdateTable): Dataset | null {
  if (mapped.kept === 0) return null;
  return buildDataset(graph, fromTable(graph, mapped.table, mapped.options));
}

/**
 * The trajectories of `base` followed by those of each of `extras` (data sets of the same graph)
 * as one data set; codecs recomputed over all rows as `buildDataset` does (bounds from the data
 * where the graph gives none; a `next_X` shares its state's codec). No extras: `base` itself.
 * Throws when an extra data set lacks a node of `base` or has one `base` has not.
 */
export function mergeDatasets(base: Dataset, extras: readonly Dataset[]): Dataset {
  if (extras.length === 0) return base;
  const nodes = base.nodes;
  for (const e of extras) {
    const extra = e.nodes.filter((x) => !nodes.includes(x));
    const lacking = nodes.filter((x) => !e.nodes.includes(x));
    if (extra.length > 0 || lacking.length > 0) {
      throw new Error(`The new data does not fit the scheme's data: ${lacking.length ? `missing ${lacking.join(', ')}` : ''}${lacking.length && extra.length ? '; ' : ''}${extra.length ? `extra ${extra.join(', ')}` : ''}`);
    }
  }
  const all = [base, ...extras];
  const rows = all.reduce((s, d) => s + d.rows, 0);
  const trajectories = all.reduce((s, d) => s + d.trajectoryCount, 0);
  const starts = new Int32Array(trajectories);
  const ends = new Int32Array(trajectories);
  let t = 0;
  let offset = 0;
  for (const d of all) {
    for (let k = 0; k < d.trajectoryCount; k++, t++) {
      starts[t] = offset + d.starts[k]!;
      ends[t] = offset + d.ends[k]!;
    }
    offset += d.rows;
  }
  const s = base.structure;
  const raw: Record<string, Float32Array> = {};
  const codecs: Record<string, NodeCodec> = { ...base.codecs };
  for (const name of nodes) {
    const dim = base.codecs[name]!.dim;
    const r32 = new Float32Array(rows * dim);
    let at = 0;
    for (const d of all) {
      r32.set(d.raw[name]!.subarray(0, d.rows * dim), at);
      at += d.rows * dim;
    }
    raw[name] = r32;
    codecs[name] = codecFromRows(name, s.nodes.get(name)!, r32, rows);
  }
  for (const [x, nx] of s.transitions) if (codecs[x] && codecs[nx]) codecs[nx] = { ...codecs[x]!, name: nx };
  const scaled: Record<string, Float32Array> = {};
  for (const name of nodes) scaled[name] = encodeRows(codecs[name]!, raw[name]!, rows);
  const done = new Uint8Array(rows);
  for (const e of ends) if (e > 0) done[e - 1] = 1;
  return new Dataset(s, nodes, starts, ends, raw, scaled, codecs, done, { ...base.report, rows, trajectories });
}
