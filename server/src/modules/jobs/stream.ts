/**
 * The one Server-Sent Events set-up of the server's job streams (`GET job/events`, and
 * `GET train/events`, which is the same stream for a training job): headers, keep-alive pings,
 * the database poll beside the queue's events, reconnection and the end after a final state.
 *
 * Events: `state` (a `JobView`, at connect and on every change of state or progress),
 * `metrics` (one new point of the job's series, `{id, time, step, <name>: value}`, read from its
 * `job_metrics` rows, so a client appends it), and with `logs` each log line as `log`
 * `{id, level, message, time}` (only the first `LINE_HEAD` characters are read) or what the job
 * kind's owner resolver makes of it (`lineEvent`, e.g. a breakpoint's `tensors` notice).
 *
 * Reconnection: every event's SSE id is the stream's cursor — the last point sent, and with logs
 * `<point>.<log line id>` —, so `Last-Event-ID` (or `?lastEventId=`) resumes exactly after what
 * the client had. The stream ends after a final state; a job-like item's (a service) stays open.
 */
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { Locale } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Database } from '../../db/database';
import { readPoints } from '../../jobs/metrics';
import type { JobQueue } from '../../jobs/queue';
import { presentFollowed, type Followed, type JobContract } from './service';

/** How often a stream re-reads the database (events of other processes) and pings. */
export const STREAM_POLL_MS = 2000;
/** At most this many characters of a log line are read for the stream. */
export const LINE_HEAD = 1000;

/** A log line as the stream reads it. */
export interface StreamLine {
  id: number;
  level: string;
  /** The first `LINE_HEAD` characters. */
  message: string;
  time: string | null;
}

/** What a job kind makes of a log line on the stream: another event, or null to leave it out. */
export type LineEvent = (line: StreamLine) => { event: string; data: unknown } | null | undefined;

/** One stream. */
export interface JobStreamOptions {
  db: Database;
  jobs: JobQueue;
  contract: JobContract;
  user: ServerCallUser;
  locale: Locale;
  /** The job or item, found with the caller's rights checked. */
  followed: Followed;
  /** Also the job's log lines. */
  logs: boolean;
  /** A kind's own events for some lines (left out: every line is a `log` event). */
  lineEvent?: LineEvent | undefined;
}

/** The stream's cursor, from `Last-Event-ID` / `?lastEventId=`: `<point>` or `<point>.<log id>`. */
export function parseCursor(text: string): { point: number; line: number } {
  const m = /^(\d{1,15})(?:\.(\d{1,15}))?$/.exec(text.trim());
  return m ? { point: Number(m[1]), line: m[2] !== undefined ? Number(m[2]) : 0 } : { point: 0, line: 0 };
}

function isoOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || /^\d+$/.test(String(value))) return new Date(Number(value)).toISOString();
  const s = String(value);
  return new Date(s.includes('T') ? s : s.replace(' ', 'T') + 'Z').toISOString();
}

/** Opens the event stream of `options.followed` as the reply of `ctx`. */
export function openJobStream(ctx: Context, options: JobStreamOptions): void {
  const { db, jobs, contract, user, locale, logs, lineEvent } = options;
  let followed = options.followed;
  const jobId = followed.type === 'job' ? followed.job.id : followed.item.id;
  const cursor = parseCursor(ctx.get('Last-Event-ID') || String(ctx.query.lastEventId ?? ''));
  let lastPoint = cursor.point;
  let lastLine = cursor.line;
  const cursorText = () => (logs ? `${lastPoint}.${lastLine}` : String(lastPoint));

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
  const send = (event: string, data: unknown, withId: boolean) => {
    if (!closed) stream.write(`${withId ? `id: ${cursorText()}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(timer);
    stream.end();
  };

  const sendPoints = async () => {
    for (;;) {
      const points = await readPoints(db.knex, jobId, { afterPoint: lastPoint, limit: 500 });
      for (const p of points) {
        lastPoint = p.id;
        send('metrics', p, true);
      }
      if (points.length < 500 || closed) return;
    }
  };

  const sendLines = async () => {
    const knex = db.knex;
    for (;;) {
      const rows = (await knex('job_logs')
        .where({ job_id: jobId })
        .andWhere('id', '>', lastLine)
        .orderBy('id')
        .limit(500)
        .select('id', 'level', 'created_at', knex.raw('substr(message, 1, ?) as message', [LINE_HEAD]))) as Array<{ id: number | string; level: string; message: string; created_at: unknown }>;
      for (const r of rows) {
        lastLine = Number(r.id);
        const line: StreamLine = { id: lastLine, level: r.level, message: String(r.message), time: isoOf(r.created_at) };
        const own = lineEvent?.(line);
        if (own === null) continue;
        if (own) send(own.event, own.data, true);
        else send('log', line, true);
      }
      if (rows.length < 500 || closed) return;
    }
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
        // The state first: the points and lines written before a final state all go out before the end.
        const next = await contract.refresh(followed, user.tenantId);
        if (!next) {
          close();
          return;
        }
        followed = next;
        if (followed.type === 'job') {
          await sendPoints();
          if (logs) await sendLines();
        }
        const view = presentFollowed(followed, locale);
        const key = `${view.state}|${view.progress}`;
        if (key !== lastSent) {
          lastSent = key;
          send('state', view, false);
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

  const unsubscribe = jobs.subscribe((e) => {
    if (e.jobId === jobId && (e.type === 'state' || e.type === 'metrics' || (logs && e.type === 'log'))) void flush();
  });
  const timer = setInterval(() => {
    if (!closed) stream.write(': ping\n\n');
    void flush();
  }, STREAM_POLL_MS);
  ctx.req.on('close', close);
  stream.write(`retry: ${STREAM_POLL_MS}\n\n`);
  void flush();
}
