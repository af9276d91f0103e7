import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Dataset } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { dataAccessPlugin } from '../index';
import { setPreviewerFactory, type PreviewResult } from '../preview';

const panel = dataAccessPlugin.panels.find((p) => p.id === 'data-access.datasets')!;
const column = (name: string, kind: 'int' | 'float' | 'string' = 'float') => ({ name, type: 'DOUBLE', kind, dataType: 'continuous' as const, min: 0, max: 9, discreteNumber: null, values: null, hidden: false });
const dataset: Dataset = {
  tableId: 'd1',
  name: 'orders',
  type: 'business',
  fileType: 'csv',
  fileName: 'orders.csv',
  delimiter: ',',
  amount: 1200,
  size: 4096,
  columns: [column('speed'), column('gear', 'int')],
  projectId: null,
  creatorId: 'u1',
  creatorName: 'alice',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};
const page = (rows: Dataset[]) => ({ data: { rows, total: rows.length, page: 1, pageSize: 20 } });

/** A previewer standing in for the data worker (jsdom has no Worker); the real one runs in the e2e. */
function fakePreviewer(results: Record<string, PreviewResult>) {
  return setPreviewerFactory(() => ({
    inspect: (file) => Promise.resolve(results[file.name]!),
    stats: () => Promise.resolve({ ok: true, issues: [], rows: 2, columns: [{ name: 'a', kind: 'integer', count: 2, nulls: 0, nan: 0, min: 1, max: 3, mean: 2, distinct: 2, distinctApprox: false }], elapsedMs: 3 }),
    dispose: () => undefined,
  }));
}

