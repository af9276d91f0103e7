import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { businessDecisionPlugin } from './index';

describe('business-decision manifest', () => {
  it('serves /project/business-decision with its own panel, loaded on demand', async () => {
    expect(businessDecisionPlugin.routes).toEqual([expect.objectContaining({ path: '/project/business-decision', panels: ['business-decision.list'] })]);
    expect(typeof (await businessDecisionPlugin.panels[0]!.load())).toBe('function');
  });

  it('opens its page from the palette keeping the project link, titled in both languages', async () => {
    const h = createTestHost({ plugins: [trainingsKitPlugin, businessDecisionPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/deploy', search: { projectId: 'P1', solutionId: 'S1', x: '1' } } });
    await h.execute('business-decision.open');
    expect(h.location()).toEqual({ pathname: '/project/business-decision', search: { projectId: 'P1', solutionId: 'S1' } });
    expect(h.i18n.t('business-decision:commands.open')).toBe('Open business decision');
    const zh = createTestHost({ plugins: [trainingsKitPlugin, businessDecisionPlugin], locale: 'zh-CN' });
    expect(zh.i18n.t('business-decision:commands.open')).not.toBe('Open business decision');
  });

  it('is in the side menu of the project area only', () => {
    const ctx = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, search: {} };
    const item = businessDecisionPlugin.menuItems[0]!;
    expect(item.command).toBe('business-decision.open');
    expect(item.when!({ ...ctx, pathname: '/project/deploy' })).toBe(true);
    expect(item.when!({ ...ctx, pathname: '/dashboard' })).toBe(false);
  });
});
