/**
 * What a scheme does to its table (spec workflow §3 "Scheme"): the business range, derived
 * fields and aggregations, field types, the data filter, the partial order, and the business
 * period the aggregations roll rows up to. `parseSchemeData` checks the scheme's `data` when it
 * is saved (syntax only: the table may not be known yet); `applyScheme` runs it on the table
 * during the data processing and reports how many rows each step kept. The table it gets is the
 * correlation's primary table left-joined with its related tables (`./join.ts`), so every field
 * below may name a column of a related table (renamed `<table>_<column>` on a name clash).
 *
 * `data` (as `scheme/create` stores it):
 *
 * - `dimensions: {agent, otherAgents, environment}`: field names; each must be a column (or a
 *   derived field) of the table, and they are kept in the processed table.
 * - `types: {field: spec}`: `continuous`, `continuous [min, max]`, `discrete` (integers),
 *   `discrete [v1, v2, ...]` (those values only), or `{type, min?, max?, values?}`. Rows whose
 *   value does not fit are dropped.
 * - `aggregation: {field: spec}`: either a derived field computed on every row, `a + b`,
 *   `a - b`, `a * b`, `a / b`, `a & b` (and: 1 when both are non-zero) over columns or numbers;
 *   or a function that rolls the rows of one trajectory and one business period into one row:
 *   `sum` (`addition`), `product` (`multiplication`), `max`, `min`, `count`, `average` (`avg`,
 *   `mean`), `and` (1 when every value is non-zero), `or`, `first`, `last`. With at least one
 *   function the rows are grouped by trajectory and period (`hour`, `day`, `week` from Monday,
 *   `month`, UTC) of the datetime field; the other columns keep the period's first value, and
 *   `next_` columns its last value (the state at the end of the period).
 * - `filter`: an expression rows must satisfy, e.g. `temp >= 10 and (power < 0.9 or mode == "eco")`
 *   (`and`/`&&`, `or`/`||`, `not`/`!`, `==`/`=`, `!=`/`<>`, `<`, `<=`, `>`, `>=`, `+ - * / %`,
 *   numbers, quoted strings, column names, `` `odd name` ``; comparisons chain: `0 <= x < 1`).
 *   A list of expressions must all hold.
 * - `partialOrder`: lines such as `low < high` or `0 <= power <= 1`: an order the fields of
 *   every row must respect; rows that break one are dropped.
 * - The scheme's `startTime`/`endTime` (the business range) keep rows whose datetime lies in
 *   it; a date-only end (midnight UTC) includes its whole day.
 *
 * Steps run in this order: derived fields, business range, types, filter, partial order,
 * period aggregation.
 */
import { LearningError, type TableColumns } from '@decisio/learning';
import { asNumber, cell, columnsOf, evaluate, parseExpression, truthy, type Expr, type Value } from './scheme-expression';

export { evaluate, parseExpression, type Expr } from './scheme-expression';

/** A scheme's `data` after checking. */
export interface SchemeData {
  dimensions: { agent: string[]; otherAgents: string[]; environment: string[] };
  types: Array<{ field: string; kind: 'continuous' | 'discrete'; min?: number; max?: number; values?: number[] }>;
  derived: Array<{ field: string; left: Operand; op: '+' | '-' | '*' | '/' | '&'; right: Operand }>;
  aggregations: Array<{ field: string; fn: AggregateFn }>;
  filter: Expr[];
  partialOrder: Expr[];
}

type Operand = { column: string } | { value: number };
export type AggregateFn = 'sum' | 'product' | 'max' | 'min' | 'count' | 'average' | 'and' | 'or' | 'first' | 'last';

const FUNCTIONS: Record<string, AggregateFn> = {
  sum: 'sum',
  addition: 'sum',
  add: 'sum',
  product: 'product',
  multiplication: 'product',
  max: 'max',
  maximum: 'max',
  min: 'min',
  minimum: 'min',
  count: 'count',
  average: 'average',
  avg: 'average',
  mean: 'average',
  and: 'and',
  or: 'or',
  first: 'first',
  last: 'last',
};

