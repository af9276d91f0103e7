import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { adminPlugin } from '../index';

const panel = (id: string) => adminPlugin.panels.find((p) => p.id === id)!;

function host(locale: 'en-US' | 'zh-CN', isSystemRole: boolean) {
  const h = createTestHost({ plugins: [adminPlugin], locale, session: { token: 't', userId: 'u1' } });
  h.mockCall('user/getUser', { data: { userId: 'u1', tenantId: 'f'.repeat(32), isSystemRole, roleList: [], permissions: isSystemRole ? ['*'] : ['tenants:read'], menus: [] } });
  h.mockCall('menus/tree', { data: [] });
  h.mockCall('orgs/tree', { data: [] });
  h.mockCall('tenant/list', { data: [] });
  h.mockCall('tenant/page', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
  return h;
}

describe('admin screens', () => {
  afterEach(() => cleanup());

  it('show their empty states in both languages', async () => {
    const cases = [
      ['admin.menus', 'No menus', '没有菜单'],
      ['admin.orgs', 'No organisations yet', '还没有组织'],
      ['admin.tenants', 'No tenants', '没有租户'],
    ] as const;
    for (const [id, en, zh] of cases) {
      for (const [locale, title] of [['en-US', en], ['zh-CN', zh]] as const) {
        await renderPanel(panel(id), { host: host(locale, true) });
        expect(await screen.findByText(title)).toBeTruthy();
        cleanup();
      }
    }
  });

  it("lists the chosen tenant's organisations only, never the previous tenant's while they load", async () => {
    const other = '9'.repeat(32);
    const org = (id: string, name: string, tenantId: string) => ({ id, name, parentId: null, tenantId, sort: 0, userCount: 0, children: [] });
    const h = host('en-US', true);
    h.mockCall('tenant/list', { data: [{ id: 'f'.repeat(32), name: 'Own' }, { id: other, name: 'Other' }] });
    h.mockCall('orgs/tree', { data: [org('1'.repeat(32), 'Own sales', 'f'.repeat(32))] });
    const gate = heldBack();
    h.mockCall(`orgs/tree?tenantId=${other}`, async () => {
      await gate.wait;
      return { data: [org('2'.repeat(32), 'Other sales', other)] };
    });
    await renderPanel(panel('admin.orgs'), { host: h });
    expect(await screen.findByText('Own sales')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('option', { name: 'Other' })).toBeTruthy());
    fireEvent.change(screen.getByTestId('admin-orgs-tenant'), { target: { value: other } });
    await waitFor(() => expect(h.calls.some((c) => c.url === `orgs/tree?tenantId=${other}`)).toBe(true));
    expect(screen.queryByText('Own sales')).toBeNull();
    gate.release();
    expect(await screen.findByText('Other sales')).toBeTruthy();
  });

  it('shows the load error with a retry', async () => {
    const h = host('en-US', true);
    h.mockCall('menus/tree', { code: 1002, message: 'boom' });
    await renderPanel(panel('admin.menus'), { host: h });
    expect(await screen.findByText('Could not load the list')).toBeTruthy();
    expect(screen.getByText('Retry')).toBeTruthy();
  });

  it('offers tenant changes to system admins only', async () => {
    await renderPanel(panel('admin.tenants'), { host: host('en-US', false) });
    await screen.findByText('No tenants');
    expect(screen.queryByTestId('admin-tenants-add')).toBeNull();
    cleanup();
    await renderPanel(panel('admin.tenants'), { host: host('en-US', true) });
    expect(await screen.findByTestId('admin-tenants-add')).toBeTruthy();
  });

  it('declares each screen as a route, a side-menu entry and a palette command', () => {
    expect(adminPlugin.routes!.map((r) => r.path)).toEqual(['/admin/users', '/admin/roles', '/admin/menus', '/admin/orgs', '/admin/tenants']);
    expect(adminPlugin.menuItems!.map((m) => m.to)).toEqual(['/admin/users', '/admin/roles', '/admin/menus', '/admin/orgs', '/admin/tenants']);
    expect(adminPlugin.commands!.map((c) => c.id)).toEqual(['admin.open-users', 'admin.open-roles', 'admin.open-menus', 'admin.open-orgs', 'admin.open-tenants']);
  });
});
