/**
 * The job contract's calls: `POST job/get`, `POST job/wait` and the stream
 * `GET job/events?jobId=` (Server-Sent Events). Authenticated and tenant scoped; the caller's
 * right on what the job works for is checked by its owner resolver (view).
 *
 * The stream: `event: state` (a `JobView`, at connect and on every change of state or
 * progress), `event: metrics` (one new metrics point, `{id, time, step, <name>: value}`; its SSE
 * id is the point's id, so a reconnect with `Last-Event-ID` or `?lastEventId=` gets exactly the
 * points it missed). The stream ends after a final state; a service's stays open.
 */
import { PassThrough } from 'node:stream';
import type { Router } from '@koa/router';
import { AppError, jobGetSchema, jobWaitSchema } from '@decisio/domain';
import type { Database } from '../../db/database';
import type { AppContext, AppState } from '../../http/context';
import { reply } from '../../http/envelope';
import type { RouteKit } from '../../http/route';
import type { JobQueue } from '../../jobs/queue';
import { metricsPointsAfter } from './points';
import { JobContract, presentFollowed, type Followed } from './service';
import type { JobOwners } from './sources';

const STREAM_POLL_MS = 2000;

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

  router.get('/job/events', kit.auth, kit.tenant, async (ctx) => {
    const jobId = String(ctx.query.jobId ?? '');
    if (!/^[0-9a-f]{32}$/.test(jobId)) throw new AppError('paramInvalid', { jobId: 'validation.invalid' });
    const user = ctx.state.user!;
    const locale = ctx.state.locale;
    let followed: Followed = await contract.find(user, jobId);
    const resumeFrom = ctx.get('Last-Event-ID') || String(ctx.query.lastEventId ?? '');
    let lastId = /^\d{1,15}$/.test(resumeFrom) ? Number(resumeFrom) : 0;

    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.req.socket.setKeepAlive(true);
    ctx.compress = false;
    ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
    ctx.set('Cache-Control', 'no-cache, no-transform');
    ctx.set('X-Accel-Buffering', 'no');
    const stream = new PassThrough();
    ctx.status = 200;
    ctx.body = stream;

    let closed = false;
    let busy = false;
    let again = false;
    let lastSent = '';
    const send = (event: string, data: unknown, id?: number) => {
      if (!closed) stream.write(`${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const close = () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      clearInterval(timer);
      stream.end();
    };

    const flush = async (): Promise<void> => {
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      try {
        do {
          again = false;
          // The state first: the points written before a final state all go out before the end.
          const next = await contract.refresh(followed, user.tenantId);
          if (!next) {
            close();
            return;
          }
          followed = next;
          if (followed.type === 'job') {
            for (;;) {
              const points = await metricsPointsAfter(deps.db.knex, jobId, lastId);
              for (const p of points) {
                send('metrics', p, p.id);
                lastId = p.id;
              }
              if (points.length < 500 || closed) break;
            }
          }
          const view = presentFollowed(followed, locale);
          const key = `${view.state}|${view.progress}`;
          if (key !== lastSent) {
            lastSent = key;
            send('state', view);
          }
          if (view.final && followed.type === 'job') {
            close();
            return;
          }
        } while (again && !closed);
      } catch {
        close();
      } finally {
        busy = false;
      }
    };

    const unsubscribe = deps.jobs.subscribe((e) => {
      if (e.jobId === jobId && (e.type === 'state' || e.type === 'metrics' || e.type === 'log')) void flush();
    });
    const timer = setInterval(() => {
      if (!closed) stream.write(': ping\n\n');
      void flush();
    }, STREAM_POLL_MS);
    ctx.req.on('close', close);
    stream.write(`retry: ${STREAM_POLL_MS}\n\n`);
    void flush();
  });

  return contract;
}
