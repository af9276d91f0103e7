import { describe, expect, it } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { modellingPlugin, PROJECT_ROUTES } from './index';

describe('modelling manifest: navigation', () => {
  it('serves the project area’s modelling addresses with the real panels', () => {
    expect(Object.fromEntries(PROJECT_ROUTES.map((r) => [r.path, r.panels]))).toEqual({
      '/project/simulator': ['modelling.environments'],
      '/project/simulation': ['modelling.simulations'],
      '/project/policy': ['modelling.policies'],
      '/project/parameter': ['modelling.parameters'],
      '/project/decision': ['modelling.decisions'],
    });
    const paths = modellingPlugin.routes.map((r) => r.path);
    for (const r of PROJECT_ROUTES) expect(paths).toContain(r.path);
    const panels = new Set<string>(modellingPlugin.panels.map((p) => p.id));
    for (const r of PROJECT_ROUTES) for (const p of r.panels!) expect(panels.has(p as string)).toBe(true);
  });

  it('offers new trainings, the deductions and hyperparameters as commands keeping the project link', async () => {
    const h = createTestHost({ plugins: [modellingPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/deploy', search: { projectId: 'P1', solutionId: 'S1', x: '1' } } });
    const link = { projectId: 'P1', solutionId: 'S1' };
    for (const [id, pathname] of [
      ['modelling.new-environment', '/workflow/simulator/train'],
      ['modelling.new-policy', '/workflow/policy/train'],
      ['modelling.open-simulation', '/workflow/simulator/simulation'],
      ['modelling.open-decision', '/workflow/policy/decision'],
      ['modelling.open-hyperparameters', '/hyperparameter'],
    ] as const) {
      await h.execute(id);
      expect(h.location()).toEqual({ pathname, search: link });
    }
    expect(h.i18n.t('modelling:commands.newEnvironment')).toBe('New environment training');
  });

  it('adds the deductions to the project area’s side menu and hyperparameters to the main one', () => {
    const ctx = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, search: {} };
    const item = (id: string) => modellingPlugin.menuItems.find((m) => m.id === id)!;
    expect(item('modelling.menu-simulation').when!({ ...ctx, pathname: '/project/deploy' })).toBe(true);
    expect(item('modelling.menu-simulation').when!({ ...ctx, pathname: '/dashboard' })).toBe(false);
    expect(item('modelling.menu-decision').activeOn).toContain('/project/decision');
    expect(item('modelling.menu-hyperparameters')).toMatchObject({ to: '/hyperparameter', location: 'side' });
  });
});
