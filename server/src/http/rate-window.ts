import { AppError } from '@decisio/domain';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { newId } from '../db/ids';

/** What a rate window counts: at most `max` calls per key in `windowMs`. */
export interface RateWindowOptions {
  /** Names the counted calls (`table-data`, ...); windows of different buckets never mix. */
  bucket: string;
  max: number;
  windowMs: number;
}

/**
 * A sliding window of calls per key (a caller's address, an access key's hash) kept in the
 * database (`rate_window_hits`), so every server process of a deployment counts the same calls.
 * Rows older than the window are removed as calls come in.
 */
export class RateWindow {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly options: RateWindowOptions,
  ) {}

  /**
   * Counts one call of `key`.
   * @throws AppError `tooManyRequests` when `key` already made `max` calls in the window (the call is not counted).
   */
  async hit(key: string): Promise<void> {
    const { bucket, max, windowMs } = this.options;
    const knex = this.db.executor();
    const now = this.clock.now();
    const since = new Date(now.getTime() - windowMs);
    const hitKey = key.slice(0, 128);
    await knex('rate_window_hits').where({ bucket }).where('created_at', '<', since).delete();
    const [{ n }] = (await knex('rate_window_hits').where({ bucket, hit_key: hitKey }).where('created_at', '>', since).count({ n: '*' })) as [
      { n: number | string },
    ];
    if (Number(n) >= max) throw new AppError('tooManyRequests');
    await knex('rate_window_hits').insert({ id: newId(), bucket, hit_key: hitKey, created_at: now });
  }
}
