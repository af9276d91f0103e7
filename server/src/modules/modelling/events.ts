/**
 * `GET /api/train/events?jobId=...`: live progress of one training as Server-Sent Events.
 * Every log line of the job is an event whose id is the line's id (`event: metrics` for the
 * metrics points, `event: tensors` `{step, time}` for a debug-mode breakpoint's tensor summaries
 * — the large line itself is not sent —, `event: log` otherwise), so a client that reconnects with `Last-Event-ID` (or
 * `?lastEventId=`) gets exactly what it missed; `event: state` tells the job's state at connect
 * and on every change. The stream ends after the final state. Authenticated like every call
 * (header or `token` cookie: `EventSource` sends cookies); a job of another tenant, or one the
 * caller has no right on, answers `trainNotFound` before the stream opens.
 */
import { PassThrough } from 'node:stream';
import type { Router } from '@koa/router';
import { AppError } from '@decisio/domain';
import type { AppState } from '../../http/context';
import type { RouteKit } from '../../http/route';
import { isFinalState, type JobState } from '../../jobs/states';
import { iso, type ModellingDeps, type Row } from './common';
import { TENSORS_LINE } from './engine/job-run';
import { stepOf, type TrainCalls } from './train';

const POLL_MS = 2000;


export function trainEventsRoute(router: Router<AppState>, kit: RouteKit, deps: ModellingDeps, calls: TrainCalls): void {
  router.get('/train/events', kit.auth, kit.tenant, async (ctx) => {
    const jobId = String(ctx.query.jobId ?? '');
    if (!/^[0-9a-f]{32}$/.test(jobId)) throw new AppError('paramInvalid', { jobId: 'validation.invalid' });
    const user = ctx.state.user!;
    await calls.jobInScope(user, jobId, 'view');
    const resumeFrom = ctx.get('Last-Event-ID') || String(ctx.query.lastEventId ?? '');
    let lastId = /^\d{1,15}$/.test(resumeFrom) ? Number(resumeFrom) : 0;
    let lastState: JobState | null = null;

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
    const send = (event: string, data: unknown, id?: number) => {
      if (!closed) stream.write(`${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const knex = () => deps.db.knex;

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
          // Read the state first: lines written before a final state are all sent before the end.
          const job = await deps.jobs.get(jobId, { tenantId: user.tenantId });
          for (;;) {
            // Only the head of a tensors line is read (its step): the rest can be 60,000 characters.
            const rows: Row[] = await knex()('job_logs')
              .where({ job_id: jobId })
              .andWhere('id', '>', lastId)
              .orderBy('id')
              .limit(500)
              .select('id', 'level', 'created_at', knex().raw('case when level = ? and message like ? then substr(message, 1, 64) else message end as message', ['debug', `${TENSORS_LINE}%`]));
            for (const r of rows) {
              const id = Number(r.id);
              const message = String(r.message);
              if (r.level === 'debug' && message.startsWith('metrics ')) {
                let values: unknown = null;
                try {
                  values = JSON.parse(message.slice('metrics '.length));
                } catch {
                  values = null;
                }
                send('metrics', values, id);
              } else if (r.level === 'debug' && message.startsWith(TENSORS_LINE)) {
                // A debug-mode breakpoint's tensor summaries (up to 60,000 characters): not sent
                // to every client; a small notice with the step tells the debug page to fetch
                // them (`train/getTrainDisplayDataList`).
                send('tensors', { step: stepOf(message), time: iso(r.created_at) }, id);
              } else send('log', { level: r.level, message, time: iso(r.created_at) }, id);
              lastId = id;
            }
            if (rows.length < 500 || closed) break;
          }
          if (job && job.state !== lastState) {
            lastState = job.state;
            send('state', { state: job.state, progress: job.progress, metrics: job.metrics, error: job.error });
          }
          if (!job || isFinalState(job.state)) {
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
      if (e.jobId === jobId) void flush();
    });
    const timer = setInterval(() => {
      if (!closed) stream.write(': ping\n\n');
      void flush();
    }, POLL_MS);
    ctx.req.on('close', close);
    stream.write(`retry: ${POLL_MS}\n\n`);
    void flush();
  });
}
