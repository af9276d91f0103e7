import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import type { AdminUserListItem, MenuItem, RoleItem, TenantItem } from '@decisio/domain';
import { adminPlugin } from '../index';

const panel = (id: string) => adminPlugin.panels.find((p) => p.id === id)!;
const OWN = 'f'.repeat(32);
const at = '2026-11-01T00:00:00.000Z';
const role = (code: string, name: string, extra: Partial<RoleItem> = {}): RoleItem => ({ id: code.padEnd(32, '0'), code, name, tenantId: null, isSystem: false, permissions: [], sort: 1, createdAt: at, ...extra });
// the seeded roles and tenant as the server sends them: named by a translation key (role.<code>, tenant.<code>)
const ROLES = [role('admin', 'role.admin', { isSystem: true, permissions: ['*'] }), role('tenant-admin', 'role.tenant-admin'), role('user', 'role.user'), role('analyst', 'Analysts', { tenantId: OWN })];
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
  roleList: [{ id: ROLES[1]!.id, code: 'tenant-admin', name: 'role.tenant-admin' }],
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
  const tenants = [tenant(OWN, 'default', 'tenant.default', 2), tenant('9'.repeat(32), 'acme', 'Acme', 0)];
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
    const root = { ...user('u3', 'root_admin'), roleList: [{ id: ROLES[0]!.id, code: 'admin', name: 'role.admin' }] };
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

  it('shows no stored key anywhere a role or tenant is named: lists, filters, user form, organisation tenant select, matrix title; in both languages', async () => {
    for (const [locale, admin, tenantAdmin, user, def, edit, matrix, matrixTitle, roleLabel] of [
      ['en-US', 'System administrator', 'Tenant administrator', 'User', 'Default', 'Edit', 'Menus and permissions', 'Menus and permissions of User', 'Role'],
      ['zh-CN', '系统管理员', '租户管理员', '普通用户', '默认租户', '编辑', '菜单与权限', '普通用户 的菜单与权限', '角色'],
    ] as const) {
      const noKey = () => expect(document.body.textContent, locale).not.toMatch(/role\.(admin|tenant-admin|user)|tenant\.default/);
      const options = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => o.textContent);
      // a record users named as a seeded one was is not translated: only the key is
      const h = host(locale, ['*']);
      h.mockCall('roles/list', { data: [...ROLES, role('auditor', 'User', { tenantId: OWN })] });
      await renderPanel(panel('admin.users'), { host: h });
      const [row] = await screen.findAllByTestId('admin-user-row');
      expect(within(row!).getByText(tenantAdmin)).toBeTruthy();
      await waitFor(() => expect(options(screen.getByLabelText(roleLabel))).toEqual(expect.arrayContaining([admin, tenantAdmin, user, 'User', 'Analysts'])));
      await waitFor(() => expect(options(screen.getByTestId('admin-users-tenant'))).toEqual(expect.arrayContaining([def, 'Acme'])));
      fireEvent.click(within(screen.getAllByTestId('admin-user-row')[1]!).getByRole('button', { name: edit }));
      const dialog = within(await screen.findByRole('dialog'));
      const boxes = dialog.getAllByRole('checkbox').map((c) => c.closest('label')?.textContent);
      expect(boxes).toEqual(expect.arrayContaining([admin, tenantAdmin, user, 'User', 'Analysts']));
      expect(boxes.filter((b) => b === 'User')).toHaveLength(locale === 'en-US' ? 2 : 1);
      await waitFor(() => expect(dialog.getByRole('option', { name: def })).toBeTruthy());
      noKey();
      cleanup();

      await renderPanel(panel('admin.orgs'), { host: host(locale, ['*']) });
      await waitFor(() => expect(options(screen.getByTestId('admin-orgs-tenant'))).toContain(def));
      noKey();
      cleanup();

      const withMatrix = host(locale, ['*']);
      withMatrix.mockCall(`roles/menuIds/${ROLES[2]!.id}`, { data: { roleId: ROLES[2]!.id, menuIds: [], permissions: [] } });
      await renderPanel(panel('admin.roles'), { host: withMatrix });
      const userRow = (await screen.findAllByTestId('admin-role-row')).find((r) => within(r).queryByText(user))!;
      fireEvent.click(within(userRow).getByRole('button', { name: matrix }));
      expect(await screen.findByText(matrixTitle)).toBeTruthy();
      noKey();
      cleanup();

      await renderPanel(panel('admin.tenants'), { host: host(locale, ['*']) });
      expect(within((await screen.findAllByTestId('admin-tenant-row'))[0]!).getByText(def)).toBeTruthy();
      noKey();
      cleanup();
    }
  });
});
