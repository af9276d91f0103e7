/**
 * The files a project's modelling work stored and charged to its users' quota (see
 * `modelling/engine/kinds.ts storeFiles` and `modelling/tensorboard.ts`): each scheme's processed
 * data (`schemes.processed_key`), each environment's and policy's artefact folder
 * (`artifact_key`), and the TensorBoard folder of every job its records ran. Deleting a project
 * is final (the spec has no call that restores one): these files can never be read again, so
 * the delete gives their space back and removes them (`ProjectsService.remove`). The project's
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
import { artefactOwner, artifactPrefix } from '../modelling/engine/kinds';
import type { Database } from '../../db/database';
import type { BlobOwner, BlobStore } from '../storage/blob-store';
import { releaseStorage } from '../storage/quota';

/** A stored file or folder of keys, who pays for it, and its size on disk. */
export interface StoredArtefact {
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

/** The charged modelling files of a project, or of one solution of it. */
export async function modellingArtefacts(knex: Knex, blobs: BlobStore, scope: { projectId: string; solutionId?: string }): Promise<StoredArtefact[]> {
  const out: StoredArtefact[] = [];
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
      if (!key) continue;
      if (keyColumn === 'processed_key') out.push({ key, folder: false, owner: artefactOwner(key, r.tenant_id!), bytes: (await blobs.stat(key))?.size ?? 0 });
      else out.push({ key, folder: true, owner: artefactOwner(key, r.tenant_id!), bytes: await bytesUnder(blobs, key) });
    }
    // Earlier runs of the trainings (restores and updates ran other jobs).
    for (let i = 0; i < ids.length; i += 500) {
      const runs = (await knex('training_runs').where({ record_table: table }).whereIn('record_id', ids.slice(i, i + 500)).select('job_id')) as { job_id: string }[];
      for (const run of runs) jobIds.add(run.job_id);
    }
  }
  const jobs = [...jobIds];
  for (let i = 0; i < jobs.length; i += 500) {
    const rows = (await knex('jobs').whereIn('id', jobs.slice(i, i + 500)).select('id', 'tenant_id', 'user_id')) as { id: string; tenant_id: string; user_id: string | null }[];
    for (const job of rows) {
      const key = artifactPrefix(job.user_id, 'tensorboard', job.id);
      const bytes = await bytesUnder(blobs, key);
      if (bytes > 0) out.push({ key, folder: true, owner: job.user_id ? { tenantId: job.tenant_id, userId: job.user_id } : null, bytes });
    }
  }
  return out;
}

/**
 * Runs a delete of a project or a solution in one transaction and, with `blobs`, purges the
 * scope's modelling files with it: `remove` marks the rows and returns the scope; the files'
 * space is given back in the same transaction, and the files go once it is committed (a file that
 * will not go is left). Without `blobs` the files stay, charged.
 */
export async function deleteWithArtefacts<T>(
  db: Database,
  blobs: BlobStore | undefined,
  remove: () => Promise<{ scope: { projectId: string; solutionId?: string }; result: T }>,
): Promise<T> {
  let purged: StoredArtefact[] = [];
  const result = await db.transaction(async () => {
    const done = await remove();
    if (blobs) {
      const knex = db.executor();
      purged = await modellingArtefacts(knex, blobs, done.scope);
      for (const a of purged) if (a.owner && a.bytes > 0) await releaseStorage(knex, a.owner, a.bytes);
    }
    return done.result;
  });
  if (blobs) for (const a of purged) await (a.folder ? blobs.removePrefix(a.key) : blobs.remove(a.key)).catch(() => undefined);
  return result;
}