describe('DatasetsPanel', () => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    cleanup();
    restore?.();
  });

  it('shows the empty state in both languages', async () => {
    for (const [locale, title] of [['en-US', 'No datasets yet'], ['zh-CN', '还没有数据集']] as const) {
      const host = createTestHost({ plugins: [dataAccessPlugin], locale, session: { token: 't', userId: 'u1' } });
      host.mockCall('table/list', page([]));
      await renderPanel(panel, { host });
      expect(await screen.findByText(title)).toBeTruthy();
      cleanup();
    }
  });

  it('lists datasets and refuses a duplicate-column file with the catalogue message, previews a good one', async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('table/list', page([dataset]));
    host.mockCall('file/getFreeSpace', { data: { totalBytes: 1e9, usedBytes: 0, freeBytes: 1e9, tenant: { totalBytes: 1e10, usedBytes: 0, freeBytes: 1e10 } } });
    restore = fakePreviewer({
      'dup.csv': { name: 'dup.csv', size: 10, kind: 'csv', ok: false, elapsedMs: 4, issues: [{ code: 'tableRepeatedColumns', reason: 'duplicateColumns', message: 'dup', fatal: true, details: { columns: ['a'] } }] },
      'good.csv': { name: 'good.csv', size: 10, kind: 'csv', ok: true, elapsedMs: 4, issues: [], columns: [{ name: 'a', kind: 'integer', missing: 0, nan: 0 }], rows: [[1], [3]] },
    });
    await renderPanel(panel, { host });
    expect(await screen.findByText('orders')).toBeTruthy();
    expect(screen.getByText('1,200')).toBeTruthy();
    fireEvent.click(screen.getByTestId('datasets-upload'));
    const input = (await screen.findByTestId('upload-file')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['a,a\n1,2\n'], 'dup.csv', { type: 'text/csv' })] } });
    expect((await screen.findByTestId('upload-issue-duplicateColumns')).textContent).toBe('Duplicated column name: Duplicate column names: a');
    expect(screen.getByTestId('upload-start').hasAttribute('disabled')).toBe(true);
    fireEvent.change(input, { target: { files: [new File(['a\n1\n3\n'], 'good.csv', { type: 'text/csv' })] } });
    expect(await screen.findByTestId('upload-preview')).toBeTruthy();
    expect(await screen.findByTestId('upload-stats')).toBeTruthy();
    expect((screen.getByTestId('upload-name') as HTMLInputElement).value).toBe('good');
    fireEvent.change(screen.getByTestId('upload-name'), { target: { value: 'x'.repeat(31) } });
    expect(screen.getByText('At most 30 characters')).toBeTruthy();
    expect(screen.getByTestId('upload-start').hasAttribute('disabled')).toBe(true);
  });

  it('imports a table from a connection, following the copy until the dataset exists', async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('table/list', page([]));
    host.mockCall('jobJdbcDatasource/all', { data: [{ id: 'c1', name: 'Shop', type: 'mysql' }] });
    host.mockCall('metadata/getTables', { data: [{ name: 'orders', schema: 'shop', kind: 'table', estimatedRows: 10 }] });
    const status = { tableId: 'imp1', connectionId: 'c1', connectionName: 'Shop', source: { table: 'orders' }, name: 'orders', type: 'business', projectId: null, rowsCopied: 0, rowsExpected: 10, datasetId: null, errorCode: null, error: null, createdAt: '', endedAt: null };
    host.mockCall('metadata/startImport', { data: { ...status, state: 'waiting' } });
    host.mockCall('metadata/getCopyStatusByTableId', { data: { ...status, state: 'successful', rowsCopied: 10, datasetId: 'd1' } });
    host.mockCall('table/get', { data: dataset });
    host.mockCall('file/previewCSV', { data: { columns: [{ name: 'speed', type: 'DOUBLE' }], rows: [[1.5]], total: 1200, offset: 0, stats: [] } });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('datasets-import'));
    fireEvent.click(await screen.findByTestId('import-start'));
    expect((await screen.findAllByText('Required')).length).toBeGreaterThan(0);
    expect(host.calls.some((c) => c.url === 'metadata/startImport')).toBe(false);
    await screen.findByText('Shop (mysql)');
    fireEvent.change(screen.getByTestId('import-connection'), { target: { value: 'c1' } });
    await screen.findByText('shop.orders (~10)');
    fireEvent.change(screen.getByTestId('import-table'), { target: { value: 'shop.orders' } });
    expect((screen.getByTestId('import-name') as HTMLInputElement).value).toBe('orders');
    fireEvent.click(screen.getByTestId('import-start'));
    await waitFor(() => expect(host.toasts.at(-1)?.message).toBe('Dataset orders imported'), { timeout: 5000 });
    expect(host.calls.find((c) => c.url === 'metadata/startImport')?.body).toEqual({ connectionId: 'c1', table: 'orders', schema: 'shop', name: 'orders', type: 'business' });
    expect(await screen.findByTestId('dataset-preview')).toBeTruthy();
  });

  it('checks field settings before table/setFields and sends the selected fields', async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
    host.mockCall('table/list', page([dataset]));
    host.mockCall('table/get', { data: dataset });
    host.mockCall('file/previewCSV', { data: { columns: [{ name: 'speed', type: 'DOUBLE' }, { name: 'gear', type: 'BIGINT' }], rows: [[1.5, 2]], total: 1200, offset: 0, stats: [] } });
    host.mockCall('table/setFields', { data: dataset });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('dataset-open-orders'));
    fireEvent.change(await screen.findByTestId('field-min-speed'), { target: { value: '9' } });
    fireEvent.click(screen.getByTestId('fields-save'));
    expect((await screen.findByTestId('field-error-speed')).textContent).toBe('最小值必须小于最大值');
    fireEvent.change(screen.getByTestId('field-min-speed'), { target: { value: '1' } });
    fireEvent.change(screen.getByTestId('field-datatype-gear'), { target: { value: 'category' } });
    fireEvent.change(screen.getByTestId('field-values-gear'), { target: { value: '1, 2, 3' } });
    fireEvent.click(screen.getByTestId('fields-save'));
    await waitFor(() => expect(host.toasts.at(-1)?.message).toBe('字段设置已保存'));
    const body = host.calls.find((c) => c.url === 'table/setFields')?.body as { fields: { name: string; min: number | null; values: number[] | null }[] };
    expect(body.fields.map((f) => [f.name, f.min, f.values])).toEqual([
      ['speed', 1, null],
      ['gear', 0, [1, 2, 3]],
    ]);
  });
});
