import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { policyPlugin } from './index';

describe('policy manifest', () => {
  it('serves its addresses with its own panels', () => {
    expect(Object.fromEntries(policyPlugin.routes.map((r) => [r.path, r.panels]))).toEqual({ '/workflow/policy': ['policy.list'], '/workflow/policy/train': ['policy.train'], '/project/policy': ['policy.list'] });
    const panels = new Set<string>(policyPlugin.panels.map((p) => p.id));
    for (const r of policyPlugin.routes) for (const p of r.panels!) expect(panels.has(p as string)).toBe(true);
  });

  it('names its panels in both languages', () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, policyPlugin], locale });
      for (const p of policyPlugin.panels) {
        const title = h.i18n.t(`policy:${p.titleKey}`);
        expect(title).not.toBe(p.titleKey);
        expect(title.length).toBeGreaterThan(0);
      }
    }
  });

  it('offers its pages as palette commands keeping the project link', async () => {
    const link = { projectId: 'P1', solutionId: 'S1' };
    const h = createTestHost({ plugins: [trainingsKitPlugin, policyPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/deploy', search: { ...link, x: '1' } } });
    for (const [id, pathname, title] of [['policy.new', '/workflow/policy/train', 'New policy training']] as const) {
      await h.execute(id);
      expect(h.location()).toEqual({ pathname, search: link });
      expect(h.i18n.t(`policy:${policyPlugin.commands!.find((c) => c.id === id)!.titleKey}`)).toBe(title);
    }
  });
});
