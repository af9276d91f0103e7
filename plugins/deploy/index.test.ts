import { describe, expect, it, vi } from 'vitest';

// Every panel module records its evaluation; importing the manifest must record none.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/DeployListPanel', async (orig) => (loaded.push('DeployListPanel'), orig()));
vi.mock('./panels/DeployDetailPanel', async (orig) => (loaded.push('DeployDetailPanel'), orig()));

describe('deploy manifest', () => {
  it('loads no panel code when imported, and a panel only when it is opened', async () => {
    const { deployPlugin } = await import('./index');
    expect(deployPlugin.id).toBe('deploy');
    expect(loaded).toEqual([]);
    await deployPlugin.panels.find((p) => p.id === 'deploy.list')!.load();
    expect(loaded).toEqual(['DeployListPanel']);
  });

  it('declares the deploy routes', async () => {
    const { deployPlugin } = await import('./index');
    expect(deployPlugin.routes.map((r) => r.path)).toEqual(['/project/deploy', '/project/deploy-detail']);
  });
});

describe('deploy commands and menu', () => {
  it('opens its pages from the palette keeping the project link; call records open the current service', async () => {
    const { createTestHost } = await import('@decisio/sdk-plugin/testing');
    const { deployPlugin } = await import('./index');
    const h = createTestHost({ plugins: [deployPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/report', search: { projectId: 'P1', solutionId: 'S1', tab: 'x' } } });
    await h.execute('deploy.open-deploy');
    expect(h.location()).toEqual({ pathname: '/project/deploy', search: { projectId: 'P1', solutionId: 'S1' } });
    await h.execute('deploy.open-records');
    expect(h.location()).toEqual({ pathname: '/project/deploy', search: { projectId: 'P1', solutionId: 'S1' } });
    h.services.get((await import('@decisio/sdk-plugin')).navigationServiceRef).navigate('/project/deploy-detail', { search: { projectId: 'P1', serviceId: 'SV1' } });
    await h.execute('deploy.open-records');
    expect(h.location()).toEqual({ pathname: '/project/deploy-detail', search: { projectId: 'P1', serviceId: 'SV1', section: 'records' } });
  });

  it('puts deploy in the side menu of the project area', async () => {
    const { deployPlugin } = await import('./index');
    const ctx = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, search: {} };
    expect(deployPlugin.menuItems.map((m) => m.command)).toEqual(['deploy.open-deploy']);
    const when = deployPlugin.menuItems[0]!.when!;
    expect(when({ ...ctx, pathname: '/workflow/pattern' })).toBe(true);
    expect(when({ ...ctx, pathname: '/project/deploy-detail' })).toBe(true);
    expect(when({ ...ctx, pathname: '/dashboard' })).toBe(false);
    expect(deployPlugin.menuItems[0]!.activeOn).toEqual(['/project/deploy', '/project/deploy-detail']);
  });
});
