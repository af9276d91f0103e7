import { describe, expect, it, vi } from 'vitest';
import { createTestHost } from '@decisio/sdk-plugin/testing';
import { compareLocaleBundles } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

// Every panel module records its evaluation; importing the manifest must record none.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/ProjectWorkbenchPanel', async (orig) => (loaded.push('ProjectWorkbenchPanel'), orig()));
vi.mock('./panels/ComingNextPanel', async (orig) => (loaded.push('ComingNextPanel'), orig()));
vi.mock('./panels/WorkflowRedirect', async (orig) => (loaded.push('WorkflowRedirect'), orig()));
vi.mock('./panels/GuideOverlay', async (orig) => (loaded.push('GuideOverlay'), orig()));

describe('workflow manifest', () => {
  it('loads no panel code when imported', async () => {
    const { workflowPlugin } = await import('./index');
    expect(workflowPlugin.id).toBe('workflow');
    expect(loaded).toEqual([]);
    await workflowPlugin.panels.find((p) => p.id === 'workflow.workbench')!.load();
    expect(loaded).toEqual(['ProjectWorkbenchPanel']);
    // The step guide is an overlay contribution, loaded by the workbench only where it shows.
    expect(workflowPlugin.overlays.map((o) => o.id)).toEqual(['workflow.guide']);
    expect(workflowPlugin).not.toHaveProperty('activate');
    await workflowPlugin.overlays[0]!.load();
    expect(loaded).toEqual(['ProjectWorkbenchPanel', 'GuideOverlay']);
  });

  it('declares the workflow routes and a side menu shown only in the workflow', async () => {
    const { workflowPlugin } = await import('./index');
    expect(workflowPlugin.routes.map((r) => r.path)).toEqual([
      '/workflow',
      '/project/workbench',
    ]);
    expect(workflowPlugin.menuItems.map((m) => m.titleKey)).toEqual([
      'menu.workflow',
      'menu.pattern',
      'menu.dataAccess',
      'menu.scheme',
      'menu.environment',
      'menu.reward',
      'menu.policy',
      'menu.parameter',
      'menu.back',
    ]);
    const when = workflowPlugin.menuItems[0]!.when!;
    const ctx = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, search: {} };
    expect(when({ ...ctx, pathname: '/workflow/pattern' })).toBe(true);
    expect(when({ ...ctx, pathname: '/project/workbench' })).toBe(true);
    expect(when({ ...ctx, pathname: '/dashboard' })).toBe(false);
    // It stays on the other project pages (deploy, reports, ...), so that the steps are one click away.
    expect(when({ ...ctx, pathname: '/project/deploy' })).toBe(true);
    expect(when({ ...ctx, pathname: '/all-project' })).toBe(false);
    // "Back" comes last, after the other plugins' entries of the project area (orders 210-239).
    expect(workflowPlugin.menuItems.map((m) => m.order)).toEqual([200, 201, 202, 203, 204, 205, 206, 207, 290]);
    expect(workflowPlugin.menuItems[4]!.activeOn).toEqual(['/workflow/simulator']);
  });

  it('offers every step as a palette command from anywhere, "back" only in the project area', async () => {
    const { workflowPlugin } = await import('./index');
    const ctx = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, search: {} };
    const cmd = (id: string) => workflowPlugin.commands.find((c) => c.id === id)!;
    expect(cmd('workflow.open-environment').when!({ ...ctx, pathname: '/dashboard' })).toBe(true);
    expect(cmd('workflow.open-environment').when!({ ...ctx, signedIn: false, pathname: '/dashboard' })).toBe(false);
    expect(cmd('workflow.open-back').when!({ ...ctx, pathname: '/dashboard' })).toBe(false);
    expect(cmd('workflow.open-back').when!({ ...ctx, pathname: '/project/deploy' })).toBe(true);
    expect(cmd('workflow.open-environment').titleKey).toBe('commands.environment');
    expect(enUS.commands.environment).toBe('Open environments');
  });

  it('side menu entries carry the project link parameters and drop the others', async () => {
    const { workflowPlugin } = await import('./index');
    const host = createTestHost({
      plugins: [workflowPlugin],
      locale: 'en-US',
      location: { pathname: '/workflow/pattern', search: { projectId: 'P1', solutionId: 'S1', guide: 'true', tab: 'x' } },
    });
    await host.execute('workflow.open-environment');
    expect(host.location()).toEqual({ pathname: '/workflow/simulator', search: { guide: 'true', projectId: 'P1', solutionId: 'S1' } });
    await host.execute('workflow.open-pattern');
    expect(host.location().pathname).toBe('/workflow/pattern');
  });

  it('has the same keys and placeholders in both languages', () => {
    expect(compareLocaleBundles(zhCN, enUS)).toEqual([]);
  });
});
