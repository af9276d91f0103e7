import { describe, expect, it } from 'vitest';
import { MASK, maskSecrets } from './mask';

describe('maskSecrets', () => {
  it('masks secret keys at any depth, whatever their case or separators', () => {
    const masked = maskSecrets({
      username: 'ada',
      password: 'p',
      oriPassword: 'o',
      confirm_password: 'c',
      nested: { accessToken: 't', list: [{ secret: 's', privateKey: 'k', Authorization: 'a', key: 'x', keep: 1 }] },
      apiKey: 'z',
      empty: { token: '' },
    });
    expect(masked).toEqual({
      username: 'ada',
      password: MASK,
      oriPassword: MASK,
      confirm_password: MASK,
      nested: { accessToken: MASK, list: [{ secret: MASK, privateKey: MASK, Authorization: MASK, key: MASK, keep: 1 }] },
      apiKey: MASK,
      empty: { token: '' },
    });
  });

  it('keeps non-secret values and primitives as they are', () => {
    expect(maskSecrets('x')).toBe('x');
    expect(maskSecrets([1, { keyword: 'k', tokens: 3 }])).toEqual([1, { keyword: 'k', tokens: 3 }]);
  });
});
