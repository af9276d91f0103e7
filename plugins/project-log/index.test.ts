import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { projectLogPlugin } from './index';

describe('project-log manifest', () => {
  it('serves its addresses with its own panels', () => {
    expect(Object.fromEntries(projectLogPlugin.routes.map((r) => [r.path, r.panels]))).toEqual({ '/project/project-log': ['project-log.log'] });
    const panels = new Set<string>(projectLogPlugin.panels.map((p) => p.id));
    for (const r of projectLogPlugin.routes) for (const p of r.panels!) expect(panels.has(p as string)).toBe(true);
  });

  it('names its panels in both languages', () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, projectLogPlugin], locale });
      for (const p of projectLogPlugin.panels) {
        const title = h.i18n.t(`project-log:${p.titleKey}`);
        expect(title).not.toBe(p.titleKey);
        expect(title.length).toBeGreaterThan(0);
      }
    }
  });

  it('offers its pages as palette commands keeping the project link', async () => {
    const link = { projectId: 'P1', solutionId: 'S1' };
    const h = createTestHost({ plugins: [trainingsKitPlugin, projectLogPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/deploy', search: { ...link, x: '1' } } });
    for (const [id, pathname, title] of [['project-log.open', '/project/project-log', 'Open the project log']] as const) {
      await h.execute(id);
      expect(h.location()).toEqual({ pathname, search: link });
      expect(h.i18n.t(`project-log:${projectLogPlugin.commands!.find((c) => c.id === id)!.titleKey}`)).toBe(title);
    }
  });
});
