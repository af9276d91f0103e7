import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { environmentPlugin } from './index';

describe('environment manifest', () => {
  it('serves its addresses with its own panels', () => {
    expect(Object.fromEntries(environmentPlugin.routes.map((r) => [r.path, r.panels]))).toEqual({ '/workflow/simulator': ['environment.list'], '/workflow/simulator/train': ['environment.train'], '/project/simulator': ['environment.list'], '/workflow/debug': ['environment.debug'] });
    const panels = new Set<string>(environmentPlugin.panels.map((p) => p.id));
    for (const r of environmentPlugin.routes) for (const p of r.panels!) expect(panels.has(p as string)).toBe(true);
  });

  it('names its panels in both languages', () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, environmentPlugin], locale });
      for (const p of environmentPlugin.panels) {
        const title = h.i18n.t(`environment:${p.titleKey}`);
        expect(title).not.toBe(p.titleKey);
        expect(title.length).toBeGreaterThan(0);
      }
    }
  });

  it('offers its pages as palette commands keeping the project link', async () => {
    const link = { projectId: 'P1', solutionId: 'S1' };
    const h = createTestHost({ plugins: [trainingsKitPlugin, environmentPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/deploy', search: { ...link, x: '1' } } });
    for (const [id, pathname, title] of [['environment.new', '/workflow/simulator/train', 'New environment training'], ['environment.open-debug', '/workflow/debug', 'Open the debug page']] as const) {
      await h.execute(id);
      expect(h.location()).toEqual({ pathname, search: link });
      expect(h.i18n.t(`environment:${environmentPlugin.commands!.find((c) => c.id === id)!.titleKey}`)).toBe(title);
    }
  });
});
