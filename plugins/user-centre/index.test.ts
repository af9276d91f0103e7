import { describe, expect, it, vi } from 'vitest';
import { compareLocaleBundles } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

// Every module under panels/ records its evaluation; importing the manifest must record none.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/ProfilePanel', async (orig) => (loaded.push('ProfilePanel'), orig()));
vi.mock('./panels/SecurityPanel', async (orig) => (loaded.push('SecurityPanel'), orig()));
vi.mock('./panels/SettingsPanel', async (orig) => (loaded.push('SettingsPanel'), orig()));
vi.mock('./panels/OutboxPanel', async (orig) => (loaded.push('OutboxPanel'), orig()));

describe('user-centre manifest', () => {
  it('declares the user-centre routes and loads no panel code when imported', async () => {
    const { userCentrePlugin } = await import('./index');
    expect(userCentrePlugin.routes.map((r) => r.path)).toEqual(['/user-center', '/user-center/info', '/user-center/security', '/user-center/settings', '/user-center/outbox']);
    expect(loaded).toEqual([]);
    await userCentrePlugin.panels.find((p) => p.id === 'user-centre.security')!.load();
    expect(loaded).toEqual(['SecurityPanel']);
  });

  it('offers the outbox to administrators only, the other pages to every signed-in user', async () => {
    const { userCentrePlugin } = await import('./index');
    const ctx = { locale: 'en-US', theme: 'light', pathname: '/dashboard', search: {}, signedIn: true } as const;
    const outbox = userCentrePlugin.commands.find((c) => c.id === 'user-centre.open-outbox')!;
    expect(outbox.when!({ ...ctx, user: { isSystemRole: true, isStudent: false, isOperation: false, roles: ['admin'] } })).toBe(true);
    expect(outbox.when!({ ...ctx, user: { isSystemRole: false, isStudent: false, isOperation: false, roles: ['user'] } })).toBe(false);
    // The palette also needs the outbox calls' permission (ROUTE_PERMISSIONS.outbox).
    expect(outbox.permissions).toEqual(['outbox:read']);
    const security = userCentrePlugin.commands.find((c) => c.id === 'user-centre.open-security')!;
    expect(security.when!({ ...ctx, signedIn: false })).toBe(false);
    expect(userCentrePlugin.menuItems.filter((m) => m.location === 'user').map((m) => m.to)).toEqual(['/user-center/info', '/user-center/security', '/user-center/settings', '/user-center/outbox']);
  });

  it('has the same keys and placeholders in both languages', () => {
    expect(compareLocaleBundles(zhCN, enUS)).toEqual([]);
  });
});
