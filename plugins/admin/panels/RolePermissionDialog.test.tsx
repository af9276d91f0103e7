import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel, withHost } from '@decisio/sdk-plugin/testing';
import type { MenuItem, RoleItem } from '@decisio/domain';
import { adminPlugin } from '../index';
import { adminApi } from '../api';
import { RolePermissionDialog } from './RolePermissionDialog';

const panel = adminPlugin.panels.find((p) => p.id === 'admin.roles')!;
const id = (c: string) => c.padEnd(32, '0');
const viewer: RoleItem = { id: id('e1'), code: 'viewer', name: 'Viewer', tenantId: id('f1'), isSystem: false, permissions: ['dashboard:use'], sort: 100, createdAt: '2026-11-01T00:00:00.000Z' };
const page = (code: string, parentId: string | null, permission: string | null): MenuItem => ({ id: id(code.length.toString(16) + code.charCodeAt(0).toString(16)), parentId, code, name: `menu.${code}`, path: `/${code}`, icon: null, sort: 1, permission, type: 'page', hidden: false, children: [] });
const dashboard = page('dashboard', null, 'dashboard:use');
const admin: MenuItem = { ...page('admin', null, null), id: id('aa'), path: null, type: 'group', children: [] };
const users = page('admin.users', admin.id, 'users:read');
admin.children = [users];

