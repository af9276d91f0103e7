import { LOG_CSV_COLUMNS, type LogItem, type LogKind } from '@decisio/domain';

/** A date column as `Date`: SQLite keeps epoch ms, MySQL answers a `Date` or a UTC string. */
export function dateOf(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  const s = String(value);
  if (typeof value === 'number' || /^\d+$/.test(s)) return new Date(Number(s));
  return new Date(s.includes('T') ? s : s.replace(' ', 'T') + 'Z');
}

/** A `logs` row (snake_case) as `logs/page` shows it. */
export function presentLog(r: Record<string, any>): LogItem {
  return {
    id: r.id,
    title: r.title,
    type: r.type as LogKind,
    host: r.host ?? null,
    uri: r.uri,
    method: r.method,
    params: r.params ?? null,
    responseCode: Number(r.response_code),
    httpStatus: Number(r.http_status),
    timeMs: Number(r.time_ms),
    userId: r.user_id ?? null,
    username: r.username ?? null,
    tenantId: r.tenant_id ?? null,
    requestId: r.request_id,
    ip: r.ip ?? null,
    userAgent: r.user_agent ?? null,
    createdAt: (dateOf(r.created_at) ?? new Date(0)).toISOString(),
  };
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a leading `=`,
 * `+`, `-`, `@` (or tab/CR) gets a `'` so that a spreadsheet shows it instead of running it.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header line of the export. */
export function csvHeader(): string {
  return LOG_CSV_COLUMNS.join(',') + '\r\n';
}

/** One line of the export. */
export function csvLine(item: LogItem): string {
  return LOG_CSV_COLUMNS.map((c) => csvField(item[c])).join(',') + '\r\n';
}
