import { describe, expect, it } from 'vitest';
import type { SdkLicenceItem } from '@decisio/domain';
import { deviceFileProblem, toBase64 } from './device-file';
import { licenceNotices } from './notices';

const licence = (over: Partial<SdkLicenceItem>): SdkLicenceItem => ({
  id: 'l1', type: 'offline', edition: 'pro', status: 'success', deviceFileName: 'd.bin', deviceSha256: 'x', contactChannel: 'email', contactTarget: 'a@b.cn',
  reviewOpinion: null, startAt: null, endAt: '2027-01-01T00:00:00.000Z', daysLeft: 20, renewalOf: null, createdAt: '2026-11-01T00:00:00.000Z', username: 'ann', licenceFile: null, ...over,
});

describe('device file checks', () => {
  it('refuses empty files, files over 1 MB and names over 50 characters', () => {
    expect(deviceFileProblem({ name: 'd.bin', size: 0 })).toBe('empty');
    expect(deviceFileProblem({ name: 'd.bin', size: 1024 * 1024 + 1 })).toBe('tooLarge');
    expect(deviceFileProblem({ name: `${'n'.repeat(47)}.bin`, size: 10 })).toBe('nameTooLong');
    expect(deviceFileProblem({ name: `${'n'.repeat(46)}.bin`, size: 1024 * 1024 })).toBeNull();
  });
  it('encodes bytes as base64 the way the server decodes them', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 7) % 256);
    expect(Buffer.from(toBase64(bytes), 'base64').equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('licence notices', () => {
  it('says "expired" and "expires in N days", not for licences being renewed', () => {
    const expired = licence({ id: 'e', status: 'expired', daysLeft: 0 });
    const soon = licence({ id: 's', daysLeft: 3 });
    const later = licence({ id: 'l', daysLeft: 8 });
    const renewed = licence({ id: 'r', status: 'expired', daysLeft: 0 });
    const renewal = licence({ id: 'n', status: 'audit', daysLeft: null, renewalOf: 'r' });
    expect(licenceNotices([expired, soon, later, renewed, renewal])).toEqual([
      { kind: 'expired', licence: expired },
      { kind: 'expiring', licence: soon, days: 3 },
    ]);
  });
});
