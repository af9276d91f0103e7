/**
 * Cron expressions of scheduled jobs, read by `cron-parser` (five fields, or six with seconds
 * first; `@daily` and the like) in an IANA time zone.
 */
import { CronExpressionParser } from 'cron-parser';
import { AppError, validationKey, type ValidationKey } from '@decisio/domain';

/** True when `zone` is an IANA zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface CronField {
  name: ValidationKey;
  min: number;
  max: number;
  /** Names (upper case) the field takes besides numbers. */
  words: readonly string[];
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
// 'H' is cron-parser's hashed value, 'L' the last day (of the month, or a weekday's last of the month).
const FIELDS: readonly CronField[] = [
  { name: 'cronFieldMinute', min: 0, max: 59, words: ['H'] },
  { name: 'cronFieldHour', min: 0, max: 23, words: ['H'] },
  { name: 'cronFieldDayOfMonth', min: 1, max: 31, words: ['H', 'L'] },
  { name: 'cronFieldMonth', min: 1, max: 12, words: ['H', ...MONTHS] },
  { name: 'cronFieldDayOfWeek', min: 0, max: 7, words: ['H', 'L', ...DAYS] },
];
const SECONDS: CronField = { name: 'cronFieldSecond', min: 0, max: 59, words: ['H'] };

/**
 * Why `cron` is not an expression of five fields (six with seconds first) whose names and values
 * fit their fields, as a field error (`validation.*` key with parameters); null when it is.
 * cron-parser's own messages are English and can mislead (it reads four fields as if some were
 * missing in front and names the range of another field).
 */
export function cronProblem(cron: string): string | null {
  const text = cron.trim();
  if (text.startsWith('@')) return null; // the parser knows the shortcuts (cronAlias otherwise)
  const parts = text.split(/\s+/).filter(Boolean);
  if (parts.length !== 5 && parts.length !== 6) return validationKey('cronFieldCount', { count: parts.length });
  const fields = parts.length === 6 ? [SECONDS, ...FIELDS] : FIELDS;
  for (let i = 0; i < parts.length; i++) {
    const field = fields[i]!;
    const fieldName = `validation.${field.name}`;
    // Tokens: names, numbers, single characters; a number after '/' (a step) or '#' (the nth weekday) is no value of the field.
    const tokens = parts[i]!.match(/[A-Za-z]+|\d+|./g) ?? [];
    for (let j = 0; j < tokens.length; j++) {
      const tok = tokens[j]!;
      const prev = tokens[j - 1];
      if (/^[A-Za-z]+$/.test(tok)) {
        if (!field.words.includes(tok.toUpperCase())) return validationKey('cronName', { name: tok, field: fieldName });
      } else if (/^\d+$/.test(tok) && prev !== '/' && prev !== '#') {
        const value = Number(tok);
        if (value < field.min || value > field.max) return validationKey('cronRange', { field: fieldName, min: field.min, max: field.max, value: tok });
      }
    }
  }
  return null;
}

/**
 * The next `count` run times of `cron` in `timezone` strictly after `after`.
 * @throws AppError `cronInvalid` (field `cron`, or `timezone`), the field error a `validation.*`
 *   key naming the problem ({@link cronProblem}; `cronAlias` for an unknown `@` shortcut,
 *   `cronInvalid` for what only the parser finds, such as a reversed range or 31 February).
 */
export function nextRuns(cron: string, timezone: string, after: Date, count: number): Date[] {
  if (!isTimeZone(timezone)) throw new AppError('cronInvalid', { timezone: 'validation.invalid' }, `Unknown time zone ${timezone}`);
  const problem = cronProblem(cron);
  if (problem) throw new AppError('cronInvalid', { cron: problem }, `Invalid cron expression ${cron}`);
  const out: Date[] = [];
  try {
    const expression = CronExpressionParser.parse(cron, { currentDate: after, tz: timezone, strict: false });
    for (let i = 0; i < count && expression.hasNext(); i++) out.push(expression.next().toDate());
  } catch (err) {
    const text = cron.trim();
    const field = text.startsWith('@') ? validationKey('cronAlias', { name: text }) : validationKey('cronInvalid');
    throw new AppError('cronInvalid', { cron: field }, `Invalid cron expression ${cron}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return out;
}

/** The next run time after `after`, or null when the expression has none. */
export function nextRun(cron: string, timezone: string, after: Date): Date | null {
  return nextRuns(cron, timezone, after, 1)[0] ?? null;
}
