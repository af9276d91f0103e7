import { describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/SdkLicencePanel', async (orig) => (loaded.push('SdkLicencePanel'), orig()));
vi.mock('./panels/ServicePanel', async (orig) => (loaded.push('ServicePanel'), orig()));
vi.mock('./panels/AdminLicencesPanel', async (orig) => (loaded.push('AdminLicencesPanel'), orig()));
vi.mock('./panels/ApplyDialog', async (orig) => (loaded.push('ApplyDialog'), orig()));

describe('sdk-licence manifest', () => {
  it('loads no panel code when imported', async () => {
    const { sdkLicencePlugin } = await import('./index');
    expect(sdkLicencePlugin.routes.map((r) => r.path)).toEqual(['/sdk-licence', '/user-center/service', '/admin/licences']);
    expect(loaded).toEqual([]);
  });

  it('shows the review page only to users with licences:write', async () => {
    const { canReview } = await import('./index');
    const base = { locale: 'en-US', theme: 'light', pathname: '/', search: {}, signedIn: true } as const;
    const user = (permissions: string[]) => ({ isSystemRole: false, isStudent: false, isOperation: false, roles: ['user'], permissions });
    expect(canReview({ ...base, user: user(['licences:write']) })).toBe(true);
    expect(canReview({ ...base, user: user(['support:write']) })).toBe(false);
    expect(canReview({ ...base })).toBe(false);
  });
});
