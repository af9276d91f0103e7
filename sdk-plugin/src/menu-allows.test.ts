import { describe, expect, it } from 'vitest';
import { menuKeyOf } from '@decisio/domain';
import { menuAllows, permissionsAllow, type WorkbenchUser } from './services';

const user = (menus: WorkbenchUser['menus']) => ({ menus, menuPaths: [] }) as unknown as WorkbenchUser;

describe('menuAllows', () => {
  it("shows an entry only when the user's menus hold its catalogue page; an entry naming no page is hidden", () => {
    const u = user([
      { path: '/dashboard', children: [] },
      { path: null, children: [{ path: '/admin/users', children: [] }] },
    ]);
    expect(menuAllows(u, '/dashboard')).toBe(true);
    expect(menuAllows(u, '/admin/users')).toBe(true);
    expect(menuAllows(u, '/admin/roles')).toBe(false);
    expect(menuAllows(u, '/all-project')).toBe(false);
    expect(menuAllows(u, '/support')).toBe(false); // every page is role-controlled now
    expect(menuAllows(u, undefined)).toBe(false);
  });

  it('allows nothing before the user is known, nor to a user without menus (never the unfiltered list)', () => {
    expect(menuAllows(undefined, '/admin/roles')).toBe(false);
    expect(menuAllows(undefined, '/dashboard')).toBe(false);
    expect(menuAllows({} as WorkbenchUser, '/dashboard')).toBe(false);
    expect(menuAllows(user([]), '/dashboard')).toBe(false);
  });


  it('decides an entry by its menu, else its page; the project area by the projects menu', () => {
    expect(menuKeyOf({ to: '/support' })).toBe('/support');
    expect(menuKeyOf({ menu: '/admin/licences', to: '/somewhere' })).toBe('/admin/licences');
    expect(menuKeyOf({ activeOn: ['/project/deploy', '/project/deploy-detail'] })).toBe('/all-project');
    expect(menuKeyOf({ to: '/workflow/pattern' })).toBe('/all-project');
    expect(menuKeyOf({ to: '/workflow' })).toBe('/all-project');
    expect(menuKeyOf({})).toBeUndefined();
    const projects = user([{ path: '/all-project', children: [] }]);
    expect(menuAllows(projects, menuKeyOf({ activeOn: ['/project/report'] }))).toBe(true);
    expect(menuAllows(user([{ path: '/dashboard', children: [] }]), menuKeyOf({ activeOn: ['/project/report'] }))).toBe(false);
  });
});

describe('permissionsAllow', () => {
  it("needs one of the permissions ('*' holds all); no permissions named is no gate; an unknown user holds none", () => {
    const member = { permissions: ['projects:use'] };
    expect(permissionsAllow(member, ['projects:use'])).toBe(true);
    expect(permissionsAllow(member, ['users:read'])).toBe(false);
    expect(permissionsAllow(member, ['users:read', 'projects:use'])).toBe(true);
    expect(permissionsAllow({ permissions: ['*'] }, ['users:read'])).toBe(true);
    expect(permissionsAllow({}, ['users:read'])).toBe(false);
    expect(permissionsAllow(undefined, ['users:read'])).toBe(false);
    expect(permissionsAllow(undefined, undefined)).toBe(true);
    expect(permissionsAllow(undefined, null)).toBe(true);
    expect(permissionsAllow(member, [])).toBe(true);
  });
});