/**
 * A problem in a scheme's `data`: `field` is the form field (`filter`, `aggregation`, ...),
 * `item` the text at fault (language neutral), the message says what is wrong (logs).
 */
export class SchemeDataError extends Error {
  constructor(
    readonly field: 'dimensions' | 'types' | 'aggregation' | 'filter' | 'partialOrder' | 'period',
    message: string,
    readonly item: string = '',
  ) {
    super(message);
    this.name = 'SchemeDataError';
  }
}

// ---- parsing the scheme's data ---------------------------------------------------------------

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x).trim()).filter(Boolean) : typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean) : []);
const lines = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x).trim()).filter(Boolean) : typeof v === 'string' ? v.split('\n').map((x) => x.trim()).filter(Boolean) : []);

function numbersOf(text: string, field: string): number[] {
  const parts = text.split(',').map((x) => x.trim()).filter(Boolean);
  const out = parts.map(Number);
  if (out.length === 0 || out.some((x) => !Number.isFinite(x))) throw new SchemeDataError('types', `${field}: the bracket must hold numbers`, field);
  return out;
}

function parseType(field: string, spec: unknown): SchemeData['types'][number] {
  if (spec && typeof spec === 'object' && !Array.isArray(spec)) {
    const o = spec as Record<string, unknown>;
    const kind = String(o.type ?? o.kind ?? '').toLowerCase();
    if (kind !== 'continuous' && kind !== 'discrete') throw new SchemeDataError('types', `${field}: the type must be continuous or discrete`, field);
    const t: SchemeData['types'][number] = { field, kind };
    if (o.min !== undefined || o.max !== undefined) {
      const min = Number(o.min);
      const max = Number(o.max);
      if (!(min < max)) throw new SchemeDataError('types', `${field}: min must be a number below max`, field);
      t.min = min;
      t.max = max;
    }
    if (o.values !== undefined) {
      const values = Array.isArray(o.values) ? o.values.map(Number) : [];
      if (values.length === 0 || values.some((x) => !Number.isFinite(x))) throw new SchemeDataError('types', `${field}: values must be numbers`, field);
      t.values = values;
    }
    return t;
  }
  const m = /^\s*(continuous|discrete)\s*(?:\[(.*)\])?\s*$/i.exec(String(spec ?? ''));
  if (!m) throw new SchemeDataError('types', `${field}: write continuous, continuous [min, max], discrete or discrete [v1, v2, ...]`, field);
  const kind = m[1]!.toLowerCase() as 'continuous' | 'discrete';
  const t: SchemeData['types'][number] = { field, kind };
  if (m[2] !== undefined) {
    const nums = numbersOf(m[2], field);
    if (kind === 'continuous') {
      if (nums.length !== 2 || !(nums[0]! < nums[1]!)) throw new SchemeDataError('types', `${field}: a continuous range is [min, max] with min below max`, field);
      t.min = nums[0]!;
      t.max = nums[1]!;
    } else t.values = nums;
  }
  return t;
}

function parseOperand(text: string): Operand {
  const n = Number(text);
  return text !== '' && Number.isFinite(n) ? { value: n } : { column: text.replace(/^`(.*)`$/, '$1') };
}

function parseAggregation(field: string, spec: unknown, data: SchemeData) {
  const text = String(spec ?? '').trim();
  const fn = FUNCTIONS[text.toLowerCase()];
  if (fn) {
    data.aggregations.push({ field, fn });
    return;
  }
  const m = /^(`[^`]+`|[^\s+\-*/&]+)\s*([+\-*/&])\s*(`[^`]+`|[^\s+\-*/&]+)$/.exec(text);
  if (!m) {
    throw new SchemeDataError('aggregation', `${field}: write a function (sum, product, max, min, count, average, and, or, first, last) or a derived field "a + b" (+ - * / &)`, `${field}: ${text}`);
  }
  data.derived.push({ field, left: parseOperand(m[1]!), op: m[2] as '+' | '-' | '*' | '/' | '&', right: parseOperand(m[3]!) });
}

