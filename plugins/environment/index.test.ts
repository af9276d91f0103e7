import { describe, expect, it } from 'vitest';
import { menuKeyOf } from '@decisio/domain';
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

  it('puts the debug page in the side menu of the project area, gated like the page (projects menu)', async () => {
    const entry = environmentPlugin.menuItems?.find((m) => m.command === 'environment.open-debug');
    expect(entry, 'side-menu entry of the debug page').toBeDefined();
    expect(entry!.location).toBe('side');
    expect(entry!.activeOn).toEqual(['/workflow/debug']);
    // The same catalogue page as the page itself (the project area: the projects menu).
    expect(menuKeyOf(entry!)).toBe(menuKeyOf({ to: '/workflow/debug' }));
    expect(menuKeyOf(entry!)).toBe('/all-project');
    // With the training steps (after parameter search, 207; before the deductions, 210).
    expect(entry!.order).toBeGreaterThan(207);
    expect(entry!.order).toBeLessThan(210);
    const base = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, search: {} };
    expect(entry!.when!({ ...base, pathname: '/workflow/simulator' })).toBe(true);
    expect(entry!.when!({ ...base, pathname: '/project/deploy' })).toBe(true);
    expect(entry!.when!({ ...base, pathname: '/dashboard' })).toBe(false);
    for (const [locale, title] of [['en-US', 'Debug'], ['zh-CN', '调试']] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, environmentPlugin], locale });
      expect(h.i18n.t(`environment:${entry!.titleKey}`)).toBe(title);
    }
    // It runs the palette's command: the debug page, keeping the project link.
    const h = createTestHost({ plugins: [trainingsKitPlugin, environmentPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/simulator', search: { projectId: 'P1', solutionId: 'S1' } } });
    await h.execute(entry!.command!);
    expect(h.location()).toEqual({ pathname: '/workflow/debug', search: { projectId: 'P1', solutionId: 'S1' } });
  });
});
