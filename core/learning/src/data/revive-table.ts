/**
 * A REVIVE folder's data as a table of the graph's fields. REVIVE's own files name data after
 * the nodes: npz / h5 hold one `[N, dim]` array per node (`temperature`, `next_temperature`)
 * plus `index` (cumulative trajectory ends); its CSV names one column per node (`temperature`,
 * `next_temperature`, `node_0`, `node_1` for wider nodes) and carries the unnamed row-number
 * column pandas writes. The YAML names the fields (`obs_temp`). {@link reviveTable} maps one
 * onto the other: a column per field (`obs_temp`, and `next_obs_temp` when the file gives the
 * next value), `trajectory` and `step`, and reports what it did. An unnamed column is never
 * guessed at: the caller chooses to drop it or to keep it under a name.
 */
import type { DecisionGraph, GraphField } from '@decisio/domain';
import { LearningError } from '../errors';
import { analyseGraph } from '../graph/structure';
import { fromNdArrays, parseCsv, type RawTrajectories } from './raw';
import type { NdArray } from './npy';

/** Columns of the mapped table that are not fields. */
export const REVIVE_TRAJECTORY_FIELD = 'trajectory';
export const REVIVE_SEQUENCE_FIELD = 'step';

/** What to do with an unnamed (index) column of a CSV. */
export type IndexColumnChoice = 'drop' | { name: string };

/** How trajectories were found. */
export type TrajectorySource = 'index' | 'transitions' | 'indexColumn' | 'single';

/** What {@link reviveTable} did, for the person importing. */
export interface ReviveTableReport {
  rows: number;
  trajectories: number;
  trajectorySource: TrajectorySource;
  /** File column or array -> the field columns it became. */
  mapped: Array<{ from: string; to: string[] }>;
  /** File columns or arrays the graph does not use (left out). */
  unused: string[];
  /** The unnamed column and what was done with it; null when the file has none. */
  indexColumn: { position: number; action: 'drop' | 'named'; name?: string } | null;
  /** Continuous and discrete fields' bounds: the YAML's (kept) or, where it has none, the data's at training. */
  bounds: Array<{ field: string; node: string; min: number | null; max: number | null; from: 'yaml' | 'data' }>;
}

/** The mapped table: one numeric column per field, plus trajectory and step. */
export interface ReviveTable {
  kind: 'table';
  columns: Record<string, Float64Array>;
  /** Column order of the table (trajectory, step, the fields, then a named index column). */
  order: string[];
  trajectoryField: typeof REVIVE_TRAJECTORY_FIELD;
  sequenceField: typeof REVIVE_SEQUENCE_FIELD;
  report: ReviveTableReport;
}

/** The CSV has an unnamed column and no choice was given: drop it or name it. */
export interface IndexColumnQuestion {
  kind: 'indexColumn';
  position: number;
  /** Its first values, to help the choice. */
  sample: string[];
}

interface NodeColumns {
  node: string;
  fields: GraphField[];
}

/** Data nodes and learned outputs whose fields the table holds (history nodes come from their base). */
function nodeColumns(graph: DecisionGraph): NodeColumns[] {
  const s = analyseGraph(graph);
  const out: NodeColumns[] = [];
  for (const spec of s.nodes.values()) {
    if (spec.historyOf || spec.fields.length === 0) continue;
    out.push({ node: spec.name, fields: spec.fields });
  }
  return out;
}

/** Field column names of a node (`next_X` without fields of its own: `next_<field>`). */
function fieldColumnsOf(graph: DecisionGraph, nc: NodeColumns): string[] {
  const own = graph.nodes.find((n) => n.name === nc.node)?.fields.length ?? 0;
  return nc.fields.map((f) => (own === 0 && nc.node.startsWith('next_') ? `next_${f.name}` : f.name));
}

function boundsOf(graph: DecisionGraph): ReviveTableReport['bounds'] {
  const out: ReviveTableReport['bounds'] = [];
  for (const n of graph.nodes) {
    for (const f of n.fields) {
      if (f.dataType === 'category') continue;
      const min = f.min === undefined || f.min === '' ? null : Number(f.min);
      const max = f.max === undefined || f.max === '' ? null : Number(f.max);
      out.push({ field: f.name, node: n.name, min, max, from: min !== null && max !== null ? 'yaml' : 'data' });
    }
  }
  return out;
}

