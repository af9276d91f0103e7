import { describe, expect, it, vi } from 'vitest';

// Every panel module records its evaluation; importing the manifest must record none.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/ProjectListPanel', async (orig) => (loaded.push('ProjectListPanel'), orig()));
vi.mock('./panels/SolutionListPanel', async (orig) => (loaded.push('SolutionListPanel'), orig()));
vi.mock('./panels/ActivityPanel', async (orig) => (loaded.push('ActivityPanel'), orig()));
vi.mock('./panels/SharedProjectPanel', async (orig) => (loaded.push('SharedProjectPanel'), orig()));

describe('projects manifest', () => {
  it('loads no panel code when imported, and a panel only when it is opened', async () => {
    const { projectsPlugin } = await import('./index');
    expect(projectsPlugin.id).toBe('projects');
    expect(loaded).toEqual([]);
    await projectsPlugin.panels.find((p) => p.id === 'projects.list')!.load();
    expect(loaded).toEqual(['ProjectListPanel']);
  });

  it('declares the /all-project layout and the share-link route', async () => {
    const { projectsPlugin } = await import('./index');
    expect(projectsPlugin.routes.map((r) => r.path)).toEqual(['/all-project', '/shared-project']);
    expect(projectsPlugin.menuItems[0]).toMatchObject({ location: 'side', to: '/all-project' });
  });
});
