import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import type { LogItem } from '@decisio/domain';
import { canReadLogs, logsPlugin } from '../index';
import { exportUrl } from '../api';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./SystemLogPanel', async (orig) => (loaded.push('SystemLogPanel'), orig()));

const panel = logsPlugin.panels.find((p) => p.id === 'logs.list')!;
const admin = { userId: 'u1', username: 'admin_1', nickname: null, tenantId: 't1', roleList: [], isSystemRole: true, isStudent: false, isOperation: false, permissions: ['*'], menus: [] };
const reader = { ...admin, isSystemRole: false, permissions: ['logs:read'] };

const row: LogItem = {
  id: 'a'.repeat(32),
  title: 'users/stopUser',
  type: 'error',
  host: 'localhost',
  uri: '/api/users/stopUser',
  method: 'POST',
  params: '{"body":{"userId":"x"}}',
  responseCode: 1014,
  httpStatus: 403,
  timeMs: 12,
  userId: 'u1',
  username: 'admin_1',
  tenantId: 't1',
  requestId: 'req-1',
  ip: '127.0.0.1',
  userAgent: 'test',
  createdAt: '2026-11-27T10:00:00.000Z',
};
const job: LogItem = { ...row, id: 'b'.repeat(32), title: 'job/Sweep', type: 'job', method: 'CRON', uri: '/job/x', responseCode: 0, httpStatus: 200, username: 'scheduler' };

describe('SystemLogPanel', () => {
  afterEach(() => cleanup());

  it('is not loaded by importing the manifest; the menu entry needs the log permission', () => {
    expect(loaded).toEqual([]);
    const base = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, pathname: '/', search: {} };
    expect(canReadLogs({ ...base, user: { isSystemRole: true, isStudent: false, isOperation: false, roles: [] } })).toBe(true);
    expect(canReadLogs({ ...base, user: { isSystemRole: false, isStudent: false, isOperation: false, roles: ['user'] } })).toBe(false);
    expect(canReadLogs({ ...base, signedIn: false })).toBe(false);
    expect(exportUrl({ username: 'bob', result: 'failure' })).toBe('/api/logs/export?username=bob&result=failure');
  });

  it('shows the empty state in both languages', async () => {
    for (const [locale, title] of [['en-US', 'No log rows'], ['zh-CN', '暂无日志']] as const) {
      const host = createTestHost({ plugins: [logsPlugin], locale, session: { token: 't', userId: 'u1' } });
      host.mockCall('user/getUser', { data: reader });
      host.mockCall('logs/page', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
      await renderPanel(panel, { host });
      expect(await screen.findByText(title)).toBeTruthy();
      cleanup();
    }
  });

  it('lists rows, sends the filters, opens the details, and says when loading fails', async () => {
    const host = createTestHost({ plugins: [logsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: reader });
    host.mockCall('logs/page', (body) => ((body as { username?: string }).username === 'nobody' ? { code: 1002, message: 'boom' } : { data: { rows: [row, job], total: 2, page: 1, pageSize: 20 } }));
    await renderPanel(panel, { host });
    const rows = await screen.findAllByTestId('log-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Failure · 1014')).toBeTruthy();
    expect(within(rows[1]!).getByText('Scheduled job')).toBeTruthy();
    // A reader has no delete button and no retention setting.
    expect(screen.queryByTestId('log-delete-selected')).toBeNull();
    expect(screen.queryByTestId('log-retention')).toBeNull();

    fireEvent.keyDown(rows[0]!, { key: 'Enter' });
    expect((await screen.findByTestId('log-params')).textContent).toContain('"userId": "x"');
    fireEvent.click(screen.getByText('Close'));

    fireEvent.change(screen.getByTestId('log-filter-module'), { target: { value: 'users' } });
    fireEvent.change(screen.getByTestId('log-filter-result'), { target: { value: 'failure' } });
    await waitFor(() => expect(host.calls.some((c) => c.url === 'logs/page' && (c.body as { module?: string; result?: string }).module === 'users' && (c.body as { result?: string }).result === 'failure')).toBe(true));
    expect(screen.getByTestId('log-export').getAttribute('href')).toBe('/api/logs/export?module=users&result=failure');

    fireEvent.change(screen.getByTestId('log-filter-username'), { target: { value: 'nobody' } });
    expect(await screen.findByText('The system log could not be loaded')).toBeTruthy();
  });

  it('deletes the selected rows and saves the retention for a system administrator', async () => {
    const host = createTestHost({ plugins: [logsPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: admin });
    host.mockCall('logs/page', { data: { rows: [row, job], total: 2, page: 1, pageSize: 20 } });
    host.mockCall('logs/delete', { data: { deleted: 1 } });
    host.mockCall('logs/getRetention', { data: { days: 180, updatedAt: null, updatedBy: null } });
    host.mockCall('logs/setRetention', (body) => ({ data: { days: (body as { days: number }).days, updatedAt: '2026-11-27T10:00:00.000Z', updatedBy: 'admin_1' } }));
    await renderPanel(panel, { host });
    await screen.findAllByTestId('log-row');
    fireEvent.click(await screen.findByLabelText('选择 users/stopUser'));
    fireEvent.click(screen.getByTestId('log-delete-selected'));
    fireEvent.click(await screen.findByText('删除'));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'logs/delete')?.body).toEqual({ ids: [row.id] }));
    await waitFor(() => expect(host.toasts.map((n) => n.message)).toContain('已删除 1 条日志'));

    const input = within(screen.getByTestId('log-retention')).getByRole('spinbutton');
    fireEvent.change(input, { target: { value: '30' } });
    fireEvent.click(within(screen.getByTestId('log-retention')).getByText('保存'));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'logs/setRetention')?.body).toEqual({ days: 30 }));
  });
});
