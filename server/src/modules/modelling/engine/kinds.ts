/**
 * The modelling job kinds: they really train with `@decisio/learning`. Every handler reads its
 * record by id from the payload, reports progress and metrics (each metrics report is also a
 * point of structured `job_metrics` rows, the series of `train/getTrainDisplayDataList`), saves a
 * checkpoint every few steps (a job restored on another worker resumes from it), in debug mode
 * keeps the tensor summaries of its networks at each breakpoint (a `debug` log line
 * `tensors {...}`), and stores its artefacts in the blob store, charged to the job owner's
 * storage quota. Those shared steps are in `job-run.ts`, the user code (reward, node
 * functions, git) in `user-code.ts`; each training kind's handler lives with its area
 * (`areas/<area>-job.ts`, beside the area's descriptor); this file holds the scheme processing
 * and builds the list the server and the workers register.
 */
import { MODELLING_JOB_KINDS, parseDecisionGraph } from '@decisio/domain';
import type { Database } from '../../../db/database';
import type { JobKind } from '../../../jobs/queue';
import type { BlobStore } from '../../storage/blob-store';
import { parseJson, toDate } from '../common';
import { HostGuard } from '../../../net/host-guard';
import type { Logger } from '../../../logger';
import { applyScheme, describeReport, parseSchemeData } from './scheme';
import { datasetOf, loadCorrelationTable, neededColumns, type Correlation } from './data';
import { need, storeFiles, type ModellingJobEnv, type RecordPayload } from './job-run';
import type { CodeEnv } from './user-code';
import { artifactPrefix } from '../../storage/artefact-keys';
import type { TrainingKinds } from '../training-kinds';

/**
 * The modelling job kinds over a database and a blob store (server and workers build the same):
 * the scheme processing, then the job kind of each registered kind of training (`kinds`).
 */
export function modellingJobKinds(
  { db, blobs, hostGuard, logger }: { db: Database; blobs: BlobStore; /** Default: only public hosts. */ hostGuard?: HostGuard; logger?: Logger },
  kinds: TrainingKinds,
): JobKind<RecordPayload>[] {
  const knex = () => db.knex;
  const codeEnv: CodeEnv = { guard: hostGuard ?? new HostGuard(), logger };

  const scheme: JobKind<RecordPayload> = {
    kind: MODELLING_JOB_KINDS.scheme,
    description: 'Scheme data processing: reads the primary table joined with its related tables, checks it against the decision graph, keeps the processed copy.',
    async run(ctx) {
      const row = await need(db, 'schemes', ctx.payload.id, 'scheme');
      try {
        const pattern = await knex()('modelling_patterns').where({ solution_id: row.solution_id }).first();
        const graphDoc = parseJson<unknown>(pattern?.graph, null);
        const correlation = parseJson<Correlation | null>(pattern?.correlation, null);
        if (!graphDoc || !correlation) throw new Error('The solution has no decision graph or table correlation');
        const graph = parseDecisionGraph(graphDoc);
        // The primary table left-joined with the tables its relations name (engine/join.ts).
        const { table: read } = await loadCorrelationTable(knex(), blobs, ctx.tenantId, correlation, (line, level) => ctx.log(line, level));
        await ctx.reportMetrics(0.3, {});
        // The scheme's range, derived fields, types, filter, partial order and period aggregation.
        const data = parseSchemeData(parseJson<unknown>(row.data, {}));
        const { table: shaped, report } = applyScheme(read, data, { period: row.period ?? null, start: toDate(row.start_time), end: toDate(row.end_time), ...correlation });
        for (const note of report.notes) await ctx.log(`scheme: ${note}`, 'warn');
        await ctx.log(`scheme: ${describeReport(report)}`);
        const dims = data.dimensions;
        const table = neededColumns(graph, shaped, correlation, [...dims.agent, ...dims.otherAgents, ...dims.environment]);
        await ctx.reportMetrics(0.6, {});
        const ds = datasetOf(graph, table, correlation);
        await ctx.log(`${ds.rows} rows, ${ds.trajectoryCount} trajectories`);
        const prefix = artifactPrefix(ctx.userId, 'schemes', row.id);
        const bytes = Buffer.from(JSON.stringify({ graph: graphDoc, correlation, report, columns: Object.fromEntries(Object.entries(table).map(([k, v]) => [k, Array.from(v as ArrayLike<unknown>)])) }));
        await storeFiles(db, blobs, ctx, prefix, { 'processed.json': bytes });
        await knex()('schemes').where({ id: row.id }).update({ process_state: 'completed', processed_key: `${prefix}/processed.json`, rows: ds.rows, updated_at: new Date() });
      } catch (err) {
        await knex()('schemes').where({ id: row.id }).update({ process_state: 'failed', updated_at: new Date() });
        throw err;
      }
    },
  };

  const env: ModellingJobEnv = { db, blobs, codeEnv };

  return [scheme, ...kinds.all().map((d) => d.job(env))];
}
