/** Small display helpers of the plugin. */
export { failureMessage, formatBytes } from '@decisio/sdk-plugin';

/**
 * What a column holds, in the words the user reads (`valueKinds.*` of the locales), from a
 * type as the data worker infers it (`integer`, `float`, `date`, ...) or as DuckDB names it on
 * the server (`BIGINT`, `DOUBLE`, `VARCHAR`, `TIMESTAMP WITH TIME ZONE`, ...).
 */
export type ValueKind = 'integer' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'time' | 'text' | 'empty';

/** The user-facing kind of a column type, or `null` for a type with no plain word (shown as it is). */
export function valueKindOf(type: string | null | undefined): ValueKind | null {
  const t = (type ?? '').trim().toUpperCase();
  if (/^(INTEGER|TINYINT|SMALLINT|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|INT|INT\d+|UINT\d+|LONG|SHORT)$/.test(t)) return 'integer';
  if (/^(FLOAT|DOUBLE|REAL|DECIMAL.*|NUMERIC.*|FLOAT\d+)$/.test(t)) return 'decimal';
  if (/^(BOOLEAN|BOOL)$/.test(t)) return 'boolean';
  if (t === 'DATE') return 'date';
  if (/^(TIMESTAMP.*|DATETIME)$/.test(t)) return 'datetime';
  if (/^TIME( .*)?$/.test(t)) return 'time';
  if (/^(STRING|VARCHAR.*|TEXT|CHAR.*|UUID)$/.test(t)) return 'text';
  if (/^(EMPTY|NULL|"NULL")$/.test(t)) return 'empty';
  return null;
}

// An ISO date-time as the server writes dates and timestamps (`Date.toISOString()`), or with an offset.
const ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * A cell as shown: `text`, and `title` with the full value where `text` shortens it. A date
 * (`2024-01-01T00:00:00.000Z` of a DATE column, or a midnight UTC value whose type is not known)
 * shows as `2024-01-01`; a timestamp as `2024-01-01 08:30:00` in the browser's time zone
 * (milliseconds when there are some), the ISO text in `title`. Numbers keep 6 significant digits.
 */
export function cellDisplay(v: unknown, type?: string): { text: string; title?: string } {
  if (v === null || v === undefined) return { text: '' };
  if (typeof v === 'number') return { text: Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6))) };
  if (typeof v !== 'string') return { text: String(v) };
  const m = ISO.exec(v);
  if (!m) return { text: v };
  const kind = valueKindOf(type);
  const midnightUtc = m[6] === 'Z' && m[2] === '00' && m[3] === '00' && m[4] === '00' && !/[1-9]/.test(m[5] ?? '');
  if (kind === 'date' || (kind === null && midnightUtc)) return { text: m[1]!, ...(midnightUtc ? {} : { title: v }) };
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return { text: v };
  const ms = d.getMilliseconds();
  const text = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`;
  return { text, title: v };
}

/** A cell of a preview as text (see {@link cellDisplay}). */
export function cellText(v: unknown, type?: string): string {
  return cellDisplay(v, type).text;
}
