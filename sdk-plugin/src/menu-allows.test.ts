import { describe, expect, it } from 'vitest';
import { menuAllows, type WorkbenchUser } from './services';

const user = (menus: WorkbenchUser['menus'], menuPaths: string[]) => ({ menus, menuPaths }) as WorkbenchUser;

describe('menuAllows', () => {
  it('shows catalogue pages only when the user menus hold them, other entries always', () => {
    const u = user(
      [
        { path: '/dashboard', children: [] },
        { path: null, children: [{ path: '/admin/users', children: [] }] },
      ],
      ['/admin/roles', '/admin/users', '/all-project', '/dashboard'],
    );
    expect(menuAllows(u, '/dashboard')).toBe(true);
    expect(menuAllows(u, '/admin/users')).toBe(true);
    expect(menuAllows(u, '/admin/roles')).toBe(false);
    expect(menuAllows(u, '/all-project')).toBe(false);
    expect(menuAllows(u, '/support')).toBe(true); // not a catalogue page
    expect(menuAllows(u, undefined)).toBe(true); // a command entry
    expect(menuAllows(undefined, '/admin/roles')).toBe(true); // user not loaded yet
  });
});
