/**
 * Joins the tables of a solution's table correlation (spec workflow §2 "Data access") into the
 * one table the scheme data processing works on: the primary table with the columns of every
 * related table beside it.
 *
 * The correlation names a primary table and relations `{from, fromField, to, toField}` (table
 * ids and key columns); its tables are the primary one and every table a relation names. The
 * join walks from the primary table outward (breadth first, relations in the order given, either
 * direction): a table is joined the first time a relation reaches it from a table already joined.
 *
 * - Left join: the result has exactly the primary table's rows, in its order. A primary row
 *   without a matching row in a related table gets missing values in that table's columns: NaN in
 *   number columns (typed arrays, or plain arrays without text), `''` in text columns (the way
 *   `TableColumns` of datasets and CSV files hold missing values).
 * - Keys: a related row matches when its key equals the key of the joined side. When either key
 *   column holds numbers (a typed array, or a plain array with numbers only), both are compared as
 *   numbers (text is read with `Number`, so `"7"` and `" 7.0"` match 7; text that is no number
 *   never matches). Otherwise both are compared as text exactly as read (case and spaces count).
 *   A missing key (NaN, `''`, null) never matches.
 * - Composite keys: when a table is related to several tables already joined, or by several
 *   relations to one of them, all those relations must hold at once (one composite key).
 * - Many-to-one: a related table is a lookup (dimension) table with one row per key. When a key
 *   that a joined row looks up has several rows in the related table (one-to-many), the join is
 *   refused (`tableParamError`, naming the table, the key and how many rows it has); duplicate
 *   keys that no row looks up are not an error.
 * - Columns: the related table's key columns of the join are left out (the joined side holds the
 *   same value). A column whose name is already taken gets the table's name as prefix:
 *   `<table>_<column>`, where `<table>` is the table's name with every run of characters other
 *   than letters, digits and `_` replaced by `_` (`"Store list"` -> `Store_list_city`); when that
 *   name is taken too, `_2`, `_3`, ... is appended. Other columns keep their names.
 * - Chains (A -> B -> C): a relation from B reads B's own key column of the B row each primary
 *   row matched (also when that column was renamed or left out), so an unmatched B row leaves C
 *   unmatched too.
 *
 * Errors (an `AppError` whose message names the table and column): a relation without both
 * tables or keys, or from a table to itself, and a table not connected to the primary one:
 * `tableParamError`; a table the relations name that was not loaded: `tableNotFound`; a key column
 * the table lacks: `tableFieldsMismatch`.
 *
 * Cost: one hash map per related table (O(rows of both)), no sorting; fine for millions of rows.
 */
import { AppError, messageOf, type ErrorCodeName } from '@decisio/domain';
import type { TableColumns } from '@decisio/learning';

/** A table to join: its id (as the relations name it), display name and columns. */
export interface JoinTable {
  id: string;
  name: string;
  columns: TableColumns;
}

/** A relation of the correlation: `from.fromField = to.toField`. */
export interface JoinRelation {
  from: string;
  fromField: string;
  to: string;
  toField: string;
}

/** What joining one related table did. */
export interface JoinStep {
  id: string;
  name: string;
  /** Rows of the related table. */
  rows: number;
  /** Primary rows that found a row in it. */
  matched: number;
  /** The key, as `joined.column = related.column` terms. */
  on: string[];
  /** Columns that were renamed because of a clash: original -> new name. */
  renamed: Record<string, string>;
  /** The columns it added, in order (its key columns left out), by their name in the joined table. */
  added: string[];
}

/** What the join did, table by table (in join order). */
export interface JoinReport {
  rows: number;
  steps: JoinStep[];
}

function fail(code: ErrorCodeName, detail: string, details?: Record<string, string>): never {
  throw new AppError(code, details, `${messageOf(code, 'en-US')}: ${detail}`);
}

const rowCount = (t: TableColumns) => Object.values(t)[0]?.length ?? 0;

const isTypedArray = (col: ArrayLike<unknown>) => ArrayBuffer.isView(col) && !(col instanceof DataView);

/** A column of numbers: a typed array, or a plain array whose values are numbers (or missing). */
function isNumberColumn(col: ArrayLike<unknown>): boolean {
  if (isTypedArray(col)) return true;
  let numbers = 0;
  for (let i = 0; i < col.length; i++) {
    const v = col[i];
    if (v === null || v === undefined) continue;
    if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') numbers++;
    else return false;
  }
  return numbers > 0;
}

