import { describe, expect, it } from 'vitest';
import { AppError, validationMessage } from '@decisio/domain';
import { cronProblem, nextRuns } from './cron';

/** The field error `nextRuns` answers for `cron`, translated as the server's envelope does. */
function cronError(cron: string, locale: 'en-US' | 'zh-CN'): string {
  try {
    nextRuns(cron, 'UTC', new Date('2026-01-01T00:00:00Z'), 1);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).codeName).toBe('cronInvalid');
    return validationMessage((err as AppError).details!['cron']!, locale);
  }
  throw new Error(`"${cron}" was accepted`);
}

describe('cron field errors', () => {
  it('names the wrong number of fields rather than a range of another field', () => {
    expect(cronError('99 * * *', 'en-US')).toBe(
      'A cron expression has 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first; this one has 4',
    );
    expect(cronError('99 * * *', 'zh-CN')).toBe('Cron 表达式应有 5 个字段（分 时 日 月 周），或以秒开头的 6 个字段；当前为 4 个');
    expect(cronError('abc', 'en-US')).toMatch(/this one has 1$/);
    expect(cronError('* * * * * * *', 'en-US')).toMatch(/this one has 7$/);
  });

  it('names the field whose value is out of range, with its range', () => {
    expect(cronError('99 * * * *', 'en-US')).toBe('The minute field must be between 0 and 59; got 99');
    expect(cronError('0 24 * * *', 'zh-CN')).toBe('“时”字段的取值范围为 0 到 23，当前为 24');
    expect(cronError('0 0 0 * *', 'en-US')).toBe('The day-of-month field must be between 1 and 31; got 0');
    expect(cronError('0 0 1 1-13 *', 'en-US')).toBe('The month field must be between 1 and 12; got 13');
    expect(cronError('75 0 0 * * *', 'en-US')).toBe('The second field must be between 0 and 59; got 75');
  });

  it('names an unknown name and its field, and an unknown shortcut', () => {
    expect(cronError('0 0 * FOO *', 'en-US')).toBe('Unknown name "FOO" in the month field');
    expect(cronError('0 0 * * mon-fry', 'zh-CN')).toBe('“周”字段中有无法识别的名称“fry”');
    expect(cronError('@fortnightly', 'en-US')).toBe('Unknown shortcut "@fortnightly": use @yearly, @monthly, @weekly, @daily or @hourly');
  });

  it('gives a translated general message for what only the parser finds', () => {
    expect(cronError('5-1 * * * *', 'en-US')).toBe('Not a valid cron expression: check the ranges and steps of each field');
    expect(cronError('0 0 31 2 *', 'zh-CN')).toBe('Cron 表达式不合法：请检查各字段的范围和步长');
  });

  it('accepts what the parser reads: names, steps, L, nth weekday, shortcuts, seconds', () => {
    for (const ok of ['* * * * *', '*/90 * * * *', '0 8 * JAN-MAR MON-FRI', '0 0 L * *', '0 0 * * 5L', '0 0 * * 1#2', '0 0 ? * 7', '@daily', '0 */5 * * * *']) {
      expect(cronProblem(ok)).toBeNull();
      expect(nextRuns(ok, 'UTC', new Date('2026-01-01T00:00:00Z'), 1)).toHaveLength(1);
    }
  });
});
