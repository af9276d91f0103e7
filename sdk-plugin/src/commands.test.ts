import { describe, expect, it } from 'vitest';
import { inProjectArea, openPageCommand } from './commands';
import { createTestHost } from './testing';
import { definePlugin } from './plugin';

describe('openPageCommand', () => {
  const plugin = definePlugin({
    id: 'demo',
    commands: [
      openPageCommand({ id: 'demo.open', titleKey: 't', to: '/project/deploy', keywords: ['deploy'] }),
      openPageCommand({ id: 'demo.service', titleKey: 't', to: '/project/deploy', extra: (q) => (q.serviceId ? { to: '/project/deploy-detail', search: { serviceId: q.serviceId } } : undefined) }),
    ],
  });

  it('opens its page keeping only the project link parameters', async () => {
    const h = createTestHost({ plugins: [plugin], location: { pathname: '/workflow/pattern', search: { guide: 'true', projectId: 'P1', solutionId: 'S1', tab: 'x' } } });
    await h.execute('demo.open');
    expect(h.location()).toEqual({ pathname: '/project/deploy', search: { guide: 'true', projectId: 'P1', solutionId: 'S1' } });
    expect(plugin.commands[0]!.keywords).toEqual(['deploy']);
  });

  it('lets a command keep more parameters or open another page', async () => {
    const h = createTestHost({ plugins: [plugin], location: { pathname: '/project/deploy-detail', search: { projectId: 'P1', serviceId: 'SV' } } });
    await h.execute('demo.service');
    expect(h.location()).toEqual({ pathname: '/project/deploy-detail', search: { projectId: 'P1', serviceId: 'SV' } });
    await h.execute('demo.open');
    expect(h.location()).toEqual({ pathname: '/project/deploy', search: { projectId: 'P1' } });
    await h.execute('demo.service');
    expect(h.location()).toEqual({ pathname: '/project/deploy', search: { projectId: 'P1' } });
  });

  it('carries the page it opens, and its menu and permissions when given, for the palette to decide who sees it', () => {
    expect(plugin.commands[0]).toMatchObject({ opens: '/project/deploy' });
    const admin = openPageCommand({ id: 'demo.admin', titleKey: 't', to: '/admin/users', menu: '/admin/users', permissions: ['users:read'] });
    expect(admin).toMatchObject({ opens: '/admin/users', menu: '/admin/users', permissions: ['users:read'] });
  });

  it('knows the project area', () => {
    expect(inProjectArea('/workflow')).toBe(true);
    expect(inProjectArea('/workflow/simulator/train')).toBe(true);
    expect(inProjectArea('/project/deploy')).toBe(true);
    expect(inProjectArea('/projects')).toBe(false);
    expect(inProjectArea('/dashboard')).toBe(false);
  });
});
