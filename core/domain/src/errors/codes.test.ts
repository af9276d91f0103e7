import { describe, expect, it } from 'vitest';
import { ErrorCode, codeName, httpStatusOf } from './codes';
import { messageOf, resolveLocale } from './messages';

describe('error catalogue', () => {
  it('has unique numeric codes', () => {
    const values = Object.values(ErrorCode);
    expect(new Set(values).size).toBe(values.length);
  });
  it('maps codes back to names and HTTP statuses', () => {
    expect(codeName(ErrorCode.tokenExpired)).toBe('tokenExpired');
    expect(httpStatusOf(ErrorCode.tokenExpired)).toBe(401);
    expect(httpStatusOf(ErrorCode.userNotPermission)).toBe(403);
    expect(httpStatusOf(ErrorCode.paramInvalid)).toBe(400);
    expect(httpStatusOf(ErrorCode.success)).toBe(200);
  });
  it('translates every code in both languages', () => {
    for (const name of Object.keys(ErrorCode) as (keyof typeof ErrorCode)[]) {
      expect(messageOf(name, 'en-US')).not.toBe('');
      expect(messageOf(name, 'zh-CN')).not.toBe('');
    }
    expect(messageOf('mustHaveRole', 'en-US')).toMatch(/administrator/);
    expect(resolveLocale('en-US,en;q=0.9')).toBe('en-US');
    expect(resolveLocale(undefined)).toBe('zh-CN');
  });
});