describe('RolePermissionDialog', () => {
  afterEach(() => cleanup());

  it('ticks a group with its pages and saves menus with the write permissions', async () => {
    const h = createTestHost({ plugins: [adminPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    h.mockCall('user/getUser', { data: { userId: 'u1', tenantId: id('f1'), isSystemRole: false, roleList: [], permissions: ['users:read', 'users:write', 'roles:write', 'dashboard:use'], menus: [] } });
    h.mockCall('roles/list', { data: [viewer] });
    h.mockCall('menus/tree', { data: [dashboard, admin] });
    h.mockCall(`roles/menuIds/${viewer.id}`, { data: { roleId: viewer.id, menuIds: [dashboard.id], permissions: ['dashboard:use'] } });
    h.mockCall('roles/permission', (body) => ({ data: { roleId: viewer.id, menuIds: (body as { menuIds: string[] }).menuIds, permissions: [] } }));
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('admin-role-matrix'));
    const dash = (await screen.findByLabelText('Dashboard')) as HTMLInputElement;
    expect(dash.checked).toBe(true);
    fireEvent.click(screen.getByLabelText('Administration'));
    expect((screen.getByLabelText('Users') as HTMLInputElement).checked).toBe(true);
    // Only permissions the caller holds and no menu brings are offered apart.
    expect(screen.getByLabelText('users:write')).toBeTruthy();
    expect(screen.queryByLabelText('tenants:write')).toBeNull();
    fireEvent.click(screen.getByLabelText('users:write'));
    fireEvent.click(screen.getByTestId('admin-matrix-save'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'roles/permission')).toBeTruthy());
    const body = h.calls.find((c) => c.url === 'roles/permission')!.body as { menuIds: string[]; permissions: string[] };
    expect([...body.menuIds].sort()).toEqual([dashboard.id, admin.id, users.id].sort());
    expect(body.permissions).toEqual(['users:write']);
  });
  it("keeps the user's ticks while the role list and the role's menus are fetched again (state kept by role id), and drops them on cancel", async () => {
    const h = createTestHost({ plugins: [adminPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    h.mockCall('user/getUser', { data: { userId: 'u1', tenantId: id('f1'), isSystemRole: false, roleList: [], permissions: ['users:read', 'users:write', 'roles:write', 'dashboard:use'], menus: [] } });
    let listCalls = 0;
    h.mockCall('roles/list', () => ((listCalls += 1), { data: [{ ...viewer, name: `Viewer ${listCalls}` }] }));
    h.mockCall('menus/tree', { data: [dashboard, admin] });
    let menuCalls = 0;
    // Each refetch answers the saved state (only the dashboard), as the server would before a save.
    h.mockCall(`roles/menuIds/${viewer.id}`, () => ((menuCalls += 1), { data: { roleId: viewer.id, menuIds: [dashboard.id], permissions: ['dashboard:use'] } }));
    h.mockCall('roles/permission', (body) => ({ data: { roleId: viewer.id, menuIds: (body as { menuIds: string[] }).menuIds, permissions: [] } }));
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('admin-role-matrix'));
    expect(((await screen.findByLabelText('Dashboard')) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByLabelText('Users'));
    fireEvent.click(screen.getByLabelText('Dashboard'));
    fireEvent.click(screen.getByLabelText('users:write'));
    const before = { list: listCalls, menus: menuCalls };
    // What a role save (or any role change) does: every query of the roles' tag is fetched again.
    h.store.dispatch(adminApi.util.invalidateTags(['AdminRole']));
    await waitFor(() => expect(listCalls).toBeGreaterThan(before.list));
    await waitFor(() => expect(menuCalls).toBeGreaterThan(before.menus));
    expect(await screen.findByText('Viewer 2')).toBeTruthy();
    expect((screen.getByLabelText('Users') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Dashboard') as HTMLInputElement).checked).toBe(false);
    expect((screen.getByLabelText('users:write') as HTMLInputElement).checked).toBe(true);
    // Cancel drops the draft: opened again, the matrix shows the server's state.
    fireEvent.click(screen.getByText('Cancel'));
    await waitFor(() => expect(screen.queryByLabelText('Users')).toBeNull());
    fireEvent.click(screen.getByTestId('admin-role-matrix'));
    expect(((await screen.findByLabelText('Dashboard')) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Users') as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByLabelText('Users'));
    fireEvent.click(screen.getByTestId('admin-matrix-save'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'roles/permission')).toBeTruthy());
    expect([...(h.calls.find((c) => c.url === 'roles/permission')!.body as { menuIds: string[] }).menuIds].sort()).toEqual([dashboard.id, users.id].sort());
  });
  it('puts the focus on the first menu when it opens and gives it back to its Matrix button when it closes (the panel shows it only while open)', async () => {
    const h = createTestHost({ plugins: [adminPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    h.mockCall('user/getUser', { data: { userId: 'u1', tenantId: id('f1'), isSystemRole: false, roleList: [], permissions: ['users:read', 'roles:write', 'dashboard:use'], menus: [] } });
    h.mockCall('roles/list', { data: [viewer] });
    h.mockCall('menus/tree', { data: [dashboard, admin] });
    h.mockCall(`roles/menuIds/${viewer.id}`, { data: { roleId: viewer.id, menuIds: [dashboard.id], permissions: ['dashboard:use'] } });
    h.mockCall('roles/permission', (body) => ({ data: { roleId: viewer.id, menuIds: (body as { menuIds: string[] }).menuIds, permissions: [] } }));
    await renderPanel(panel, { host: h });
    const opener = await screen.findByTestId('admin-role-matrix');
    const open = async () => {
      // A browser focuses a clicked button (jsdom does not: done here).
      opener.focus();
      fireEvent.click(opener);
      // A control, not Blueprint's empty focus trap, has the focus: Space ticks, Tab goes on.
      await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Dashboard')));
    };
    await open();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('admin-matrix-menus')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    await open();
    fireEvent.click(screen.getByText('Cancel'));
    await waitFor(() => expect(screen.queryByTestId('admin-matrix-menus')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    await open();
    fireEvent.click(screen.getByTestId('admin-matrix-save'));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'roles/permission')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('admin-matrix-menus')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
  it('opens on the new role once it is created, with the focus on its first menu, and gives the focus back to New role when it closes', async () => {
    const h = createTestHost({ plugins: [adminPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    h.mockCall('user/getUser', { data: { userId: 'u1', tenantId: id('f1'), isSystemRole: false, roleList: [], permissions: ['users:read', 'roles:write', 'dashboard:use'], menus: [] } });
    h.mockCall('roles/list', { data: [viewer] });
    h.mockCall('menus/tree', { data: [dashboard, admin] });
    const analyst: RoleItem = { ...viewer, id: id('e2'), code: 'analyst', name: 'Analyst', permissions: [] };
    h.mockCall('roles', { data: analyst });
    h.mockCall(`roles/menuIds/${analyst.id}`, { data: { roleId: analyst.id, menuIds: [], permissions: [] } });
    await renderPanel(panel, { host: h });
    const opener = await screen.findByTestId('admin-roles-add');
    opener.focus();
    fireEvent.click(opener);
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Analyst' } });
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'analyst' } });
    fireEvent.click(screen.getByTestId('admin-role-save'));
    // The role dialog gives way to the new role's matrix, whose first menu takes the focus.
    await screen.findByRole('dialog', { name: 'Menus and permissions of Analyst' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Dashboard')));
    expect(screen.queryByTestId('admin-role-save')).toBeNull();
    fireEvent.click(screen.getByText('Cancel'));
    await waitFor(() => expect(screen.queryByTestId('admin-matrix-menus')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
  it('keeps the ticks when the dialog of the same role mounts again (the draft lives by role id, not in the component)', async () => {
    const h = createTestHost({ plugins: [adminPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    h.mockCall('user/getUser', { data: { userId: 'u1', tenantId: id('f1'), isSystemRole: false, roleList: [], permissions: ['users:read', 'roles:write', 'dashboard:use'], menus: [] } });
    h.mockCall('menus/tree', { data: [dashboard, admin] });
    h.mockCall(`roles/menuIds/${viewer.id}`, { data: { roleId: viewer.id, menuIds: [dashboard.id], permissions: ['dashboard:use'] } });
    const onClose = () => undefined;
    const view = render(withHost(h, <RolePermissionDialog key="first" role={viewer} onClose={onClose} />));
    fireEvent.click(await screen.findByLabelText('Users'));
    expect((screen.getByLabelText('Users') as HTMLInputElement).checked).toBe(true);
    // Mounted again (a parent re-rendering it under another key, as a refetch-driven re-layout does).
    view.rerender(withHost(h, <RolePermissionDialog key="second" role={{ ...viewer }} onClose={onClose} />));
    expect(((await screen.findByLabelText('Users')) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Dashboard') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByText('Cancel'));
  });
});
