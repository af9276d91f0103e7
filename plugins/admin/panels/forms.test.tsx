import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import type { MenuItem, RoleItem, TenantItem } from '@decisio/domain';
import { adminPlugin } from '../index';

const panel = (id: string) => adminPlugin.panels.find((p) => p.id === id)!;
const node = (id: string, code: string, name: string, children: MenuItem[] = []) =>
  ({ id: id.repeat(32), parentId: null, code, name, path: null, icon: null, permission: null, sort: 10, hidden: false, type: 'group', children }) as unknown as MenuItem;

function host(locale: 'en-US' | 'zh-CN') {
  const h = createTestHost({ plugins: [adminPlugin], locale, session: { token: 't', userId: 'u1' } });
  h.mockCall('user/getUser', { data: { userId: 'u1', tenantId: 'f'.repeat(32), isSystemRole: true, roleList: [], permissions: ['*'], menus: [] } });
  h.mockCall('users/getUserList', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
  h.mockCall('roles/list', { data: [] });
  h.mockCall('orgs/list', { data: [] });
  h.mockCall('tenant/list', { data: [] });
  h.mockCall('tenant/page', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
  h.mockCall('menus/tree', { data: [node('a', 'admin', 'menu.admin', [node('b', 'admin.users', 'menu.admin.users')]), node('c', 'reports', 'Quarterly reports')] });
  return h;
}

const form = () => within(screen.getByRole('dialog'));

describe('admin forms say the rule a field breaks', () => {
  afterEach(() => cleanup());

  it('user: an empty username, in both languages', async () => {
    for (const [locale, rule] of [
      ['en-US', 'Enter 5 to 20 letters, digits, underscores or Chinese characters'],
      ['zh-CN', '请输入 5 到 20 个字母、数字、下划线或汉字'],
    ] as const) {
      const h = host(locale);
      await renderPanel(panel('admin.users'), { host: h });
      fireEvent.click(await screen.findByTestId('admin-users-add'));
      fireEvent.click(await screen.findByTestId('admin-user-save'));
      expect(await form().findByText(rule)).toBeTruthy();
      expect(h.calls.some((c) => c.url === 'users/addUser')).toBe(false);
      cleanup();
    }
  });

  it('role: an empty code and name', async () => {
    await renderPanel(panel('admin.roles'), { host: host('en-US') });
    fireEvent.click(await screen.findByTestId('admin-roles-add'));
    fireEvent.click(await screen.findByTestId('admin-role-save'));
    expect(await form().findByText('Enter 2 to 64 letters, digits, dots, dashes or underscores, starting with a letter')).toBeTruthy();
    expect(form().getByText('Enter a name of 1 to 100 characters')).toBeTruthy();
  });

  it('tenant: a domain that is not one and a negative storage quota, in both languages', async () => {
    for (const [locale, domainRule, storageRule] of [
      ['en-US', 'Enter a domain such as example.com (letters, digits, dots and dashes), or leave it empty', 'Enter 0 to 500 GB, or leave it empty for no limit'],
      ['zh-CN', '请输入域名，如 example.com（字母、数字、点和连字符），或留空', '请输入 0 到 500 GB，留空表示不限'],
    ] as const) {
      await renderPanel(panel('admin.tenants'), { host: host(locale) });
      fireEvent.click(await screen.findByTestId('admin-tenants-add'));
      const dialog = await screen.findByRole('dialog');
      fireEvent.change(within(dialog).getByPlaceholderText('example.com'), { target: { value: 'not a domain' } });
      fireEvent.change(dialog.querySelector('#admin-tenant-storage')!, { target: { value: '-5' } });
      fireEvent.click(screen.getByTestId('admin-tenant-save'));
      expect(await form().findByText(domainRule)).toBeTruthy();
      expect(form().getByText(storageRule)).toBeTruthy();
      cleanup();
    }
  });
});

describe('menu form', () => {
  afterEach(() => cleanup());

  it('lists the parent menus by name (seeded ones translated), not by code', async () => {
    await renderPanel(panel('admin.menus'), { host: host('en-US') });
    fireEvent.click(await screen.findByTestId('admin-menus-add'));
    const select = (await form().findByLabelText('Parent')) as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.textContent)).toEqual(['(top level)', 'Administration', 'Users', 'Quarterly reports']));
  });

  it("edits a seeded menu under its label, not its stored key; saved unchanged it keeps the key, and a renamed one shows its name", async () => {
    for (const [locale, usersLabel, nameLabel, saveLabel] of [
      ['en-US', 'Users', 'Name', 'Save'],
      ['zh-CN', '用户', '名称', '保存'],
    ] as const) {
      const h = host(locale);
      const users = 'b'.repeat(32);
      h.mockCall('menus/tree', { data: [node('a', 'admin', 'menu.admin', [node('b', 'admin.users', 'menu.admin.users'), node('d', 'admin.roles', 'Team roles')])] });
      h.mockCall(`menus/${users}`, { data: {} });
      await renderPanel(panel('admin.menus'), { host: h });
      // A seeded menu renamed by an administrator shows the new name, not the seeded label.
      const roles = (await screen.findAllByTestId('admin-menu-row')).find((r) => within(r).queryByText('Team roles'));
      expect(roles, locale).toBeTruthy();
      const row = screen.getAllByTestId('admin-menu-row').find((r) => within(r).queryByText(usersLabel))!;
      fireEvent.click(within(row).getByRole('button', { name: locale === 'en-US' ? 'Edit' : '编辑' }));
      const name = (await form().findByLabelText(nameLabel)) as HTMLInputElement;
      expect(name.value).toBe(usersLabel);
      fireEvent.click(form().getByRole('button', { name: saveLabel }));
      await waitFor(() => expect(h.calls.find((c) => c.url === `menus/${users}`)?.body).toMatchObject({ name: 'menu.admin.users' }));
      cleanup();
    }
  });
});

