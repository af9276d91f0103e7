/**
 * The files a project's modelling work stored and charged to its users' quota (see
 * `modelling/engine/kinds.ts storeFiles` and `modelling/tensorboard.ts`): each scheme's processed
 * data (`schemes.processed_key`), each environment's and policy's artefact folder
 * (`artifact_key`), and the TensorBoard folder of every job its records ran. Deleting a project
 * is final (the spec has no call that restores one): these files can never be read again, so
 * the delete gives their space back and removes them (`ProjectsService.remove`), and the
 * TensorBoard processes of those jobs end with it ({@link DeletedJobs}). The project's
 * datasets are not among them: they stay in their creator's data list, charged, until deleted
 * there.
 *
 * The size given back is what is on disk now, which is what was charged (a training stored
 * again charges or gives back the difference): a later delete of the same record finds nothing
 * and gives nothing back twice.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { artefactOwner, artifactPrefix } from '../storage/artefact-keys';
import type { Database } from '../../db/database';
import type { BlobOwner, BlobStore } from '../storage/blob-store';
import { releaseStorage } from '../storage/quota';

/** A stored file or folder of keys, who pays for it, and its size on disk. */
interface StoredArtefact {
  key: string;
  folder: boolean;
  owner: BlobOwner | null;
  bytes: number;
}

/** Records of a project (or of one of its solutions) and the column of the job each ran last. */
const RECORDS = [
  ['schemes', 'process_job_id'],
  ['simulators', 'job_id'],
  ['policies', 'job_id'],
  ['parameter_searches', 'job_id'],
  ['deductions', 'job_id'],
] as const;

async function bytesUnder(blobs: BlobStore, key: string): Promise<number> {
  const dir = blobs.pathOf(key.replace(/\/+$/, ''));
  let entries;
  try {
    entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return 0;
    throw err;
  }
  let total = 0;
  for (const e of entries) if (e.isFile()) total += (await fsp.stat(path.join(e.parentPath, e.name))).size;
  return total;
}

/** The job rows of a scope's records (their last jobs and earlier runs), and its records' stored keys. */
async function scopeContents(
  knex: Knex,
  scope: { projectId: string; solutionId?: string },
): Promise<{ keys: Array<{ key: string; folder: boolean; tenantId: string }>; jobs: Array<{ id: string; tenant_id: string; user_id: string | null }> }> {
  const keys: Array<{ key: string; folder: boolean; tenantId: string }> = [];
  const jobIds = new Set<string>();
  for (const [table, jobColumn] of RECORDS) {
    const q = knex(table).where({ project_id: scope.projectId });
    if (scope.solutionId) q.andWhere({ solution_id: scope.solutionId });
    const keyColumn = table === 'schemes' ? 'processed_key' : table === 'simulators' || table === 'policies' ? 'artifact_key' : null;
    const rows = (await q.select('id', 'tenant_id', jobColumn, ...(keyColumn ? [keyColumn] : []))) as Record<string, string | null>[];
    const ids = rows.map((r) => r.id!);
    for (const r of rows) {
      if (r[jobColumn]) jobIds.add(r[jobColumn]);
      const key = keyColumn ? r[keyColumn] : null;
      if (key) keys.push({ key, folder: keyColumn !== 'processed_key', tenantId: r.tenant_id! });
    }
    // Earlier runs of the trainings (restores and updates ran other jobs).
    for (let i = 0; i < ids.length; i += 500) {
      const runs = (await knex('training_runs').where({ record_table: table }).whereIn('record_id', ids.slice(i, i + 500)).select('job_id')) as { job_id: string }[];
      for (const run of runs) jobIds.add(run.job_id);
    }
  }
  const all = [...jobIds];
  const jobs: Array<{ id: string; tenant_id: string; user_id: string | null }> = [];
  for (let i = 0; i < all.length; i += 500) jobs.push(...((await knex('jobs').whereIn('id', all.slice(i, i + 500)).select('id', 'tenant_id', 'user_id')) as typeof jobs));
  return { keys, jobs };
}

/** The charged modelling files among a scope's contents, with their sizes and who pays for them. */
async function artefactsOf(blobs: BlobStore, contents: Awaited<ReturnType<typeof scopeContents>>): Promise<StoredArtefact[]> {
  const out: StoredArtefact[] = [];
  for (const { key, folder, tenantId } of contents.keys) {
    out.push({ key, folder, owner: artefactOwner(key, tenantId), bytes: folder ? await bytesUnder(blobs, key) : ((await blobs.stat(key))?.size ?? 0) });
  }
  for (const job of contents.jobs) {
    const key = artifactPrefix(job.user_id, 'tensorboard', job.id);
    const bytes = await bytesUnder(blobs, key);
    if (bytes > 0) out.push({ key, folder: true, owner: job.user_id ? { tenantId: job.tenant_id, userId: job.user_id } : null, bytes });
  }
  return out;
}

/** Told the jobs a committed project or solution delete took with it (their last jobs and earlier runs). */
export type DeletedJobsListener = (jobIds: string[]) => Promise<void>;

/**
 * The listeners of project and solution deletes, one per app: the modelling module ends the
 * TensorBoard processes of the deleted jobs (`modelling/tensorboard.ts stopJobs`).
 */
export class DeletedJobs {
  private readonly listeners: DeletedJobsListener[] = [];

  /** Adds a listener; it runs after each committed delete, in the order added. */
  listen(fn: DeletedJobsListener): void {
    this.listeners.push(fn);
  }

  /** Tells every listener; a failing one does not fail the delete (nor keep the others from running). */
  async notify(jobIds: string[]): Promise<void> {
    if (jobIds.length === 0) return;
    for (const fn of this.listeners) await fn(jobIds).catch(() => undefined);
  }
}

/**
 * Runs a delete of a project or a solution in one transaction and, with `blobs`, purges the
 * scope's modelling files with it: `remove` marks the rows and returns the scope; the files'
 * space is given back in the same transaction, and the files go once it is committed (a file that
 * will not go is left). Without `blobs` the files stay, charged. Once committed, `deleted` (when
 * given) hears of the scope's jobs, so that their TensorBoards end.
 */
export async function deleteWithArtefacts<T>(
  db: Database,
  blobs: BlobStore | undefined,
  remove: () => Promise<{ scope: { projectId: string; solutionId?: string }; result: T }>,
  deleted?: DeletedJobs,
): Promise<T> {
  let purged: StoredArtefact[] = [];
  let jobIds: string[] = [];
  const result = await db.transaction(async () => {
    const done = await remove();
    if (blobs || deleted) {
      const knex = db.executor();
      const contents = await scopeContents(knex, done.scope);
      jobIds = contents.jobs.map((j) => j.id);
      if (blobs) {
        purged = await artefactsOf(blobs, contents);
        for (const a of purged) if (a.owner && a.bytes > 0) await releaseStorage(knex, a.owner, a.bytes);
      }
    }
    return done.result;
  });
  if (blobs) for (const a of purged) await (a.folder ? blobs.removePrefix(a.key) : blobs.remove(a.key)).catch(() => undefined);
  await deleted?.notify(jobIds);
  return result;
}
