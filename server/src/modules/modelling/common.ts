import type { Knex } from 'knex';
import { AppError, type ErrorCodeName } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Database } from '../../db/database';
import type { JobQueue } from '../../jobs/queue';
import { assertSolutionAccess, type ProjectRight, type ProjectRef, type SolutionRef } from '../projects/access';
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

/** Where a record lives: the solution (and project) the caller may reach. */
export interface Scope {
  project: ProjectRef;
  solution: SolutionRef;
}

/** Checks the caller's right on a solution (`solutionNotFound`, `projectNotFound`, `projectNoRight`). */
export async function solutionScope(knex: Knex, user: ServerCallUser, solutionId: string, need: ProjectRight): Promise<Scope> {
  const { project, solution } = await assertSolutionAccess(knex, user, solutionId, need);
  return { project, solution };
}

/**
 * Loads a record of `table` by id within the caller's tenant and checks the right on its
 * solution; `notFound` when missing or of another tenant.
 */
export async function recordInScope(knex: Knex, user: ServerCallUser, table: string, id: string, need: ProjectRight, notFound: ErrorCodeName): Promise<{ row: Row; scope: Scope }> {
  const row = await knex(table).where({ id, tenant_id: user.tenantId }).first();
  if (!row) throw new AppError(notFound);
  const scope = await solutionScope(knex, user, row.solution_id, need);
  return { row, scope };
}

/** Tables whose names must be unique across the solutions of a project (spec workflow §5). */
export const TRAINING_TABLES = ['simulators', 'policies', 'parameter_searches', 'deductions'] as const;

/** Page arguments -> limit/offset. */
export function paging(page = 1, pageSize = 20): { limit: number; offset: number } {
  return { limit: pageSize, offset: (page - 1) * pageSize };
}
