import { describe, expect, it } from 'vitest';
import { validationMessage } from '../errors/validation';
import { DEPLOY_LIMITS, modelServiceCreateSchema, modelServiceRotateTokenSchema, tokenExpiryAllowed } from './schemas';

const DAY = 86_400_000;
const id = 'a'.repeat(32);

describe('access-token validity', () => {
  it('lies in the future and at most 10 years ahead', () => {
    const now = Date.UTC(2026, 10, 23, 12);
    expect(tokenExpiryAllowed(now + 1, now)).toBe(true);
    expect(tokenExpiryAllowed(now, now)).toBe(false);
    expect(tokenExpiryAllowed(now - DAY, now)).toBe(false);
    expect(tokenExpiryAllowed(Date.UTC(2036, 10, 23, 12), now)).toBe(true);
    expect(tokenExpiryAllowed(now + DEPLOY_LIMITS.tokenValidityMaxDays * DAY, now)).toBe(true);
    expect(tokenExpiryAllowed(now + DEPLOY_LIMITS.tokenValidityMaxDays * DAY + 1, now)).toBe(false);
    expect(tokenExpiryAllowed(Number.NaN, now)).toBe(false);
  });

  it('is an ISO date-time with its offset, null or left out (never expires) on create and rotation', () => {
    const soon = new Date(Date.now() + 30 * DAY);
    const create = modelServiceCreateSchema.parse({ serviceName: 's', policyId: id, tokenExpiresAt: soon.toISOString() });
    expect(create.tokenExpiresAt).toEqual(soon);
    expect(modelServiceCreateSchema.parse({ serviceName: 's', policyId: id }).tokenExpiresAt).toBeUndefined();
    expect(modelServiceRotateTokenSchema.parse({ id, tokenExpiresAt: null }).tokenExpiresAt).toBeNull();
    const offset = modelServiceRotateTokenSchema.parse({ id, tokenExpiresAt: '2027-06-01T10:00:00+08:00' }).tokenExpiresAt;
    expect(offset?.toISOString()).toBe('2027-06-01T02:00:00.000Z');

    for (const bad of [new Date(Date.now() - DAY).toISOString(), new Date(Date.now() + 3654 * DAY).toISOString(), '2027-06-01', 'tomorrow', 12]) {
      const r = modelServiceRotateTokenSchema.safeParse({ id, tokenExpiresAt: bad });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]).toMatchObject({ path: ['tokenExpiresAt'], message: 'validation.tokenExpiry' });
    }
    expect(validationMessage('validation.tokenExpiry', 'en-US')).toBe('Choose an expiry date in the future, at most 10 years ahead');
    expect(validationMessage('validation.tokenExpiry', 'zh-CN')).toBe('请选择未来 10 年内的过期日期');
  });
});