function parseLines(field: 'filter' | 'partialOrder', items: string[]): Expr[] {
  return items.map((text) => {
    try {
      const e = parseExpression(text);
      if (field === 'partialOrder' && (e.t !== 'cmp' || e.ops.some((o) => o === '==' || o === '!='))) throw new Error('an order compares with <, <=, > or >=');
      return e;
    } catch (err) {
      throw new SchemeDataError(field, `"${text}": ${(err as Error).message}`, text);
    }
  });
}

/** Checks and parses a scheme's `data` (see the module comment); throws {@link SchemeDataError}. */
export function parseSchemeData(raw: unknown): SchemeData {
  const d = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const dims = (d.dimensions && typeof d.dimensions === 'object' ? d.dimensions : {}) as Record<string, unknown>;
  const data: SchemeData = {
    dimensions: { agent: strings(dims.agent), otherAgents: strings(dims.otherAgents), environment: strings(dims.environment ?? dims.environmentState) },
    types: [],
    derived: [],
    aggregations: [],
    filter: [],
    partialOrder: [],
  };
  const types = d.types && typeof d.types === 'object' ? (d.types as Record<string, unknown>) : {};
  for (const [field, spec] of Object.entries(types)) data.types.push(parseType(field, spec));
  const agg = d.aggregation && typeof d.aggregation === 'object' ? (d.aggregation as Record<string, unknown>) : {};
  for (const [field, spec] of Object.entries(agg)) parseAggregation(field, spec, data);
  data.filter = parseLines('filter', typeof d.filter === 'string' ? (d.filter.trim() ? [d.filter.trim()] : []) : lines(d.filter));
  data.partialOrder = parseLines('partialOrder', lines(d.partialOrder));
  return data;
}

// ---- applying it -----------------------------------------------------------------------------

/** Where the ordering fields are and what the scheme's business period and range are. */
export interface SchemeFrame {
  /** Business period of the aggregations ('' or null: none given; an aggregation then fails). */
  period: string | null;
  /** Business range; either end may be null (open). */
  start: Date | null;
  end: Date | null;
  trajectoryField: string;
  sequenceField: string;
  /** The time column; absent for a table without one. */
  datetimeField?: string | undefined;
}

/** Rows each step kept (`read` -> `kept`). */
export interface SchemeReport {
  read: number;
  range: number;
  types: number;
  filter: number;
  partialOrder: number;
  /** Rows after the period aggregation (= `partialOrder` when nothing is aggregated). */
  kept: number;
  aggregatedBy: string | null;
  derived: string[];
  notes: string[];
}

const DAY = 86_400_000;

/** Start (epoch ms, UTC) of the business period holding `ms`. */
export function periodStart(ms: number, period: string): number {
  const d = new Date(ms);
  switch (period) {
    case 'hour':
      return Math.floor(ms / 3_600_000) * 3_600_000;
    case 'day':
      return Math.floor(ms / DAY) * DAY;
    case 'week': {
      const day = Math.floor(ms / DAY) * DAY;
      return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY; // weeks start on Monday
    }
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'quarter':
      return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear(), 0, 1);
    default:
      throw new SchemeDataError('period', `unknown business period "${period}" (hour, day, week, month, quarter, year)`, period);
  }
}

/**
 * A datetime cell as epoch ms: numbers as they are; text in ISO form or as databases print it
 * (`2026-01-01 06:00:00`, `...+00`, `...+0530`); text without an offset is read as UTC, like the
 * scheme's own range. NaN for an empty cell.
 */
