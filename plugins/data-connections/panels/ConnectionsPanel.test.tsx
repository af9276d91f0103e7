import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, messageOf, type ImportStatus } from '@decisio/domain';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, heldBack, pressBusy, renderPanel } from '@decisio/sdk-plugin/testing';
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

const noImports = { data: { rows: [], total: 0, page: 1, pageSize: 10 } };
const running: ImportStatus = {
  tableId: 'i1',
  connectionId: 'c1',
  connectionName: 'Warehouse',
  source: { table: 'sales', schema: 'public' },
  name: 'sales copy',
  type: 'business',
  projectId: null,
  state: 'copying',
  rowsCopied: 2048,
  rowsExpected: 10000,
  datasetId: null,
  errorCode: null,
  error: null,
  createdAt: '2026-11-02T10:00:00.000Z',
  endedAt: null,
  jobId: 'j1',
};
const done: ImportStatus = { ...running, tableId: 'i0', name: 'old copy', state: 'successful', rowsCopied: 10, rowsExpected: 10, datasetId: 'd0', endedAt: '2026-11-02T10:01:00.000Z' };

describe('ConnectionsPanel', () => {
  afterEach(() => cleanup());

  it('shows the empty state in both languages and opens the form', async () => {
    for (const [locale, title] of [['en-US', 'No data connections yet'], ['zh-CN', '还没有数据连接']] as const) {
      const host = createTestHost({ plugins: [dataConnectionsPlugin], locale, session: { token: 't', userId: 'u1' } });
      host.mockCall('jobJdbcDatasource/queryListByPage', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
      host.mockCall('metadata/getImportList', noImports);
      await renderPanel(panel, { host });
      expect(await screen.findByText(title)).toBeTruthy();
      cleanup();
    }
  });

  it('lists connections and tests one, reporting the outcome', async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('jobJdbcDatasource/queryListByPage', { data: { rows: [row], total: 1, page: 1, pageSize: 20 } });
    // The server says only that it failed (never the driver's reason), in the caller's language.
    host.mockCall('jobJdbcDatasource/test', { data: { ok: false, version: null, latencyMs: 0, error: messageOf('dataSourceUnreachable', 'en-US') } });
    host.mockCall('metadata/getImportList', noImports);
    await renderPanel(panel, { host });
    expect(await screen.findByText('Warehouse')).toBeTruthy();
    expect(screen.getByText('jdbc:postgresql://db:5432/wh')).toBeTruthy();
    fireEvent.click(screen.getByText('Test'));
    await waitFor(() => expect(host.toasts.at(-1)?.message).toBe(`Connection failed: ${messageOf('dataSourceUnreachable', 'en-US')}`));
    expect(host.calls.find((c) => c.url === 'jobJdbcDatasource/test')?.body).toEqual({ id: 'c1' });
  });

  it("gives the focus back to a connection's Tables button when its tables close with Escape (shown only while open)", async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('jobJdbcDatasource/queryListByPage', { data: { rows: [row], total: 1, page: 1, pageSize: 20 } });
    host.mockCall('metadata/getImportList', noImports);
    host.mockCall('jobJdbcDatasource/tables', { data: [{ name: 'sales', schema: 'wh', kind: 'table', estimatedRows: 10 }] });
    await renderPanel(panel, { host });
    const opener = await screen.findByRole('button', { name: 'Tables' });
    // A browser focuses a clicked button (jsdom does not: done here).
    opener.focus();
    fireEvent.click(opener);
    expect(await screen.findByTestId('tables-list')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).not.toBe(opener));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('tables-list')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('shows the server\'s field errors under the form fields', async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('jobJdbcDatasource/queryListByPage', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
    host.mockCall('jobJdbcDatasource/createDataSourceLink', { code: 1008, message: 'Invalid parameters', errors: { url: 'Enter a JDBC URL' } });
    host.mockCall('metadata/getImportList', noImports);
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

  it('keeps the keyboard in the form after a connection test: the focus the busy Test lost comes back to it, so Escape closes the dialog', async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    const gate = heldBack();
    host.mockCall('jobJdbcDatasource/queryListByPage', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
    host.mockCall('metadata/getImportList', noImports);
    host.mockCall('jobJdbcDatasource/test', async () => {
      await gate.wait;
      return { data: { ok: true, version: '16.2', latencyMs: 12, error: null } };
    });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('connections-create'));
    fireEvent.change(await screen.findByTestId('conn-name'), { target: { value: 'Shop' } });
    fireEvent.change(screen.getByTestId('conn-url'), { target: { value: 'jdbc:mysql://db:3306/shop' } });
    const test = screen.getByTestId('conn-test') as HTMLButtonElement;
    await pressBusy(test);
    await act(async () => gate.release());
    await screen.findByTestId('conn-test-result');
    await waitFor(() => expect(document.activeElement).toBe(test));
    // Blueprint's dialog hears Escape only from inside it.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('conn-name')).toBeNull());
  });

  it('shows the progress of a running import and cancels it; the cancelled import makes no dataset', async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('jobJdbcDatasource/queryListByPage', { data: { rows: [row], total: 1, page: 1, pageSize: 20 } });
    let stopped = false;
    host.mockCall('metadata/getImportList', () => ({ data: { rows: [stopped ? { ...running, state: 'stopped', endedAt: '2026-11-02T10:02:00.000Z' } : running, done], total: 2, page: 1, pageSize: 10 } }));
    host.mockCall('metadata/stopImport', (body) => {
      stopped = true;
      return { data: { ...running, ...(body as object), state: 'stopped' } };
    });
    await renderPanel(panel, { host });
    const section = await screen.findByTestId('imports-section');
    expect(section.textContent).toContain('2048 of about 10000 rows');
    expect(screen.getAllByTestId('import-progress')).toHaveLength(1);
    // Only the running import can be cancelled.
    const buttons = screen.getAllByTestId('import-cancel');
    expect(buttons).toHaveLength(1);
    expect(buttons[0]!.textContent).toBe('Cancel');
    fireEvent.click(buttons[0]!);
    await waitFor(() => expect(host.toasts.at(-1)?.message).toBe('Import of sales copy cancelled; no dataset was made'));
    expect(host.calls.filter((c) => c.url === 'metadata/stopImport').map((c) => c.body)).toEqual([{ tableId: 'i1' }]);
    await waitFor(() => expect(screen.queryAllByTestId('import-cancel')).toHaveLength(0));
    expect(screen.getAllByTestId('import-row').map((r) => r.getAttribute('data-state'))).toEqual(['stopped', 'successful']);
    expect(screen.getByText('Cancelled')).toBeTruthy();
  });

  it('keeps reading a running import and says why it can no longer be cancelled, in Chinese', async () => {
    const host = createTestHost({ plugins: [dataConnectionsPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
    host.mockCall('jobJdbcDatasource/queryListByPage', { data: { rows: [row], total: 1, page: 1, pageSize: 20 } });
    let reads = 0;
    host.mockCall('metadata/getImportList', () => {
      reads++;
      return { data: { rows: [{ ...running, rowsCopied: 2048 * reads }], total: 1, page: 1, pageSize: 10 } };
    });
    host.mockCall('metadata/stopImport', { code: ErrorCode.importNotRunning, message: '只有等待中或复制中的导入可以停止' });
    await renderPanel(panel, { host });
    await screen.findByTestId('imports-section');
    expect(screen.getByText('导入记录')).toBeTruthy();
    // Polled while it runs: the rows copied grow.
    await waitFor(() => expect(reads).toBeGreaterThanOrEqual(2), { timeout: 5000 });
    await waitFor(() => expect(screen.getByTestId('imports-section').textContent).toMatch(/[1-9]\d* \/ 约 10000 行/));
    fireEvent.click(screen.getByText('取消'));
    await waitFor(() => expect(host.toasts.at(-1)).toMatchObject({ message: '只有等待中或复制中的导入可以停止', intent: 'danger' }));
  });
});
