/**
 * What a `data.import` job works for, for the job contract (`modules/jobs`): its import. Seen by
 * the import's owner and tenant admins, as `metadata/importStatus` is.
 */
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Database } from '../../db/database';
import type { JobRecord } from '../../jobs/store';
import type { JobOwnerResolver, ResolvedOwner } from '../jobs/sources';
import { IMPORT_JOB_KIND } from './job';
import { isTenantAdmin } from './service';

/** The owner resolver of `data.import` jobs. */
export function importJobOwner(db: Database): JobOwnerResolver {
  return {
    kinds: [IMPORT_JOB_KIND],
    async resolve(user: ServerCallUser, job: JobRecord): Promise<ResolvedOwner | null> {
      const q = db.knex('data_imports').where({ job_id: job.id, tenant_id: user.tenantId });
      if (!isTenantAdmin(user)) q.andWhere('owner_id', user.id);
      const row = await q.first('id', 'project_id');
      if (!row) return null;
      return { kind: 'import', owner: { type: 'import', id: String(row.id), projectId: row.project_id ? String(row.project_id) : null, solutionId: null } };
    },
  };
}
