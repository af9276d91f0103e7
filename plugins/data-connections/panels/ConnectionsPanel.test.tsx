import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { dataConnectionsPlugin } from '../index';

const panel = dataConnectionsPlugin.panels.find((p) => p.id === 'data-connections.list')!;
const row = {
  id: 'c1',
  type: 'postgresql',
  name: 'Warehouse',
  group: 'ops',
  driver: 'org.postgresql.Driver',
  url: 'jdbc:postgresql://db:5432/wh',
  zkAddress: '',
  database: '',
  username: 'reader',
  hasPassword: true,
  remark: 'nightly copy',
  creatorId: 'u1',
  creatorName: 'alice',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};

describe('ConnectionsPanel', () => {
  afterEach(() => cleanup());

  it('shows the empty state in both languages and opens the form', async () => {
    for (const [locale, title] of [['en-US', 'No data connections yet'], ['zh-CN', '还没有数据连接']] as const) {
      const host = createTestHost({ plugins: [dataConnectionsPlugin], locale, session: { token: 't', userId: 'u1' } });
      host.mockCall('jobJdbcDatasource/queryListByPage', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
      await renderPanel(panel, { host });
      expect(await screen.findByText(title)).toBeTruthy();
      cleanup();
    }
  });

  it('lists connections and tests one, reporting the outcome', async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('jobJdbcDatasource/queryListByPage', { data: { rows: [row], total: 1, page: 1, pageSize: 20 } });
    host.mockCall('jobJdbcDatasource/test', { data: { ok: false, version: null, latencyMs: 12, error: 'ECONNREFUSED' } });
    await renderPanel(panel, { host });
    expect(await screen.findByText('Warehouse')).toBeTruthy();
    expect(screen.getByText('jdbc:postgresql://db:5432/wh')).toBeTruthy();
    fireEvent.click(screen.getByText('Test'));
    await waitFor(() => expect(host.toasts.at(-1)?.message).toBe('Connection failed: ECONNREFUSED'));
    expect(host.calls.find((c) => c.url === 'jobJdbcDatasource/test')?.body).toEqual({ id: 'c1' });
  });

  it('shows the server\'s field errors under the form fields', async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('jobJdbcDatasource/queryListByPage', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
    host.mockCall('jobJdbcDatasource/createDataSourceLink', { code: 1008, message: 'Invalid parameters', errors: { url: 'Enter a JDBC URL' } });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('connections-create'));
    fireEvent.change(screen.getByTestId('conn-name'), { target: { value: 'Shop' } });
    fireEvent.change(screen.getByTestId('conn-url'), { target: { value: 'mysql://nope' } });
    fireEvent.change(screen.getByTestId('conn-username'), { target: { value: 'root' } });
    fireEvent.click(screen.getByTestId('conn-save'));
    expect(await screen.findByText('Enter a JDBC URL')).toBeTruthy();
    const sent = host.calls.find((c) => c.url === 'jobJdbcDatasource/createDataSourceLink')?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ name: 'Shop', url: 'mysql://nope', username: 'root', type: 'mysql', password: '' });
  });
});
