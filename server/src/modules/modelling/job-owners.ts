/**
 * What a modelling job works for, for the job contract (`modules/jobs`): the scheme it
 * processes, or the training or deduction record that ran it (its current job, or an earlier
 * run of a restored or updated training). The caller needs the view right on its project.
 * On the event stream, a breakpoint's tensor summaries are a `tensors` notice.
 */
import { AppError, MODELLING_JOB_KINDS } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Database } from '../../db/database';
import type { JobRecord } from '../../jobs/store';
import type { JobOwnerResolver, ResolvedOwner } from '../jobs/sources';
import type { Row } from './common';
import { recordInScope } from '../projects/access';
import { stepOf, TENSORS_LINE } from './engine/job-run';

const OWNER_TYPE: Record<string, string> = { schemes: 'scheme', simulators: 'simulator', policies: 'policy', parameter_searches: 'parameterSearch', deductions: 'deduction' };
const KIND_OF_JOB = new Map<string, string>(Object.entries(MODELLING_JOB_KINDS).map(([k, v]) => [v, k]));

async function recordOf(db: Database, job: JobRecord): Promise<{ table: string; row: Row } | null> {
  const knex = db.knex;
  if (job.kind === MODELLING_JOB_KINDS.scheme) {
    const row = await knex('schemes').where({ process_job_id: job.id, tenant_id: job.tenantId }).first();
    return row ? { table: 'schemes', row } : null;
  }
  for (const table of ['simulators', 'policies', 'parameter_searches', 'deductions']) {
    const row = await knex(table).where({ job_id: job.id, tenant_id: job.tenantId }).first();
    if (row) return { table, row };
  }
  const run = await knex('training_runs').where({ job_id: job.id, tenant_id: job.tenantId }).first('record_table', 'record_id');
  if (!run) return null;
  const row = await knex(String(run.record_table)).where({ id: run.record_id }).first();
  return row ? { table: String(run.record_table), row } : null;
}

/** The owner resolver of the modelling job kinds. */
export function modellingJobOwners(db: Database): JobOwnerResolver {
  return {
    kinds: Object.values(MODELLING_JOB_KINDS),
    async resolve(user: ServerCallUser, job: JobRecord): Promise<ResolvedOwner | null> {
      const rec = await recordOf(db, job);
      if (!rec) return null;
      try {
        await recordInScope(db.knex, user, rec.table, String(rec.row.id), 'view', 'jobNotFound');
      } catch (err) {
        // Without any right on the project the job does not exist for the caller.
        if (err instanceof AppError && ['projectNotFound', 'solutionNotFound', 'jobNotFound'].includes(err.codeName)) return null;
        throw err;
      }
      return {
        kind: KIND_OF_JOB.get(job.kind) ?? job.kind,
        owner: { type: OWNER_TYPE[rec.table] ?? rec.table, id: String(rec.row.id), projectId: String(rec.row.project_id), solutionId: String(rec.row.solution_id) },
      };
    },
    // A debug-mode breakpoint's tensor summaries (up to 60,000 characters, `recordTensors`) are
    // not sent to every client: a small notice with the step tells the debug page to fetch them
    // (`train/getTrainDisplayDataList`).
    lineEvent: (line) => (line.level === 'debug' && line.message.startsWith(TENSORS_LINE) ? { event: 'tensors', data: { step: stepOf(line.message), time: line.time } } : undefined),
  };
}
