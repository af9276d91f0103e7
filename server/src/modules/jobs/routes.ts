/**
 * The job contract's calls: `POST job/get`, `POST job/wait` and the stream
 * `GET job/events?jobId=` (Server-Sent Events). Authenticated and tenant scoped; the caller's
 * right on what the job works for is checked by its owner resolver (view).
 *
 * The stream (`stream.ts`): `event: state` (a `JobView`, at connect and on every change of state
 * or progress), `event: metrics` (one new point of the job's series, `{id, time, step, <name>:
 * value}`), with `?logs=1` the log lines (`event: log`, or the kind's own event such as a
 * breakpoint's `tensors` notice); the SSE id is the stream's cursor, so a reconnect with
 * `Last-Event-ID` or `?lastEventId=` gets exactly what it missed. The stream ends after a final
 * state; a service's stays open. `GET train/events` is the same stream with the logs (its older
 * name, kept for the API's callers).
 */
import type { Router } from '@koa/router';
import { AppError, jobGetSchema, jobWaitSchema } from '@decisio/domain';
import type { Database } from '../../db/database';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { JobQueue } from '../../jobs/queue';
import { openJobStream } from './stream';
import { JobContract, type Followed } from './service';
import type { JobOwners } from './sources';

/** What `jobsRoutes` needs. */
export interface JobsModuleDeps {
  db: Database;
  jobs: JobQueue;
  owners: JobOwners;
}

/** Mounts the job contract; returns the contract (other modules answer `wait` with it). */
export function jobsRoutes(router: Router<AppState>, kit: RouteKit, deps: JobsModuleDeps): JobContract {
  const contract = new JobContract(deps.jobs, deps.owners);
  const get = kit.validate(jobGetSchema);
  const wait = kit.validate(jobWaitSchema);

  router.post(
    '/job/get',
    kit.auth,
    kit.tenant,
    get,
    reply((ctx: AppContext) => contract.get(ctx.state.user!, get.input(ctx).jobId, ctx.state.locale)),
  );
  router.post(
    '/job/wait',
    kit.auth,
    kit.tenant,
    wait,
    reply(async (ctx: AppContext) => {
      const input = wait.input(ctx);
      const gone = new AbortController();
      const onClose = () => gone.abort();
      ctx.req.on('close', onClose);
      try {
        return await contract.wait(ctx.state.user!, input.jobId, input.state, input.timeoutSeconds * 1000, ctx.state.locale, gone.signal);
      } finally {
        ctx.req.off('close', onClose);
      }
    }),
  );

  // One stream for any job; `train/events` is its older name for a training, logs included.
  const events = (logsAlways: boolean) => async (ctx: AppContext) => {
    const jobId = String(ctx.query.jobId ?? '');
    if (!/^[0-9a-f]{32}$/.test(jobId)) throw new AppError('paramInvalid', { jobId: 'validation.invalid' });
    const user = ctx.state.user!;
    const followed: Followed = await contract.find(user, jobId);
    const logs = logsAlways || ['1', 'true'].includes(String(ctx.query.logs ?? ''));
    const lineEvent = followed.type === 'job' ? deps.owners.resolverOf(followed.job.kind)?.lineEvent : undefined;
    openJobStream(ctx, { db: deps.db, jobs: deps.jobs, contract, user, locale: ctx.state.locale, followed, logs, lineEvent });
  };
  router.get('/job/events', kit.auth, kit.tenant, events(false));
  router.get('/train/events', kit.auth, kit.tenant, events(true));

  return contract;
}
