/**
 * Kept decision calls as a table (`modeldeploy/createDatasetFromRecords`): one row per decided
 * row, columns `decision_id`, `row`, `called_at`, then the input fields as sent, the decided
 * fields as `decision_<field>` and the reported outcome as `outcome_<field>`. A field whose value
 * is an array of history frames gives `<field>_0`, `<field>_1`, ... Names are made safe for a
 * dataset column (characters outside the allowed set become `_`, clashes get a number).
 */
import { COLUMN_NAME_MAX, COLUMN_NAME_PATTERN } from '@decisio/domain';

/** One kept call. */
export interface KeptCall {
  id: string;
  at: Date;
  inputs: unknown;
  decisions: unknown;
  outcome: unknown;
}

/** Columns and rows (numbers, strings, or null for a missing value). */
export interface RecordsTable {
  columns: string[];
  rows: (number | string | null)[][];
}

const rowsOf = (v: unknown): Record<string, unknown>[] =>
  (Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]).map((r) => (r !== null && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, unknown>) : {}));

function safeName(raw: string): string {
  let name = '';
  for (const ch of raw) name += COLUMN_NAME_PATTERN.test(ch) ? ch : '_';
  return (name || '_').slice(0, COLUMN_NAME_MAX);
}

/** Builds the table of `calls` (see the module comment). */
export function recordsTable(calls: KeptCall[]): RecordsTable {
  const index = new Map<string, number>();
  const taken = new Set<string>();
  const columns: string[] = [];
  // Keys: `m:` the call's own columns, `i:` inputs, `d:` decisions, `o:` outcomes (names may repeat across them).
  const column = (key: string): number => {
    let i = index.get(key);
    if (i === undefined) {
      const base = safeName(key.slice(2));
      let name = base;
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, COLUMN_NAME_MAX - String(n).length - 1)}_${n}`;
      taken.add(name.toLowerCase());
      i = columns.length;
      columns.push(name);
      index.set(key, i);
    }
    return i;
  };
  for (const k of ['m:decision_id', 'm:row', 'm:called_at']) column(k);
  const rows: (number | string | null)[][] = [];
  for (const call of calls) {
    const inputs = rowsOf(call.inputs);
    const decisions = rowsOf(call.decisions);
    const outcomes = rowsOf(call.outcome);
    for (let r = 0; r < inputs.length; r++) {
      const row: (number | string | null)[] = [];
      const put = (key: string, v: unknown) => {
        if (Array.isArray(v)) v.forEach((x, f) => put(`${key}_${f}`, x));
        else row[column(key)] = typeof v === 'number' && Number.isFinite(v) ? v : null;
      };
      row[0] = call.id;
      row[1] = r;
      row[2] = call.at.toISOString();
      for (const [k, v] of Object.entries(inputs[r]!)) put(`i:${k}`, v);
      for (const [k, v] of Object.entries(decisions[r] ?? {})) put(`d:decision_${k}`, v);
      for (const [k, v] of Object.entries(outcomes[r] ?? {})) put(`o:outcome_${k}`, v);
      rows.push(row);
    }
  }
  for (const row of rows) for (let i = 0; i < columns.length; i++) row[i] ??= null;
  return { columns, rows };
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** The table as csv (comma, double quotes, header). */
export function toCsv(t: RecordsTable): string {
  const lines = [t.columns.map(quote).join(',')];
  for (const row of t.rows) lines.push(row.map((v) => (v === null ? '' : typeof v === 'number' ? String(v) : quote(v))).join(','));
  return lines.join('\n') + '\n';
}
