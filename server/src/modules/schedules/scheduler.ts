import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { Logger } from '../../logger';
import { nextRun } from './cron';
import type { SchedulesService } from './service';
import { dateOf } from '../logs/presenters';

/** Options of the scheduler. */
export interface SchedulerOptions {
  /** How often due schedules are looked for, ms (default 1000). */
  tickMs?: number;
  /** Schedules claimed per tick at most (default 100). */
  batch?: number;
}

/**
 * Fires due schedules. Every server runs one; at each tick exactly one of them claims a due
 * schedule, with one conditional update (`... where id = ? and revision = ? and status =
 * 'running'` moving `next_run_at` on and bumping `revision`), and only the winner puts the run
 * on the job queue, which hands it to one worker. Ticks missed while no server ran (or while the
 * schedule was behind) fire once, then the schedule continues from now.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private readonly tasks: Array<() => Promise<unknown>> = [];

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly schedules: SchedulesService,
    private readonly logger: Logger,
    private readonly options: SchedulerOptions = {},
  ) {}

  start(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => {
      this.running = this.running.then(() => (this.stopped ? 0 : this.tick())).catch((err: unknown) => this.logger.warn('scheduler tick failed', { err }));
    }, this.options.tickMs ?? 1000);
    this.timer.unref();
  }

  /** Work done after the due schedules at every tick (e.g. advancing the policy updates). */
  addTask(task: () => Promise<unknown>): void {
    this.tasks.push(task);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One tick: claims and fires every due schedule this server wins, then runs the tasks; resolves with how many fired. */
  async tick(): Promise<number> {
    const now = this.clock.now();
    const due = (await this.db
      .knex('scheduled_jobs')
      .where('status', 'running')
      .whereNotNull('next_run_at')
      .where('next_run_at', '<=', now)
      .orderBy('next_run_at')
      .limit(this.options.batch ?? 100)) as Record<string, any>[];
    let fired = 0;
    for (const row of due) {
      const firedAt = dateOf(row.next_run_at)!;
      let next: Date | null = null;
      try {
        next = nextRun(row.cron, row.timezone, now);
      } catch (err) {
        // An expression that stopped parsing (a library update): pause it rather than spin.
        this.logger.warn('scheduled job has an invalid expression; paused', { scheduleId: row.id, err });
      }
      const won = await this.db
        .knex('scheduled_jobs')
        .where({ id: row.id, revision: row.revision, status: 'running' })
        .update(next ? { next_run_at: next, last_run_at: firedAt, revision: Number(row.revision) + 1 } : { status: 'paused', next_run_at: null, revision: Number(row.revision) + 1 });
      if (Number(won) !== 1 || !next) continue;
      try {
        await this.schedules.fire({ ...row, last_run_at: firedAt }, 'cron', firedAt);
        fired += 1;
      } catch (err) {
        this.logger.error('scheduled job could not fire', { scheduleId: row.id, err });
      }
    }
    for (const task of this.tasks) {
      try {
        await task();
      } catch (err) {
        this.logger.warn('scheduler task failed', { err });
      }
    }
    return fired;
  }
}
