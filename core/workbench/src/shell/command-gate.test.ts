import { describe, expect, it } from 'vitest';
import type { WorkbenchUser } from '@decisio/sdk-plugin';
import { APP_PLUGINS } from '../main';
import { commandAllowed, commandMenuKey, pageAllowed, pageMenuKey, type PageCatalogue, type SideEntry } from './command-gate';

const side: SideEntry[] = [
  { location: 'side', to: '/gfs/online-trial', activeOn: ['/gfs', '/gfs/model'] },
  { location: 'side', to: '/template-storehouse', menu: '/template-center' },
  { location: 'user', to: '/user-center/service' },
];
const user = (paths: string[], permissions: string[] = []) => ({ menus: paths.map((path) => ({ path, children: [] })), permissions }) as unknown as WorkbenchUser;

describe('pageMenuKey', () => {
  it('decides a page by the catalogue page it is or lies under, the project area by the projects menu, else by its side-menu entry', () => {
    expect(pageMenuKey('/admin/users', side)).toBe('/admin/users');
    expect(pageMenuKey('/template-center/industry/coupon', side)).toBe('/template-center');
    expect(pageMenuKey('/project/deploy', side)).toBe('/all-project');
    expect(pageMenuKey('/workflow/policy/train', side)).toBe('/all-project');
    expect(pageMenuKey('/gfs/model', side)).toBe('/gfs/online-trial');
    expect(pageMenuKey('/template-storehouse', side)).toBe('/template-center');
    // Pages no catalogue page decides: no menu gate (user-menu entries do not count).
    expect(pageMenuKey('/user-center/info', side)).toBeUndefined();
    expect(pageMenuKey('/user-center/service', side)).toBeUndefined();
    expect(pageMenuKey('/contact-us', side)).toBeUndefined();
    expect(pageMenuKey('/jobs', side)).toBeUndefined(); // not under /job
  });

  it('takes a command’s own menu first', () => {
    expect(commandMenuKey({ menu: '/dashboard', opens: '/admin/users' }, side)).toBe('/dashboard');
    expect(commandMenuKey({ opens: '/admin/users' }, side)).toBe('/admin/users');
    expect(commandMenuKey({}, side)).toBeUndefined();
  });
});

describe('commandAllowed', () => {
  const member = user(['/dashboard', '/all-project'], ['projects:use']);
  const admin = user(['/dashboard', '/all-project', '/admin/users'], ['*']);

  it('shows an admin-only command to an admin, not to a member', () => {
    expect(commandAllowed(member, { opens: '/admin/users' }, side)).toBe(false);
    expect(commandAllowed(admin, { opens: '/admin/users' }, side)).toBe(true);
    expect(commandAllowed(member, { opens: '/user-center/outbox', permissions: ['outbox:read'] }, side)).toBe(false);
    expect(commandAllowed(admin, { opens: '/user-center/outbox', permissions: ['outbox:read'] }, side)).toBe(true);
  });

  it('hides a command that opens a page the user cannot reach; keeps the reachable and the ungated ones', () => {
    expect(commandAllowed(member, { opens: '/template-center/industry/coupon' }, side)).toBe(false);
    expect(commandAllowed(member, { opens: '/gfs/model' }, side)).toBe(false);
    expect(commandAllowed(member, { opens: '/project/deploy' }, side)).toBe(true);
    expect(commandAllowed(member, { opens: '/user-center/info' }, side)).toBe(true);
    expect(commandAllowed(member, {}, side)).toBe(true);
  });

  it('hides every gated command until the user is known, never the ungated ones', () => {
    expect(commandAllowed(undefined, { opens: '/dashboard' }, side)).toBe(false);
    expect(commandAllowed(undefined, { permissions: ['outbox:read'] }, side)).toBe(false);
    expect(commandAllowed(undefined, { opens: '/user-center/info' }, side)).toBe(true);
    expect(commandAllowed(undefined, {}, side)).toBe(true);
  });
});

describe('the shipped commands', () => {
  const commands = APP_PLUGINS.flatMap((p) => (p.commands ?? []).map((c) => ({ plugin: p.id, ...c })));
  const sideEntries = APP_PLUGINS.flatMap((p) => p.menuItems ?? []);
  const routes = APP_PLUGINS.flatMap((p) => (p.routes ?? []).map((r) => r.path));
  /** Whether a route path (`/template-center/industry/$industry`) matches a page. */
  const matches = (route: string, page: string) => {
    const a = route.split('/');
    const b = page.split('/');
    return a.length === b.length && a.every((s, i) => s.startsWith('$') || s === b[i]);
  };

  it('each carries the page it opens (a route of some plugin), its menu or its permissions, but for the ones no role decides', () => {
    expect(commands.length).toBeGreaterThan(30);
    const ungated = commands.filter((c) => c.opens === undefined && c.menu === undefined && !c.permissions?.length).map((c) => c.id);
    expect(ungated).toEqual(['account.signOut']);
    const unknownPages = commands.filter((c) => c.opens !== undefined && !routes.some((r) => matches(r, c.opens!))).map((c) => `${c.id} (${c.opens})`);
    expect(unknownPages).toEqual([]);
  });

  it('decides the admin commands by the admin menus', () => {
    for (const key of ['users', 'roles', 'menus', 'orgs', 'tenants']) {
      expect(commandMenuKey(commands.find((c) => c.id === `admin.open-${key}`)!, sideEntries)).toBe(`/admin/${key}`);
    }
  });
});

describe('pageAllowed', () => {
  const pages: PageCatalogue = {
    routes: [
      { path: '/job', panels: ['jobs.list'] },
      { path: '/mixed', panels: [{ panel: 'logs.list' }, { panel: 'free', direction: 'right' }] },
      { path: '/dashboard', panels: ['free'] },
      { path: '/contact-us' },
    ],
    panels: [
      { id: 'jobs.list', permissions: ['jobs:read'] },
      { id: 'logs.list', permissions: ['logs:read'] },
      { id: 'free' },
    ],
  };
  const holding = (permissions: string[]) => ({ permissions }) as unknown as WorkbenchUser;

  it('refuses a page whose every panel needs a permission the user lacks, as the PermissionGate does', () => {
    expect(pageAllowed(holding(['logs:read']), '/job', pages)).toBe(false);
    expect(pageAllowed(holding(['logs:read']), '/job?tab=history', pages)).toBe(false);
    expect(pageAllowed(undefined, '/job', pages)).toBe(false);
    expect(pageAllowed(holding(['jobs:read']), '/job', pages)).toBe(true);
    expect(pageAllowed(holding(['*']), '/job', pages)).toBe(true);
    // one panel the user may open is enough; pages without panels or routes are not gated
    expect(pageAllowed(holding([]), '/mixed', pages)).toBe(true);
    expect(pageAllowed(holding([]), '/dashboard', pages)).toBe(true);
    expect(pageAllowed(holding([]), '/contact-us', pages)).toBe(true);
    expect(pageAllowed(holding([]), '/nowhere', pages)).toBe(true);
  });

  it('hides a command opening such a page, given the pages', () => {
    const open = { opens: '/job' };
    expect(commandAllowed(user(['/job'], ['logs:read']), open, side, pages)).toBe(false);
    expect(commandAllowed(user(['/job'], ['jobs:read']), open, side, pages)).toBe(true);
  });
});
