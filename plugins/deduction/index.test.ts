import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { deductionPlugin } from './index';

describe('deduction manifest: navigation', () => {
  it('serves the workflow and project addresses of both deductions with real panels', () => {
    const routes = Object.fromEntries(deductionPlugin.routes.map((r) => [r.path, r.panels]));
    expect(routes).toEqual({
      '/workflow/simulator/simulation': ['deduction.simulations'],
      '/workflow/policy/decision': ['deduction.decisions'],
      '/project/simulation': ['deduction.simulations'],
      '/project/decision': ['deduction.decisions'],
    });
    const panels = new Set<string>(deductionPlugin.panels.map((p) => p.id));
    for (const r of deductionPlugin.routes) for (const p of r.panels!) expect(panels.has(p as string)).toBe(true);
  });

  it('opens the deductions from the palette keeping the project link, in both languages', async () => {
    const link = { projectId: 'P1', solutionId: 'S1' };
    const h = createTestHost({ plugins: [trainingsKitPlugin, deductionPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/deploy', search: { ...link, x: '1' } } });
    await h.execute('deduction.open-simulation');
    expect(h.location()).toEqual({ pathname: '/workflow/simulator/simulation', search: link });
    await h.execute('deduction.open-decision');
    expect(h.location()).toEqual({ pathname: '/workflow/policy/decision', search: link });
    expect(h.i18n.t('deduction:commands.simulation')).toBe('Open simulation deduction');
    const zh = createTestHost({ plugins: [trainingsKitPlugin, deductionPlugin], locale: 'zh-CN' });
    expect(zh.i18n.t('deduction:commands.decision')).toBe('打开决策推演');
  });

  it('adds both deductions to the project area’s side menu only', () => {
    const ctx = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, search: {} };
    const item = (id: string) => deductionPlugin.menuItems.find((m) => m.id === id)!;
    expect(item('deduction.menu-simulation').when!({ ...ctx, pathname: '/project/deploy' })).toBe(true);
    expect(item('deduction.menu-simulation').when!({ ...ctx, pathname: '/dashboard' })).toBe(false);
    expect(item('deduction.menu-decision').activeOn).toContain('/project/decision');
  });
});