export function parseTime(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.getTime();
  if (v === null || v === undefined) return NaN;
  const s = String(v).trim();
  if (s === '') return NaN;
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i.exec(s);
  if (m) {
    const [, date, time, zone] = m;
    if (!time) return Date.parse(`${date}T00:00:00Z`);
    let z = zone ? zone.toUpperCase() : 'Z';
    if (z !== 'Z') z = z.length === 3 ? `${z}:00` : z.includes(':') ? z : `${z.slice(0, 3)}:${z.slice(3)}`;
    const ms = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}${z}`);
    if (!Number.isNaN(ms)) return ms;
  }
  const ms = Date.parse(s);
  return ms;
}

function timeColumn(values: ArrayLike<unknown>, column: string): Float64Array {
  const out = new Float64Array(values.length);
  for (let r = 0; r < values.length; r++) {
    const t = parseTime(values[r]);
    if (Number.isNaN(t) && !(values[r] === '' || values[r] === null || values[r] === undefined)) throw new LearningError('data.notNumeric', { column, value: String(values[r]), row: r + 1 });
    out[r] = t;
  }
  return out;
}

function select(table: TableColumns, rows: number[]): TableColumns {
  const out: TableColumns = {};
  for (const [k, col] of Object.entries(table)) out[k] = rows.map((r) => col[r]);
  return out;
}

function keepWhere(table: TableColumns, n: number, ok: (r: number) => boolean): { table: TableColumns; rows: number } {
  const rows: number[] = [];
  for (let r = 0; r < n; r++) if (ok(r)) rows.push(r);
  return rows.length === n ? { table, rows: n } : { table: select(table, rows), rows: rows.length };
}

function aggregate(fn: AggregateFn, values: Value[]): number {
  const nums = values.map(asNumber).filter((x) => !Number.isNaN(x));
  switch (fn) {
    case 'count':
      return values.filter((v) => !(typeof v === 'number' && Number.isNaN(v))).length;
    case 'first':
      return nums.length ? nums[0]! : NaN;
    case 'last':
      return nums.length ? nums[nums.length - 1]! : NaN;
    case 'sum':
      return nums.reduce((a, b) => a + b, 0);
    case 'product':
      return nums.reduce((a, b) => a * b, 1);
    case 'max':
      return nums.length ? Math.max(...nums) : NaN;
    case 'min':
      return nums.length ? Math.min(...nums) : NaN;
    case 'average':
      return nums.length ? nums.reduce((a, b) => a + b, 0) / nums.length : NaN;
    case 'and':
      return nums.length && nums.every((x) => x !== 0) ? 1 : 0;
    case 'or':
      return nums.some((x) => x !== 0) ? 1 : 0;
  }
}

/** Applies a scheme to a table (see the module comment). Throws an `Error` naming what is wrong. */
export function applyScheme(input: TableColumns, data: SchemeData, frame: SchemeFrame): { table: TableColumns; report: SchemeReport } {
  let table: TableColumns = { ...input };
  let n = Object.values(table)[0]?.length ?? 0;
  const report: SchemeReport = { read: n, range: n, types: n, filter: n, partialOrder: n, kept: n, aggregatedBy: null, derived: [], notes: [] };
  const has = (c: string) => c in table;
  const need = (c: string, what: string) => {
    if (!has(c)) throw new Error(`${what}: the table has no column "${c}" (columns: ${Object.keys(table).join(', ')})`);
  };

  // Derived fields, in the order given (a later one may use an earlier one).
  for (const d of data.derived) {
    const read = (o: Operand, r: number) => ('value' in o ? o.value : asNumber(cell(table[o.column]![r])));
    for (const o of [d.left, d.right]) if ('column' in o) need(o.column, `aggregation of "${d.field}"`);
    const col = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      const a = read(d.left, r);
      const b = read(d.right, r);
      col[r] = d.op === '+' ? a + b : d.op === '-' ? a - b : d.op === '*' ? a * b : d.op === '/' ? a / b : a !== 0 && b !== 0 && !Number.isNaN(a) && !Number.isNaN(b) ? 1 : 0;
    }
    table[d.field] = col;
    report.derived.push(d.field);
  }

  for (const f of [...data.dimensions.agent, ...data.dimensions.otherAgents, ...data.dimensions.environment]) need(f, 'dimensions');

  // Business range on the datetime field.
  let times: Float64Array | null = null;
  const dt = frame.datetimeField;
  const ranged = frame.start !== null || frame.end !== null;
  if (dt && has(dt) && ranged) {
    try {
      times = timeColumn(table[dt]!, dt);
    } catch (err) {
      throw new Error(`business range: ${(err as Error).message}`);
    }
    const from = frame.start ? frame.start.getTime() : -Infinity;
    const endMs = frame.end ? frame.end.getTime() : Infinity;
    const to = endMs % DAY === 0 ? endMs + DAY : endMs + 1; // a date-only end includes its day
    const t = times;
    ({ table, rows: n } = keepWhere(table, n, (r) => t[r]! >= from && t[r]! < to));
    if (n !== t.length) times = timeColumn(table[dt]!, dt);
  } else if (dt && !has(dt)) report.notes.push(`no datetime column "${dt}": the business range is not applied`);
  report.range = n;

  // Field types.
  for (const t of data.types) {
    need(t.field, 'types');
    const col = table[t.field]!;
    const values = t.values ? new Set(t.values) : null;
    ({ table, rows: n } = keepWhere(table, n, (r) => {
      const v = cell(col[r]);
      if (typeof v !== 'number' || Number.isNaN(v)) return false;
      if (t.min !== undefined && (v < t.min || v > t.max!)) return false;
      if (values) return values.has(v);
      return t.kind === 'continuous' || Number.isInteger(v);
    }));
  }
  report.types = n;

  const rowsWhere = (exprs: Expr[], what: string) => {
    for (const e of exprs) for (const c of columnsOf(e)) need(c, what);
    for (const e of exprs) {
      const snapshot = table;
      ({ table, rows: n } = keepWhere(table, n, (r) => truthy(evaluate(e, snapshot, r))));
    }
  };
  rowsWhere(data.filter, 'filter');
  report.filter = n;
  rowsWhere(data.partialOrder, 'partial order');
  report.partialOrder = n;

  // Period aggregation.
  if (data.aggregations.length > 0 && n > 0) {
    if (!frame.datetimeField) throw new Error('aggregation by business period: the table correlation names no datetime field');
    const dtField = frame.datetimeField;
    need(dtField, 'aggregation by business period');
    for (const a of data.aggregations) need(a.field, 'aggregation');
    const t = timeColumn(table[dtField]!, dtField);
    const traj = has(frame.trajectoryField) ? table[frame.trajectoryField]! : null;
    const seq = has(frame.sequenceField) ? Float64Array.from(Array.from(table[frame.sequenceField]!, (v) => asNumber(cell(v)))) : null;
    const order = Array.from({ length: n }, (_, r) => r);
    const trajOrder = new Map<string, number>();
    if (traj) for (let r = 0; r < n; r++) if (!trajOrder.has(String(traj[r]))) trajOrder.set(String(traj[r]), trajOrder.size);
    order.sort((a, b) => (traj ? trajOrder.get(String(traj[a]))! - trajOrder.get(String(traj[b]))! : 0) || (seq ? seq[a]! - seq[b]! : 0) || t[a]! - t[b]! || a - b);
    const groups: number[][] = [];
    let key = '';
    for (const r of order) {
      const k = `${traj ? String(traj[r]) : ''}\u0000${periodStart(t[r]!, frame.period ?? '')}`;
      if (k !== key || groups.length === 0) groups.push([]);
      key = k;
      groups[groups.length - 1]!.push(r);
    }
    const fns = new Map(data.aggregations.map((a) => [a.field, a.fn]));
    const out: TableColumns = {};
    for (const [c, col] of Object.entries(table)) {
      const fn = fns.get(c);
      out[c] = fn ? Float64Array.from(groups, (g) => aggregate(fn, g.map((r) => cell(col[r])))) : groups.map((g) => col[c.startsWith('next_') ? g[g.length - 1]! : g[0]!]);
    }
    table = out;
    n = groups.length;
    report.aggregatedBy = frame.period;
  }
  report.kept = n;
  if (n === 0) throw new Error(`the scheme keeps no rows (${describeReport(report)})`);
  return { table, report };
}

/** One line about what a scheme did. */
export function describeReport(r: SchemeReport): string {
  const parts = [`${r.read} rows read`];
  if (r.derived.length) parts.push(`derived ${r.derived.join(', ')}`);
  parts.push(`${r.range} in the business range`, `${r.types} of the field types`, `${r.filter} pass the filter`, `${r.partialOrder} keep the partial order`);
  if (r.aggregatedBy) parts.push(`${r.kept} rows after aggregating by ${r.aggregatedBy}`);
  return parts.join(', ');
}
