import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { hyperparametersPlugin } from './index';

describe('hyperparameters manifest', () => {
  it('serves its addresses with its own panels', () => {
    expect(Object.fromEntries(hyperparametersPlugin.routes.map((r) => [r.path, r.panels]))).toEqual({ '/hyperparameter': ['hyperparameters.sets'], '/hyperparameter/custom-model': ['hyperparameters.sets'] });
    const panels = new Set<string>(hyperparametersPlugin.panels.map((p) => p.id));
    for (const r of hyperparametersPlugin.routes) for (const p of r.panels!) expect(panels.has(p as string)).toBe(true);
  });

  it('names its panels in both languages', () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, hyperparametersPlugin], locale });
      for (const p of hyperparametersPlugin.panels) {
        const title = h.i18n.t(`hyperparameters:${p.titleKey}`);
        expect(title).not.toBe(p.titleKey);
        expect(title.length).toBeGreaterThan(0);
      }
    }
  });

  it('offers its pages as palette commands keeping the project link', async () => {
    const link = { projectId: 'P1', solutionId: 'S1' };
    const h = createTestHost({ plugins: [trainingsKitPlugin, hyperparametersPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/deploy', search: { ...link, x: '1' } } });
    for (const [id, pathname, title] of [['hyperparameters.open', '/hyperparameter', 'Open hyperparameter sets']] as const) {
      await h.execute(id);
      expect(h.location()).toEqual({ pathname, search: link });
      expect(h.i18n.t(`hyperparameters:${hyperparametersPlugin.commands!.find((c) => c.id === id)!.titleKey}`)).toBe(title);
    }
  });
});
