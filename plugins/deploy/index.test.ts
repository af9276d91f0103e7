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

  it('declares the deploy, report, business decision and policy update routes', async () => {
    const { deployPlugin } = await import('./index');
    expect(deployPlugin.routes.map((r) => r.path)).toEqual(['/project/deploy', '/project/deploy-detail', '/project/report', '/project/business-decision', '/project/update-policy']);
  });
});
