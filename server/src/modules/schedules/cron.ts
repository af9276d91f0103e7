/**
 * Cron expressions of scheduled jobs, read by `cron-parser` (five fields, or six with seconds
 * first; `@daily` and the like) in an IANA time zone.
 */
import { CronExpressionParser } from 'cron-parser';
import { AppError } from '@decisio/domain';

/** True when `zone` is an IANA zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The next `count` run times of `cron` in `timezone` strictly after `after`.
 * @throws AppError `cronInvalid` (field `cron`, or `timezone`) with the parser's reason.
 */
export function nextRuns(cron: string, timezone: string, after: Date, count: number): Date[] {
  if (!isTimeZone(timezone)) throw new AppError('cronInvalid', { timezone: 'validation.invalid' }, `Unknown time zone ${timezone}`);
  const out: Date[] = [];
  try {
    const expression = CronExpressionParser.parse(cron, { currentDate: after, tz: timezone, strict: false });
    for (let i = 0; i < count && expression.hasNext(); i++) out.push(expression.next().toDate());
  } catch (err) {
    throw new AppError('cronInvalid', { cron: err instanceof Error ? err.message : String(err) }, 'Invalid cron expression');
  }
  return out;
}

/** The next run time after `after`, or null when the expression has none. */
export function nextRun(cron: string, timezone: string, after: Date): Date | null {
  return nextRuns(cron, timezone, after, 1)[0] ?? null;
}
