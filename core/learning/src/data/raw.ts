/**
 * Raw trajectories before they meet a graph's field settings: one `[N, dim]` float64 matrix
 * per data key and REVIVE's `index` (cumulative end offsets of the trajectories). Sources:
 * `.npz` / `.h5` arrays, or tables (csv text or columns) grouped by a trajectory field and
 * sorted by a sequence and/or datetime field.
 */
import { NEXT_PREFIX, toNumber, type DecisionGraph, type GraphField } from '@decisio/domain';
import { LearningError } from '../errors';
import { analyseGraph } from '../graph/structure';
import { toFloat64, type NdArray } from './npy';

/** A row-major matrix. */
export interface Matrix {
  rows: number;
  cols: number;
  data: Float64Array;
}

/** Raw trajectories; see the module comment. `index` absent means one-step trajectories (REVIVE). */
export interface RawTrajectories {
  arrays: Record<string, Matrix>;
  index?: number[];
  /** Arrays that are not 1-D or 2-D, kept for error messages: key -> shape. */
  badShapes?: Record<string, number[]>;
}

/** Turns arrays read from `.npz` / `.h5` into raw trajectories (`index` taken out, 1-D arrays become `[N, 1]`). */
export function fromNdArrays(arrays: Record<string, NdArray>): RawTrajectories {
  const out: RawTrajectories = { arrays: {}, badShapes: {} };
  for (const [key, a] of Object.entries(arrays)) {
    if (key === 'index') {
      const v = toFloat64(a.data);
      if (a.shape.length > 2 || (a.shape.length === 2 && a.shape[1] !== 1))
        throw new LearningError('data.indexInvalid', { detail: `shape [${a.shape.join(', ')}]` });
      out.index = Array.from(v);
      continue;
    }
    if (a.shape.length === 2) out.arrays[key] = { rows: a.shape[0]!, cols: a.shape[1]!, data: toFloat64(a.data) };
    else if (a.shape.length === 1) out.arrays[key] = { rows: a.shape[0]!, cols: 1, data: toFloat64(a.data) };
    else out.badShapes![key] = a.shape;
  }
  return out;
}

/** Parsed csv: header and string columns. */
export interface CsvTable {
  header: string[];
  columns: Record<string, string[]>;
  rows: number;
}

/**
 * Parses csv text (RFC 4180: quoted fields, doubled quotes, CRLF or LF). Throws `data.csvFormat`
 * for a ragged row, an unterminated quote or duplicate column names.
 */
export function parseCsv(text: string, delimiter = ','): CsvTable {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let inQuotes = false;
  let line = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(field);
    field = '';
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
  };
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else inQuotes = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"' && field === '') inQuotes = true;
    else if (ch === delimiter) {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
    } else field += ch;
  }
  if (inQuotes) throw new LearningError('data.csvFormat', { line, detail: 'unterminated quote' });
  if (field !== '' || record.length > 0) endRecord();
  const header = (records.shift() ?? []).map((h) => h.trim());
  if (header.length === 0) throw new LearningError('data.empty');
  const seen = new Set<string>();
  for (const h of header) {
    if (seen.has(h)) throw new LearningError('data.csvFormat', { line: 1, detail: `duplicate column "${h}"` });
    seen.add(h);
  }
  const columns: Record<string, string[]> = Object.fromEntries(header.map((h) => [h, [] as string[]]));
  records.forEach((r, k) => {
    if (r.length !== header.length)
      throw new LearningError('data.csvFormat', { line: k + 2, detail: `${r.length} fields, header has ${header.length}` });
    header.forEach((h, j) => columns[h]!.push(r[j]!));
  });
  return { header, columns, rows: records.length };
}

/** How a table maps onto trajectories (spec workflow §2 data access). */
export interface TableOptions {
  /** Column naming the trajectory of each row; absent: the whole table is one trajectory. */
  trajectoryField?: string;
  /** Column ordering steps within a trajectory. */
  sequenceField?: string;
  /** Datetime column ordering steps (after the sequence field when both are given). */
  datetimeField?: string;
}

/** A table by columns (csv strings, numbers, booleans, dates or nulls). */
export type TableColumns = Record<string, ArrayLike<unknown>>;

/**
 * Builds raw trajectories from a table for the nodes of a graph: each node's fields are looked
 * up as columns by name (`next_X` nodes that inherit their fields look for `next_<column>`;
 * absent `next_X` nodes are built later by shifting). Rows are grouped by trajectory (in order
 * of first appearance) and sorted by sequence, then datetime. Missing cells become NaN.
 */
