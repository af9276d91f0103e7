import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import type { AdminUserListItem, RoleItem } from '@decisio/domain';
import { adminPlugin } from '../index';

const panel = adminPlugin.panels.find((p) => p.id === 'admin.users')!;
const role: RoleItem = { id: 'e1'.padEnd(32, '0'), code: 'user', name: 'User', tenantId: null, isSystem: false, permissions: ['projects:use'], sort: 1, createdAt: '2026-11-01T00:00:00.000Z' };
const alice: AdminUserListItem = {
  userId: 'a'.repeat(32),
  username: 'alice_1',
  nickname: null,
  email: 'alice@example.com',
  mobile: null,
  status: 'enabled',
  tenantId: 'f'.repeat(32),
  roleList: [{ id: role.id, code: 'user', name: 'User' }],
  createdAt: '2026-11-01T00:00:00.000Z',
  signInLockedUntil: null,
  orgId: null,
  mustChangePassword: true,
};

function host(locale: 'en-US' | 'zh-CN', rows: AdminUserListItem[]) {
  const h = createTestHost({ plugins: [adminPlugin], locale, session: { token: 't', userId: 'u1' } });
  h.mockCall('user/getUser', { data: { userId: 'u1', tenantId: 'f'.repeat(32), isSystemRole: false, roleList: [], permissions: ['users:read', 'users:write'], menus: [] } });
  h.mockCall('users/getUserList', { data: { rows, total: rows.length, page: 1, pageSize: 20 } });
  h.mockCall('roles/list', { data: [role] });
  h.mockCall('orgs/list', { data: [] });
  return h;
}

describe('UsersPanel', () => {
  afterEach(() => cleanup());

  it('shows the empty state in both languages', async () => {
    for (const [locale, title] of [['en-US', 'No users yet'], ['zh-CN', '还没有用户']] as const) {
      await renderPanel(panel, { host: host(locale, []) });
      expect(await screen.findByText(title)).toBeTruthy();
      cleanup();
    }
  });

  it('lists accounts and shows the temporary password after a reset', async () => {
    const h = host('en-US', [alice]);
    h.mockCall('users/resetPassword', { data: { userId: alice.userId, temporaryPassword: 'Tmp12345abcXYZ' } });
    await renderPanel(panel, { host: h });
    const row = await screen.findByTestId('admin-user-row');
    expect(within(row).getByText('alice_1')).toBeTruthy();
    expect(within(row).getByText('Must change password')).toBeTruthy();
    fireEvent.click(within(row).getByText('Reset password'));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reset password' }));
    const field = (await screen.findByTestId('admin-temporary-password')) as HTMLInputElement;
    expect(field.value).toBe('Tmp12345abcXYZ');
    expect(h.calls.find((c) => c.url === 'users/resetPassword')?.body).toEqual({ userId: alice.userId });
  });

  it("offers the chosen tenant's organisations only in the user form, never the previous tenant's while they load", async () => {
    const [own, other] = ['f'.repeat(32), '9'.repeat(32)];
    const h = host('en-US', [alice]);
    h.mockCall('user/getUser', { data: { userId: 'u1', tenantId: own, isSystemRole: true, roleList: [], permissions: ['users:read', 'users:write'], menus: [] } });
    h.mockCall('tenant/list', { data: [{ id: own, name: 'Own' }, { id: other, name: 'Other' }] });
    h.mockCall('orgs/list', { data: [{ id: '1'.repeat(32), name: 'Own sales', parentId: null, tenantId: own, sort: 0, userCount: 0 }] });
    const gate = heldBack();
    h.mockCall(`orgs/list?tenantId=${other}`, async () => {
      await gate.wait;
      return { data: [{ id: '2'.repeat(32), name: 'Other sales', parentId: null, tenantId: other, sort: 0, userCount: 0 }] };
    });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('admin-users-add'));
    const form = () => within(screen.getByRole('dialog'));
    const org = () => [...(form().getByLabelText('Organisation') as HTMLSelectElement).options].map((o) => o.textContent);
    await waitFor(() => expect(org()).toContain('Own sales'));
    await waitFor(() => expect([...(form().getByLabelText('Tenant') as HTMLSelectElement).options].map((o) => o.textContent)).toContain('Other'));
    fireEvent.change(form().getByLabelText('Tenant'), { target: { value: other } });
    await waitFor(() => expect(h.calls.some((c) => c.url === `orgs/list?tenantId=${other}`)).toBe(true));
    expect(org()).not.toContain('Own sales');
    gate.release();
    await waitFor(() => expect(org()).toContain('Other sales'));
  });

  it('checks the add form with the server schema before sending', async () => {
    const h = host('en-US', [alice]);
    h.mockCall('users/addUser', { data: { userId: 'b'.repeat(32), temporaryPassword: 'Tmp12345abcXYZ' } });
    h.mockCall('users/checkNameAndPhone', { data: { usernameFree: true, mobileFree: null } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('admin-users-add'));
    fireEvent.click(await screen.findByTestId('admin-user-save'));
    await waitFor(() => expect(screen.getByText('Enter 5 to 20 letters, digits, underscores or Chinese characters')).toBeTruthy());
    expect(h.calls.some((c) => c.url === 'users/addUser')).toBe(false);

    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'bob_the_2' } });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'bob@example.com' } });
    fireEvent.click(within(screen.getByTestId('admin-user-roles')).getByLabelText('User'));
    fireEvent.click(screen.getByTestId('admin-user-save'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'users/addUser')?.body).toMatchObject({ username: 'bob_the_2', email: 'bob@example.com', roleIds: [role.id] }));
    expect(((await screen.findByTestId('admin-temporary-password')) as HTMLInputElement).value).toBe('Tmp12345abcXYZ');
  });
});
