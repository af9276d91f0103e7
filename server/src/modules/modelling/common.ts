/**
 * The modelling module's basics: what it needs from the composition root, and a row's columns
 * read (JSON text, dates) and shown (`presentRow`: camelCase, JSON parsed, ISO dates, no tenant).
 */
import type { Database } from '../../db/database';
import type { JobQueue } from '../../jobs/queue';
import type { DeletedJobs } from '../projects/artefacts';
import type { BlobStore } from '../storage/blob-store';

/** What the modelling module needs from the composition root. */
export interface ModellingDeps {
  db: Database;
  jobs: JobQueue;
  blobs: BlobStore;
  /** TensorBoard settings of the server config (`TENSORBOARD_BIN`, `TENSORBOARD_IDLE_MINUTES`). */
  tensorBoard?: { bin: string | null; idleMinutes: number };
  /** Project and solution deletes: the TensorBoards of their jobs end with them. */
  deletedJobs?: DeletedJobs;
}

/** A row as knex returns it. */
export type Row = Record<string, any>;

/** Parses a JSON text column (objects from MySQL JSON are passed through). */
export function parseJson<T>(text: unknown, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  if (typeof text !== 'string') return text as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A datetime column as a `Date` (SQLite stores epoch ms). */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  const s = String(value);
  if (/^\d+$/.test(s)) return new Date(Number(s));
  return new Date(s.includes('T') ? s : s.replace(' ', 'T') + 'Z');
}

/** ISO text of a datetime column, or null. */
export function iso(value: unknown): string | null {
  return toDate(value)?.toISOString() ?? null;
}

const JSON_COLUMNS = new Set(['config', 'data', 'files', 'params', 'result', 'graph', 'correlation', 'job_metrics', 'node_scores']);
const DATE_COLUMNS = new Set(['created_at', 'updated_at', 'start_time', 'end_time', 'job_started_at', 'job_ended_at']);
const HIDDEN = new Set(['tenant_id']);

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A record row as the API shows it: camelCase, JSON parsed, ISO dates, no tenant; `alias` repeats the id under that key. */
export function presentRow(row: Row, options: { omit?: readonly string[]; alias?: string } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (options.alias && row.id !== undefined) out[options.alias] = row.id;
  for (const [k, v] of Object.entries(row)) {
    if (HIDDEN.has(k) || options.omit?.includes(k)) continue;
    if (JSON_COLUMNS.has(k)) out[camel(k)] = parseJson(v, null);
    else if (DATE_COLUMNS.has(k)) out[camel(k)] = iso(v);
    else out[camel(k)] = v;
  }
  return out;
}
