import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { policyUpdatePlugin } from './index';

describe('policy-update manifest', () => {
  it('serves /project/update-policy with its own panel, loaded on demand', async () => {
    expect(policyUpdatePlugin.routes).toEqual([expect.objectContaining({ path: '/project/update-policy', panels: ['policy-update.list'] })]);
    expect(typeof (await policyUpdatePlugin.panels[0]!.load())).toBe('function');
  });

  it('opens its page from the palette keeping the project link, titled in both languages', async () => {
    const h = createTestHost({ plugins: [trainingsKitPlugin, policyUpdatePlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/deploy', search: { projectId: 'P1', solutionId: 'S1', x: '1' } } });
    await h.execute('policy-update.open');
    expect(h.location()).toEqual({ pathname: '/project/update-policy', search: { projectId: 'P1', solutionId: 'S1' } });
    expect(h.i18n.t('policy-update:commands.open')).toBe('Update a policy');
    const zh = createTestHost({ plugins: [trainingsKitPlugin, policyUpdatePlugin], locale: 'zh-CN' });
    expect(zh.i18n.t('policy-update:commands.open')).not.toBe('Update a policy');
  });

  it('is in the side menu of the project area only', () => {
    const ctx = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, search: {} };
    const item = policyUpdatePlugin.menuItems[0]!;
    expect(item.command).toBe('policy-update.open');
    expect(item.when!({ ...ctx, pathname: '/project/deploy' })).toBe(true);
    expect(item.when!({ ...ctx, pathname: '/dashboard' })).toBe(false);
  });
});
