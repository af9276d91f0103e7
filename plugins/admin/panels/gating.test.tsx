import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import type { AdminUserListItem, MenuItem, RoleItem, TenantItem } from '@decisio/domain';
import { adminPlugin } from '../index';

const panel = (id: string) => adminPlugin.panels.find((p) => p.id === id)!;
const OWN = 'f'.repeat(32);
const at = '2026-11-01T00:00:00.000Z';
const role = (code: string, name: string, extra: Partial<RoleItem> = {}): RoleItem => ({ id: code.padEnd(32, '0'), code, name, tenantId: null, isSystem: false, permissions: [], sort: 1, createdAt: at, ...extra });
const ROLES = [role('admin', 'System administrator', { isSystem: true, permissions: ['*'] }), role('tenant-admin', 'Tenant administrator'), role('user', 'User'), role('analyst', 'Analysts', { tenantId: OWN })];
const menu: MenuItem = { id: 'm'.repeat(32), parentId: null, code: 'admin.users', name: 'menu.admin.users', path: '/admin/users', icon: 'people', permission: 'users:read', sort: 10, hidden: false, type: 'page', children: [] } as unknown as MenuItem;
const tenant = (id: string, code: string, name: string, userCount: number): TenantItem => ({ id, code, name, status: 'enabled', domain: null, inviteCode: null, storageQuotaBytes: null, maxTrainings: null, maxServices: null, userCount, createdAt: at });
const user = (userId: string, username: string): AdminUserListItem => ({
  userId,
  username,
  nickname: null,
  email: null,
  mobile: null,
  status: 'enabled',
  tenantId: OWN,
  roleList: [{ id: ROLES[1]!.id, code: 'tenant-admin', name: 'Tenant administrator' }],
  createdAt: at,
  signInLockedUntil: null,
  orgId: null,
  mustChangePassword: false,
});

/** A host signed in as `u1` holding `permissions` (a system admin when they hold `'*'`). */
function host(locale: 'en-US' | 'zh-CN', permissions: string[]) {
  const h = createTestHost({ plugins: [adminPlugin], locale, session: { token: 't', userId: 'u1' } });
  h.mockCall('user/getUser', { data: { userId: 'u1', tenantId: OWN, isSystemRole: permissions.includes('*'), roleList: [], permissions, menus: [] } });
  h.mockCall('menus/tree', { data: [menu] });
  h.mockCall('orgs/tree', { data: [{ id: 'o'.repeat(32), name: 'Sales', parentId: null, tenantId: OWN, sort: 0, userCount: 0, children: [] }] });
  h.mockCall('orgs/list', { data: [] });
  h.mockCall('roles/list', { data: ROLES });
  const tenants = [tenant(OWN, 'default', 'Default', 2), tenant('9'.repeat(32), 'acme', 'Acme', 0)];
  h.mockCall('tenant/list', { data: tenants });
  h.mockCall('tenant/page', { data: { rows: tenants, total: 2, page: 1, pageSize: 20 } });
  h.mockCall('users/getUserList', { data: { rows: [user('u1', 'me_myself'), user('u2', 'someone')], total: 2, page: 1, pageSize: 20 } });
  return h;
}

const TENANT_ADMIN = ['users:read', 'users:write', 'roles:read', 'roles:write', 'menus:read', 'orgs:read', 'orgs:write', 'tenants:read'];
const button = (row: HTMLElement, name: string) => within(row).getByRole('button', { name }) as HTMLButtonElement;

describe('admin screens: write buttons follow the permissions', () => {
  afterEach(() => cleanup());

  it('menus: a tenant admin (menus:read only) gets no add, add below, edit or delete; a system admin does', async () => {
    await renderPanel(panel('admin.menus'), { host: host('en-US', TENANT_ADMIN) });
    const row = await screen.findByTestId('admin-menu-row');
    expect(screen.queryByTestId('admin-menus-add')).toBeNull();
    for (const name of ['Add below', 'Edit', 'Delete']) expect(within(row).queryByRole('button', { name })).toBeNull();
    cleanup();
    await renderPanel(panel('admin.menus'), { host: host('en-US', ['*']) });
    const sysRow = await screen.findByTestId('admin-menu-row');
    expect(screen.getByTestId('admin-menus-add')).toBeTruthy();
    for (const name of ['Add below', 'Edit', 'Delete']) expect(button(sysRow, name).disabled).toBe(false);
  });

  it('users, roles and organisations: read-only permissions hide their write buttons; tenants: only system admins change them', async () => {
    const readOnly = ['users:read', 'roles:read', 'orgs:read', 'tenants:read', 'tenants:write'];
    for (const [id, rowId, addId] of [
      ['admin.users', 'admin-user-row', 'admin-users-add'],
      ['admin.roles', 'admin-role-row', 'admin-roles-add'],
      ['admin.orgs', 'admin-org-row', 'admin-orgs-add'],
      ['admin.tenants', 'admin-tenant-row', 'admin-tenants-add'],
    ] as const) {
      await renderPanel(panel(id), { host: host('en-US', readOnly) });
      const row = (await screen.findAllByTestId(rowId))[0]!;
      expect(screen.queryByTestId(addId), id).toBeNull();
      expect(within(row).queryByRole('button', { name: 'Edit' }), id).toBeNull();
      expect(within(row).queryByRole('button', { name: 'Delete' }), id).toBeNull();
      cleanup();
    }
    // a tenant admin holds users/roles/orgs writes: those screens keep their buttons
    await renderPanel(panel('admin.orgs'), { host: host('en-US', TENANT_ADMIN) });
    expect(await screen.findByTestId('admin-orgs-add')).toBeTruthy();
  });
});

