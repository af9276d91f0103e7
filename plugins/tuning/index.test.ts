import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { tuningPlugin } from './index';

describe('tuning manifest', () => {
  it('serves its addresses with its own panels', () => {
    expect(Object.fromEntries(tuningPlugin.routes.map((r) => [r.path, r.panels]))).toEqual({ '/workflow/parameter': ['tuning.list'], '/workflow/parameter/train': ['tuning.train'], '/project/parameter': ['tuning.list'] });
    const panels = new Set<string>(tuningPlugin.panels.map((p) => p.id));
    for (const r of tuningPlugin.routes) for (const p of r.panels!) expect(panels.has(p as string)).toBe(true);
  });

  it('names its panels in both languages', () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, tuningPlugin], locale });
      for (const p of tuningPlugin.panels) {
        const title = h.i18n.t(`tuning:${p.titleKey}`);
        expect(title).not.toBe(p.titleKey);
        expect(title.length).toBeGreaterThan(0);
      }
    }
  });

  it('offers its pages as palette commands keeping the project link', async () => {
    const link = { projectId: 'P1', solutionId: 'S1' };
    const h = createTestHost({ plugins: [trainingsKitPlugin, tuningPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/deploy', search: { ...link, x: '1' } } });
    for (const [id, pathname, title] of [['tuning.new', '/workflow/parameter/train', 'New parameter tuning']] as const) {
      await h.execute(id);
      expect(h.location()).toEqual({ pathname, search: link });
      expect(h.i18n.t(`tuning:${tuningPlugin.commands!.find((c) => c.id === id)!.titleKey}`)).toBe(title);
    }
  });
});