export function fromTable(graph: DecisionGraph, table: TableColumns, options: TableOptions = {}): RawTrajectories {
  const names = Object.keys(table);
  const n = names.length === 0 ? 0 : table[names[0]!]!.length;
  if (n === 0) throw new LearningError('data.empty');
  for (const f of [options.trajectoryField, options.sequenceField, options.datetimeField])
    if (f !== undefined && !(f in table)) throw new LearningError('data.missingColumn', { column: f, node: '-' });

  // order rows
  const trajKey = options.trajectoryField ? table[options.trajectoryField]! : undefined;
  const groupOf = new Map<string, number>();
  const group = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const k = trajKey ? String(trajKey[r] ?? '') : '';
    let g = groupOf.get(k);
    if (g === undefined) {
      g = groupOf.size;
      groupOf.set(k, g);
    }
    group[r] = g;
  }
  const seq = options.sequenceField ? numericColumn(table[options.sequenceField]!, options.sequenceField, 'float') : undefined;
  const dt = options.datetimeField ? numericColumn(table[options.datetimeField]!, options.datetimeField, 'datetime') : undefined;
  const perm = Array.from({ length: n }, (_, i) => i);
  perm.sort((a, b) => group[a]! - group[b]! || cmp(seq?.[a], seq?.[b]) || cmp(dt?.[a], dt?.[b]) || a - b);
  const index: number[] = [];
  for (let i = 1; i <= n; i++) if (i === n || group[perm[i]!] !== group[perm[i - 1]!]) index.push(i);

  const s = analyseGraph(graph);
  const arrays: Record<string, Matrix> = {};
  for (const spec of s.nodes.values()) {
    if (spec.historyOf) continue; // built from its base node
    const own = spec.node.fields.length > 0;
    const fields: Array<{ column: string; field: GraphField }> = spec.fields.map((f) => ({
      column: own || !spec.name.startsWith(NEXT_PREFIX) ? f.name : `next_${f.name}`,
      field: f,
    }));
    const present = fields.filter((f) => f.column in table);
    if (present.length === 0) continue;
    if (present.length < fields.length) {
      const missing = fields.find((f) => !(f.column in table))!;
      throw new LearningError('data.missingColumn', { column: missing.column, node: spec.name });
    }
    const cols = fields.map((f) => numericColumn(table[f.column]!, f.column, f.field.kind));
    const m: Matrix = { rows: n, cols: cols.length, data: new Float64Array(n * cols.length) };
    for (let i = 0; i < n; i++) for (let j = 0; j < cols.length; j++) m.data[i * cols.length + j] = cols[j]![perm[i]!]!;
    arrays[spec.name] = m;
  }
  // history bases read from the table too
  for (const spec of s.nodes.values()) {
    if (!spec.historyOf || arrays[spec.historyOf]) continue;
    const cols = spec.fields.map((f) => {
      if (!(f.name in table)) throw new LearningError('data.missingColumn', { column: f.name, node: spec.name });
      return numericColumn(table[f.name]!, f.name, f.kind);
    });
    const m: Matrix = { rows: n, cols: cols.length, data: new Float64Array(n * cols.length) };
    for (let i = 0; i < n; i++) for (let j = 0; j < cols.length; j++) m.data[i * cols.length + j] = cols[j]![perm[i]!]!;
    arrays[spec.historyOf] = m;
  }
  return { arrays, index };
}

function cmp(a: number | undefined, b: number | undefined): number {
  if (a === undefined || b === undefined) return 0;
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  return a - b;
}

/** Converts a column to numbers by kind: datetime to epoch ms, bool to 0/1; empty cells to NaN. */
export function numericColumn(values: ArrayLike<unknown>, column: string, kind: GraphField['kind']): Float64Array {
  const out = new Float64Array(values.length);
  for (let r = 0; r < values.length; r++) {
    const v = values[r];
    let x: number | undefined;
    if (v === null || v === undefined || v === '' || (typeof v === 'string' && /^(nan|null|na)$/i.test(v.trim()))) x = NaN;
    else if (typeof v === 'number') x = v;
    else if (typeof v === 'bigint') x = Number(v);
    else if (typeof v === 'boolean') x = v ? 1 : 0;
    else if (v instanceof Date) x = v.getTime();
    else if (typeof v === 'string') {
      const t = v.trim();
      if (kind === 'bool' && /^(true|false|yes|no)$/i.test(t)) x = /^(true|yes)$/i.test(t) ? 1 : 0;
      else if (kind === 'datetime' && toNumber(t) === undefined) {
        const ms = Date.parse(t.includes('T') || !/^\d{4}-\d{2}-\d{2} /.test(t) ? t : t.replace(' ', 'T'));
        x = Number.isNaN(ms) ? undefined : ms;
      } else x = toNumber(t);
    }
    if (x === undefined) throw new LearningError('data.notNumeric', { column, value: String(v), row: r + 1 });
    out[r] = x;
  }
  return out;
}