type Key = number | string | undefined;

function numberKey(v: unknown): Key {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'bigint') n = Number(v);
  else if (typeof v === 'boolean') n = v ? 1 : 0;
  else if (v instanceof Date) n = v.getTime();
  else if (typeof v === 'string') n = v.trim() === '' ? NaN : Number(v);
  else return undefined;
  return Number.isNaN(n) ? undefined : n;
}

function textKey(v: unknown): Key {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number' && Number.isNaN(v)) return undefined;
  const s = v instanceof Date ? v.toISOString() : String(v);
  return s === '' ? undefined : s;
}

/** The missing value of a column's kind: NaN for numbers, '' for text. */
function gather(col: ArrayLike<unknown>, index: Int32Array): ArrayLike<unknown> {
  const n = index.length;
  if (isTypedArray(col)) {
    const out = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      const j = index[r]!;
      out[r] = j < 0 ? NaN : Number(col[j]);
    }
    return out;
  }
  let text = false;
  for (let i = 0; i < col.length && !text; i++) text = typeof col[i] === 'string';
  const missing = text ? '' : NaN;
  const out = new Array<unknown>(n);
  for (let r = 0; r < n; r++) {
    const j = index[r]!;
    out[r] = j < 0 ? missing : col[j];
  }
  return out;
}

/** `Store list` -> `Store_list` (see the module comment). */
export function prefixOf(name: string): string {
  return name.replace(/[^\p{L}\p{N}_]+/gu, '_');
}

/**
 * Joins `primary` with `others` along `relations` (see the module comment). `primaryIds` are
 * the ids relations may use for the primary table besides `primary.id` (e.g. its dataset id).
 * Throws an `AppError` (`tableParamError`, `tableNotFound`, `tableFieldsMismatch`).
 */
export function joinTables(primary: JoinTable, others: readonly JoinTable[], relations: readonly JoinRelation[], primaryIds: readonly string[] = []): { table: TableColumns; report: JoinReport } {
  const n = rowCount(primary.columns);
  const aliases = new Set([primary.id, ...primaryIds]);
  const canon = (id: string) => (aliases.has(id) ? primary.id : id);
  const tables = new Map<string, JoinTable>([[primary.id, primary]]);
  for (const t of others) if (!aliases.has(t.id)) tables.set(t.id, t);
  const label = (id: string) => {
    const t = tables.get(id);
    return t ? `"${t.name}"` : id;
  };

  // Check every relation first.
  const rels = relations.map((r, i) => {
    const rel = { from: canon(r.from ?? ''), fromField: r.fromField ?? '', to: canon(r.to ?? ''), toField: r.toField ?? '' };
    const place = `relation ${i + 1}`;
    if (!rel.from || !rel.to || !rel.fromField || !rel.toField) fail('tableParamError', `${place} needs both tables and both key columns`, { relation: String(i + 1) });
    if (rel.from === rel.to) fail('tableParamError', `${place} relates table ${label(rel.from)} to itself`, { relation: String(i + 1) });
    for (const [id, field] of [
      [rel.from, rel.fromField],
      [rel.to, rel.toField],
    ] as const) {
      const t = tables.get(id);
      if (!t) fail('tableNotFound', `table ${id} of ${place} was not found`, { table: id });
      if (!(field in t.columns)) fail('tableFieldsMismatch', `table "${t.name}" has no key column "${field}" (${place}; columns: ${Object.keys(t.columns).join(', ')})`, { table: t.name, field });
    }
    return rel;
  });

  const table: TableColumns = { ...primary.columns };
  /** Per joined table: the row of that table each output row took (-1: none); null for the primary (identity). */
  const rowOf = new Map<string, Int32Array | null>([[primary.id, null]]);
  const steps: JoinStep[] = [];
  const queue = [primary.id];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const rel of rels) {
      const next = rel.from === current ? rel.to : rel.to === current ? rel.from : null;
      if (next === null || rowOf.has(next)) continue;
      // Every relation between `next` and a table already joined is part of the key.
      const terms: Array<{ source: string; sourceField: string; field: string }> = [];
      for (const r of rels) {
        if (r.to === next && rowOf.has(r.from)) terms.push({ source: r.from, sourceField: r.fromField, field: r.toField });
        else if (r.from === next && rowOf.has(r.to)) terms.push({ source: r.to, sourceField: r.toField, field: r.fromField });
      }
      const t = tables.get(next)!;
      const index = lookup(t, terms, rowOf, tables, n);
      rowOf.set(next, index);
      queue.push(next);

      // Its columns, less the key columns, renamed where the name is taken.
      const keys = new Set(terms.map((k) => k.field));
      const kept = Object.keys(t.columns).filter((c) => !keys.has(c));
      const taken = new Set([...Object.keys(table), ...kept.filter((c) => !(c in table))]);
      const renamed: Record<string, string> = {};
      const added: string[] = [];
      const prefix = prefixOf(t.name) || prefixOf(t.id);
      for (const c of kept) {
        let name = c;
        if (c in table) {
          name = `${prefix}_${c}`;
          for (let k = 2; taken.has(name); k++) name = `${prefix}_${c}_${k}`;
          taken.add(name);
          renamed[c] = name;
        }
        table[name] = gather(t.columns[c]!, index);
        added.push(name);
      }
      let matched = 0;
      for (let r = 0; r < n; r++) if (index[r]! >= 0) matched++;
      steps.push({
        id: t.id,
        name: t.name,
        rows: rowCount(t.columns),
        matched,
        on: terms.map((k) => `${tables.get(k.source)!.name}.${k.sourceField} = ${t.name}.${k.field}`),
        renamed,
        added,
      });
    }
  }
  for (const id of tables.keys()) {
    if (!rowOf.has(id)) fail('tableParamError', `table ${label(id)} is not connected to the primary table "${primary.name}" through the relations`, { table: tables.get(id)!.name });
  }
  return { table, report: { rows: n, steps } };
}

