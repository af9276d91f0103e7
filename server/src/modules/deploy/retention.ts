/**
 * Retention of decision call records: a busy service writes thousands of rows a second, so rows
 * older than `days` are deleted in the background (first a minute after start, then hourly), in
 * chunks so that no statement holds the table for long. `days = 0` keeps every record.
 */
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { Logger } from '../../logger';

const CHUNK = 5000;
const HOUR = 3600_000;

/** See the module comment. */
export class RecordRetention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
    readonly days: number,
  ) {}

  /** Schedules the purges (no-op when records are kept for ever). */
  start(firstAfterMs = 60_000, everyMs = HOUR): void {
    if (this.days <= 0 || this.timer) return;
    const tick = () => {
      void this.purge()
        .catch((err: unknown) => this.logger.warn('call record retention failed', { err }))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, everyMs).unref();
        });
    };
    this.timer = setTimeout(tick, firstAfterMs).unref();
  }

  /** Deletes the records older than the retention; resolves with how many went. */
  purge(): Promise<number> {
    if (this.days <= 0) return Promise.resolve(0);
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private async run(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.days * 24 * HOUR);
    let total = 0;
    for (;;) {
      const ids = (await this.db.knex('model_service_records').where('started_at', '<', before).limit(CHUNK).pluck('id')) as string[];
      if (ids.length === 0) break;
      total += await this.db.knex('model_service_records').whereIn('id', ids).delete();
      if (ids.length < CHUNK) break;
    }
    if (total > 0) this.logger.info('old call records deleted', { rows: total, before: before.toISOString() });
    return total;
  }

  /** Stops the schedule and waits for a purge in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
