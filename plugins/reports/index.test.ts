import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { reportsPlugin } from './index';

describe('reports manifest', () => {
  it('serves /project/report with its own panel, loaded on demand', async () => {
    expect(reportsPlugin.routes).toEqual([expect.objectContaining({ path: '/project/report', panels: ['reports.list'] })]);
    expect(typeof (await reportsPlugin.panels[0]!.load())).toBe('function');
  });

  it('opens its page from the palette keeping the project link, titled in both languages', async () => {
    const h = createTestHost({ plugins: [trainingsKitPlugin, reportsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/deploy', search: { projectId: 'P1', solutionId: 'S1', x: '1' } } });
    await h.execute('reports.open');
    expect(h.location()).toEqual({ pathname: '/project/report', search: { projectId: 'P1', solutionId: 'S1' } });
    expect(h.i18n.t('reports:commands.open')).toBe('Open analysis reports');
    const zh = createTestHost({ plugins: [trainingsKitPlugin, reportsPlugin], locale: 'zh-CN' });
    expect(zh.i18n.t('reports:commands.open')).not.toBe('Open analysis reports');
  });

  it('is in the side menu of the project area only', () => {
    const ctx = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, search: {} };
    const item = reportsPlugin.menuItems[0]!;
    expect(item.command).toBe('reports.open');
    expect(item.when!({ ...ctx, pathname: '/project/deploy' })).toBe(true);
    expect(item.when!({ ...ctx, pathname: '/dashboard' })).toBe(false);
  });
});
