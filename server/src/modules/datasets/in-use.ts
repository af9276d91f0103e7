/**
 * Whether a stored environment (a `simulators` row) still needs a dataset. An environment's
 * scheme data is a processed copy (`schemes.processed_key`) and does not read its tables again
 * (the tables a solution's data access names are guarded by the correlation guard in
 * `service.ts`). What an environment does read again, each time it is loaded (policy trainings,
 * parameter searches, deductions), are the datasets an environment update appended
 * (`extraDatasetIds` of its artefact, `engine/data.ts loadVenv`): deleting one of them would
 * make the environment fail with `tableNotFound`. A queued or running update names its datasets
 * in the record's config (`datasetIds`) before its artefact does.
 *
 * The check and the delete are one step with respect to such an update ({@link lockDatasets}):
 * the delete checks and deletes in one transaction that first locks the dataset's row, and the
 * update locks the rows it names in the transaction that writes its config. Whichever comes
 * second waits for the other's commit: an update after the delete finds no dataset
 * (`tableNotFound`), a delete after the update finds the config naming it (`tableInUse`).
 */
import type { Knex } from 'knex';
import type { BlobStore } from '../storage/blob-store';

/** An environment that uses a dataset: its id and name. */
export interface DatasetUser {
  id: string;
  name: string;
}

interface SimulatorRow {
  id: string;
  name: string;
  config: string | null;
  artifact_key: string | null;
}

/**
 * Rows of `table` (environments, data access) whose solution is not deleted: deleting a solution
 * or a project (which deletes its solutions) is final, so they are never read again.
 */
export function live(q: Knex.QueryBuilder, table = 'simulators'): Knex.QueryBuilder {
  return q.whereNotExists(function () {
    void this.select(1).from('solutions').whereRaw(`solutions.id = ${table}.solution_id`).whereNotNull('solutions.deleted_at');
  });
}

/**
 * Locks the rows of `ids` (of `where`'s tenant, and project when given) until the current
 * transaction ends, and returns the ids found. Call it inside `Database.transaction`, before any
 * other read of that transaction: on MariaDB it is `SELECT ... FOR UPDATE` (rows in id order, so
 * that two callers cannot deadlock), and a transaction's first plain read fixes what its later
 * reads see, so reading first would hide a commit the lock waited for. SQLite has no row locks:
 * its transactions begin IMMEDIATE (`db/sqlite-client.ts`) and so run one at a time.
 */
export async function lockDatasets(knex: Knex, ids: readonly string[], where: { tenantId: string; projectId?: string }): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const q = knex('datasets').whereIn('id', [...ids]).where({ tenant_id: where.tenantId });
  if (where.projectId !== undefined) q.where({ project_id: where.projectId });
  const rows = (await q.orderBy('id').forUpdate().select('id')) as Array<{ id: string }>;
  return new Set(rows.map((r) => String(r.id)));
}

function names(config: string | null): string[] {
  try {
    const ids = (JSON.parse(config ?? 'null') as { datasetIds?: unknown } | null)?.datasetIds;
    return Array.isArray(ids) ? ids.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * The first environment of the tenant that uses `dataset` (its update config names it, or its
 * stored artefact's `extraDatasetIds` does), else null. Updates only take datasets of the
 * environment's own project (`train/createTrainUpdate`) and a dataset keeps its project, so
 * artefacts are read for that project's environments only; a dataset of no project is named by
 * none. Environments of deleted solutions and projects do not count ({@link live}).
 */
export async function environmentUsingDataset(
  knex: Knex,
  blobs: BlobStore,
  dataset: { id: string; tenantId: string; projectId: string | null },
): Promise<DatasetUser | null> {
  // Ids are unique 32-hex strings: a config naming it names it in `datasetIds`.
  const configured = (await live(knex('simulators'))
    .where({ tenant_id: dataset.tenantId })
    .where('config', 'like', `%${dataset.id}%`)
    .select('id', 'name', 'config', 'artifact_key')) as SimulatorRow[];
  const named = configured.find((s) => names(s.config).includes(dataset.id));
  if (named) return { id: named.id, name: named.name };
  if (!dataset.projectId) return null;
  const stored = (await live(knex('simulators'))
    .where({ tenant_id: dataset.tenantId, project_id: dataset.projectId })
    .whereNotNull('artifact_key')
    .orderBy('id')
    .select('id', 'name', 'config', 'artifact_key')) as SimulatorRow[];
  for (const s of stored) {
    let extra: unknown;
    try {
      extra = (JSON.parse((await blobs.get(`${s.artifact_key}/venv.json`)).toString('utf8')) as { extraDatasetIds?: unknown }).extraDatasetIds;
    } catch {
      continue; // no artefact yet (or not readable): it names no dataset
    }
    if (Array.isArray(extra) && extra.map(String).includes(dataset.id)) return { id: s.id, name: s.name };
  }
  return null;
}