/** Trajectory ids and steps from cumulative ends. */
function idsFromEnds(ends: number[], n: number): { traj: Float64Array; step: Float64Array } {
  const traj = new Float64Array(n);
  const step = new Float64Array(n);
  let start = 0;
  ends.forEach((end, t) => {
    for (let r = start; r < end && r < n; r++) {
      traj[r] = t;
      step[r] = r - start;
    }
    start = end;
  });
  return { traj, step };
}

/**
 * Maps a REVIVE data file onto the graph's fields. `csv`: columns named after nodes
 * (`temperature`; `node_0`, `node_1` for a wider node), after fields, or `next_` of either; an
 * unnamed column needs `indexColumn` (else the answer is an {@link IndexColumnQuestion});
 * trajectories end where a provided `next_X` differs from the next row's `X`, or where a kept
 * index column starts again, else the file is one trajectory. `npz` / `h5`: one array per node
 * and `index`. Throws `LearningError` `data.missingNode` (a node with neither a column nor an
 * array, unless the engine can build it: `next_X`, functions), `data.wrongDims`,
 * `data.csvFormat`, `data.notNumeric`.
 */
export function reviveTable(graph: DecisionGraph, file: { kind: 'csv'; text: string } | { kind: 'arrays'; arrays: Record<string, NdArray> }, options: { indexColumn?: IndexColumnChoice } = {}): ReviveTable | IndexColumnQuestion {
  const nodes = nodeColumns(graph);
  const s = analyseGraph(graph);
  const columns: Record<string, Float64Array> = {};
  const order: string[] = [];
  const mapped: ReviveTableReport['mapped'] = [];
  const used = new Set<string>();
  let n = 0;
  let indexReport: ReviveTableReport['indexColumn'] = null;
  let ends: number[] | null = null;
  let indexValues: Float64Array | null = null;
  let source: TrajectorySource = 'single';
  let available: string[];

  const put = (from: string, to: string[], rows: number, value: (r: number, j: number) => number) => {
    to.forEach((name, j) => {
      const col = new Float64Array(rows);
      for (let r = 0; r < rows; r++) col[r] = value(r, j);
      columns[name] = col;
    });
    mapped.push({ from, to });
    used.add(from);
  };

  if (file.kind === 'csv') {
    const t = parseCsv(file.text);
    n = t.rows;
    available = t.header;
    const unnamed = t.header.findIndex((h) => h === '' || /^Unnamed: \d+$/.test(h));
    if (unnamed >= 0) {
      const choice = options.indexColumn;
      const header = t.header[unnamed]!;
      if (!choice) return { kind: 'indexColumn', position: unnamed, sample: t.columns[header]!.slice(0, 5) };
      used.add(header);
      if (choice === 'drop') indexReport = { position: unnamed, action: 'drop' };
      else {
        const name = choice.name.trim();
        if (!name || t.header.includes(name)) throw new LearningError('data.csvFormat', { line: 1, detail: `the index column cannot be named "${name}"` });
        indexValues = numeric(t.columns[header]!, name);
        indexReport = { position: unnamed, action: 'named', name };
      }
    }
    const numericOf = (h: string) => numeric(t.columns[h]!, h);
    for (const nc of nodes) {
      const targets = fieldColumnsOf(graph, nc);
      const isNext = nc.node.startsWith('next_') && !graph.nodes.find((x) => x.name === nc.node)?.fields.length;
      // the fields by their own names (or next_<field>) are used as they are
      if (targets.every((c) => t.header.includes(c))) {
        for (const c of targets) {
          columns[c] = numericOf(c);
          used.add(c);
        }
        mapped.push({ from: targets.join(', '), to: targets });
        continue;
      }
      const byNode = nc.fields.length === 1 ? [nc.node] : nc.fields.map((_, j) => `${nc.node}_${j}`);
      if (byNode.every((c) => t.header.includes(c))) {
        const cols = byNode.map(numericOf);
        put(byNode.join(', '), targets, n, (r, j) => cols[j]![r]!);
        byNode.forEach((c) => used.add(c));
        continue;
      }
      const builtLater = isNext || s.nodes.get(nc.node)?.source === 'function' || s.nodes.get(nc.node)?.stateOf !== undefined;
      if (!builtLater) throw new LearningError('data.missingNode', { node: nc.node });
    }
  } else {
    const raw: RawTrajectories = fromNdArrays(file.arrays);
    available = Object.keys(file.arrays);
    used.add('index');
    const first = Object.values(raw.arrays)[0];
    n = raw.index && raw.index.length > 0 ? raw.index[raw.index.length - 1]! : (first?.rows ?? 0);
    if (raw.index && raw.index.length > 0) {
      ends = raw.index;
      source = 'index';
    }
    for (const nc of nodes) {
      const targets = fieldColumnsOf(graph, nc);
      const m = raw.arrays[nc.node];
      if (!m) {
        const builtLater = (nc.node.startsWith('next_') && !graph.nodes.find((x) => x.name === nc.node)?.fields.length) || s.nodes.get(nc.node)?.source === 'function';
        if (!builtLater) throw new LearningError('data.missingNode', { node: nc.node });
        continue;
      }
      if (m.cols !== targets.length) throw new LearningError('data.wrongDims', { node: nc.node, got: m.cols, expected: targets.length });
      if (m.rows !== n) throw new LearningError('data.rowMismatch', { node: nc.node, got: m.rows, expected: n });
      put(nc.node, targets, n, (r, j) => m.data[r * m.cols + j]!);
    }
  }
  if (n === 0) throw new LearningError('data.empty');

  // trajectories of a csv: a provided next_X that is not the next row's X ends one; so does a
  // kept index column that starts again
  if (!ends) {
    const cut = new Uint8Array(n);
    let found = false;
    for (const [x] of s.transitions) {
      const xs = fieldColumnsOf(graph, { node: x, fields: s.nodes.get(x)!.fields });
      const nxs = xs.map((c) => `next_${c}`);
      if (!xs.every((c) => columns[c]) || !nxs.every((c) => columns[c])) continue;
      for (let r = 0; r + 1 < n; r++) {
        for (let j = 0; j < xs.length; j++) {
          const a = columns[nxs[j]!]![r]!;
          const b = columns[xs[j]!]![r + 1]!;
          if (Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(a), Math.abs(b))) {
            cut[r] = 1;
            found = true;
          }
        }
      }
    }
    if (found) source = 'transitions';
    if (indexValues) {
      for (let r = 0; r + 1 < n; r++) {
        if (!(indexValues[r + 1]! > indexValues[r]!)) {
          cut[r] = 1;
          if (!found) source = 'indexColumn';
        }
      }
    }
    ends = [];
    for (let r = 0; r < n; r++) if (cut[r] || r === n - 1) ends.push(r + 1);
  }
  const { traj, step } = idsFromEnds(ends, n);
  const table: Record<string, Float64Array> = { [REVIVE_TRAJECTORY_FIELD]: traj, [REVIVE_SEQUENCE_FIELD]: step };
  order.push(REVIVE_TRAJECTORY_FIELD, REVIVE_SEQUENCE_FIELD);
  for (const [k, v] of Object.entries(columns)) {
    table[k] = v;
    order.push(k);
  }
  if (indexValues && indexReport?.name) {
    table[indexReport.name] = indexValues;
    order.push(indexReport.name);
  }
  return {
    kind: 'table',
    columns: table,
    order,
    trajectoryField: REVIVE_TRAJECTORY_FIELD,
    sequenceField: REVIVE_SEQUENCE_FIELD,
    report: {
      rows: n,
      trajectories: ends.length,
      trajectorySource: source,
      mapped,
      unused: available.filter((a) => !used.has(a)),
      indexColumn: indexReport,
      bounds: boundsOf(graph),
    },
  };
}