/** For every output row, the row of `t` whose key matches (-1: none). */
function lookup(
  t: JoinTable,
  terms: ReadonlyArray<{ source: string; sourceField: string; field: string }>,
  rowOf: ReadonlyMap<string, Int32Array | null>,
  tables: ReadonlyMap<string, JoinTable>,
  n: number,
): Int32Array {
  const parts = terms.map((k) => {
    const sourceCol = tables.get(k.source)!.columns[k.sourceField]!;
    const col = t.columns[k.field]!;
    const key = isNumberColumn(sourceCol) || isNumberColumn(col) ? numberKey : textKey;
    return { sourceCol, sourceRows: rowOf.get(k.source)!, col, key };
  });
  const single = parts.length === 1 ? parts[0]! : null;
  const relatedKey = (j: number): Key => {
    if (single) return single.key(single.col[j]);
    let out = '';
    for (const p of parts) {
      const k = p.key(p.col[j]);
      if (k === undefined) return undefined;
      out += `${String(k)}\u0000`;
    }
    return out;
  };
  const joinedKey = (r: number): Key => {
    let out = '';
    for (const p of parts) {
      const row = p.sourceRows ? p.sourceRows[r]! : r;
      if (row < 0) return undefined;
      const k = p.key(p.sourceCol[row]);
      if (single || k === undefined) return k;
      out += `${String(k)}\u0000`;
    }
    return out;
  };

  const m = rowCount(t.columns);
  const first = new Map<number | string, number>();
  let repeats: Map<number | string, number> | null = null;
  for (let j = 0; j < m; j++) {
    const k = relatedKey(j);
    if (k === undefined) continue;
    if (!first.has(k)) first.set(k, j);
    else (repeats ??= new Map()).set(k, (repeats.get(k) ?? 1) + 1);
  }
  const index = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const k = joinedKey(r);
    const j = k === undefined ? undefined : first.get(k);
    if (j === undefined) {
      index[r] = -1;
      continue;
    }
    const count = repeats?.get(k!);
    if (count !== undefined) {
      const key = terms.map((term, i) => `${term.field} = ${String(parts[i]!.col[j])}`).join(', ');
      fail('tableParamError', `table "${t.name}" has ${count} rows with key ${key}; a related table must have one row per key (many-to-one)`, { table: t.name, key });
    }
    index[r] = j;
  }
  return index;
}