describe('role and tenant forms', () => {
  afterEach(() => cleanup());

  const at = '2026-11-01T00:00:00.000Z';
  const role = (id: string, code: string, name: string): RoleItem => ({ id: id.repeat(32), code, name, tenantId: null, isSystem: false, permissions: [], sort: 1, createdAt: at });
  const tenant = (id: string, code: string, name: string): TenantItem => ({ id: id.repeat(32), code, name, status: 'enabled', domain: null, inviteCode: null, storageQuotaBytes: null, maxTrainings: null, maxServices: null, userCount: 0, createdAt: at });

  it('edit a seeded role or the default tenant under its label, not its stored key; saved unchanged it keeps the key, renamed it takes the new name', async () => {
    for (const [locale, userLabel, defaultLabel, nameLabel, editLabel] of [
      ['en-US', 'User', 'Default', 'Name', 'Edit'],
      ['zh-CN', '普通用户', '默认租户', '名称', '编辑'],
    ] as const) {
      const h = host(locale);
      const [user, managers, def] = [role('a', 'user', 'role.user'), role('b', 'tenant-admin', 'Branch managers'), tenant('c', 'default', 'tenant.default')];
      h.mockCall('roles/list', { data: [user, managers] });
      h.mockCall('tenant/page', { data: { rows: [def], total: 1, page: 1, pageSize: 20 } });
      h.mockCall(`roles/${user.id}`, { data: user });
      h.mockCall('tenant/uplTenant', { data: def });
      const edit = async (rowTestId: string, text: string) => {
        const row = (await screen.findAllByTestId(rowTestId)).find((r) => within(r).queryByText(text));
        expect(row, `${locale} ${text}`).toBeTruthy();
        fireEvent.click(within(row!).getByRole('button', { name: editLabel }));
        return (await form().findByLabelText(nameLabel)) as HTMLInputElement;
      };
      const saved = (url: string) => h.calls.filter((c) => c.url === url).map((c) => (c.body as { name: string }).name);

      await renderPanel(panel('admin.roles'), { host: h });
      // a seeded role an administrator renamed shows its name
      expect(await edit('admin-role-row', 'Branch managers').then((i) => i.value)).toBe('Branch managers');
      fireEvent.click(form().getByRole('button', { name: locale === 'en-US' ? 'Cancel' : '取消' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect((await edit('admin-role-row', userLabel)).value).toBe(userLabel);
      fireEvent.click(screen.getByTestId('admin-role-save'));
      await waitFor(() => expect(saved(`roles/${user.id}`)).toEqual(['role.user']));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      fireEvent.change(await edit('admin-role-row', userLabel), { target: { value: 'Analysts' } });
      fireEvent.click(screen.getByTestId('admin-role-save'));
      await waitFor(() => expect(saved(`roles/${user.id}`)).toEqual(['role.user', 'Analysts']));
      cleanup();

      await renderPanel(panel('admin.tenants'), { host: h });
      expect((await edit('admin-tenant-row', defaultLabel)).value).toBe(defaultLabel);
      fireEvent.click(screen.getByTestId('admin-tenant-save'));
      await waitFor(() => expect(saved('tenant/uplTenant')).toEqual(['tenant.default']));
      cleanup();
    }
  });
});