function numeric(values: string[], column: string): Float64Array {
  const out = new Float64Array(values.length);
  for (let r = 0; r < values.length; r++) {
    const v = values[r]!.trim();
    const x = v === '' ? NaN : Number(v);
    if (v !== '' && Number.isNaN(x)) throw new LearningError('data.notNumeric', { column, value: v, row: r + 1 });
    out[r] = x;
  }
  return out;
}

/** The mapped table as CSV text (header in `order`; NaN as an empty cell). */
export function reviveTableCsv(t: ReviveTable): string {
  const lines = [t.order.join(',')];
  const cols = t.order.map((k) => t.columns[k]!);
  const n = cols[0]?.length ?? 0;
  for (let r = 0; r < n; r++) lines.push(cols.map((c) => (Number.isNaN(c[r]!) ? '' : String(c[r]))).join(','));
  return `${lines.join('\n')}\n`;
}

/** Whether a CSV header looks like REVIVE's own (node-named columns, not the YAML's fields). */
export function isReviveCsvHeader(graph: DecisionGraph, header: readonly string[]): boolean {
  const nodes = nodeColumns(graph);
  const hasFields = nodes.some((nc) => fieldColumnsOf(graph, nc).every((c) => header.includes(c)));
  const hasNodes = nodes.some((nc) => header.includes(nc.node) || header.includes(`${nc.node}_0`));
  return hasNodes && !hasFields;
}