describe('admin screens: actions the server always refuses are disabled with the reason', () => {
  afterEach(() => cleanup());

  it("users: one's own account cannot be edited, stopped, reset or deleted here; others can", async () => {
    await renderPanel(panel('admin.users'), { host: host('en-US', ['*']) });
    const [mine, other] = await screen.findAllByTestId('admin-user-row');
    for (const name of ['Edit', 'Stop', 'Reset password', 'Delete']) {
      expect(button(mine!, name).disabled, name).toBe(true);
      expect(button(mine!, name).title, name).toBe('This is your own account: change it in the user centre');
      expect(button(other!, name).disabled, name).toBe(false);
    }
  });

  it("users: a tenant admin cannot change a system administrator's account", async () => {
    const h = host('en-US', TENANT_ADMIN);
    const root = { ...user('u3', 'root_admin'), roleList: [{ id: ROLES[0]!.id, code: 'admin', name: 'System administrator' }] };
    h.mockCall('users/getUserList', { data: { rows: [root, user('u2', 'someone')], total: 2, page: 1, pageSize: 20 } });
    await renderPanel(panel('admin.users'), { host: h });
    const [sys, other] = await screen.findAllByTestId('admin-user-row');
    for (const name of ['Edit', 'Stop', 'Reset password', 'Delete']) {
      expect(button(sys!, name).title, name).toBe("Only system administrators change a system administrator's account");
      expect(button(other!, name).disabled, name).toBe(false);
    }
  });

  it('roles: the built-in ones are not deleted, the system role not changed, shared ones only by system admins', async () => {
    await renderPanel(panel('admin.roles'), { host: host('en-US', ['*']) });
    await screen.findAllByTestId('admin-role-row');
    const row = (name: string) => screen.getAllByTestId('admin-role-row').find((r) => within(r).queryByText(name))!;
    for (const name of ['Tenant administrator', 'User']) {
      expect(button(row(name), 'Delete').disabled, name).toBe(true);
      expect(button(row(name), 'Delete').title).toBe('A built-in role cannot be deleted');
      expect(button(row(name), 'Edit').disabled, name).toBe(false);
    }
    expect(button(row('System administrator'), 'Edit').title).toBe('The system administrator role holds every permission and cannot be changed');
    expect(button(row('System administrator'), 'Delete').disabled).toBe(true);
    expect(button(row('Analysts'), 'Delete').disabled).toBe(false);
    cleanup();
    await renderPanel(panel('admin.roles'), { host: host('en-US', TENANT_ADMIN) });
    await screen.findAllByTestId('admin-role-row');
    expect(button(row('User'), 'Edit').title).toBe('Only system administrators change roles shared by every tenant');
    expect(button(row('User'), 'Menus and permissions').disabled).toBe(true);
    expect(button(row('Analysts'), 'Edit').disabled).toBe(false);
    expect(button(row('Analysts'), 'Delete').disabled).toBe(false);
  });

  it('tenants: the default one is not deleted, nor one with users; an empty one is', async () => {
    await renderPanel(panel('admin.tenants'), { host: host('en-US', ['*']) });
    const [def, acme] = await screen.findAllByTestId('admin-tenant-row');
    expect(button(def!, 'Delete').disabled).toBe(true);
    expect(button(def!, 'Delete').title).toBe('Sign-ups that match no other tenant join the default tenant: it cannot be deleted');
    expect(button(def!, 'Edit').disabled).toBe(false);
    expect(button(acme!, 'Delete').disabled).toBe(false);
  });
});

describe('admin screens: built-in roles and tenants in the interface language', () => {
  afterEach(() => cleanup());

  it('zh-CN: the seeded role and tenant names are translated by their code; names users typed stay', async () => {
    await renderPanel(panel('admin.roles'), { host: host('zh-CN', ['*']) });
    const table = await screen.findByTestId('admin-roles-table');
    for (const name of ['系统管理员', '租户管理员', '普通用户', 'Analysts']) expect(within(table).getByText(name)).toBeTruthy();
    expect(within(table).queryByText('System administrator')).toBeNull();
    cleanup();

    await renderPanel(panel('admin.users'), { host: host('zh-CN', ['*']) });
    const rows = await screen.findAllByTestId('admin-user-row');
    expect(within(rows[0]!).getByText('租户管理员')).toBeTruthy();
    await waitFor(() => expect([...(screen.getByLabelText('角色') as HTMLSelectElement).options].map((o) => o.textContent)).toContain('普通用户'));
    cleanup();

    await renderPanel(panel('admin.tenants'), { host: host('zh-CN', ['*']) });
    const [def, acme] = await screen.findAllByTestId('admin-tenant-row');
    expect(within(def!).getByText('默认租户')).toBeTruthy();
    expect(within(acme!).getByText('Acme')).toBeTruthy();
  });

  it('a renamed built-in role shows its new name', async () => {
    const h = host('zh-CN', ['*']);
    h.mockCall('roles/list', { data: [role('tenant-admin', 'Branch managers')] });
    await renderPanel(panel('admin.roles'), { host: h });
    expect(await screen.findByText('Branch managers')).toBeTruthy();
  });
});
