/**
 * Date columns as ISO strings: SQLite hands back epoch milliseconds (a number or digit string),
 * MariaDB a `Date`; both become the same text.
 */
export function isoDate(value: unknown): string {
  const d = value instanceof Date ? value : typeof value === 'number' || /^\d+$/.test(String(value)) ? new Date(Number(value)) : new Date(String(value));
  return d.toISOString();
}

/** {@link isoDate}, or `null` for a null column. */
export function isoDateOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : isoDate(value);
}
