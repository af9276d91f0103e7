import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ErrorCode, type Dataset } from '@decisio/domain';
import { createTestHost, heldBack, pressBusy, renderPanel } from '@decisio/sdk-plugin/testing';
import { dataAccessPlugin } from '../index';

const panel = dataAccessPlugin.panels.find((p) => p.id === 'data-access.datasets')!;
const column = (name: string) => ({ name, type: 'DOUBLE', kind: 'float' as const, dataType: 'continuous' as const, min: 0, max: 9, discreteNumber: null, values: null, hidden: false });
const dataset: Dataset = {
  tableId: 'd1',
  name: 'orders',
  type: 'business',
  fileType: 'csv',
  fileName: 'orders.csv',
  delimiter: ',',
  amount: 3,
  size: 4096,
  columns: [column('speed'), column('gear')],
  projectId: null,
  creatorId: 'u1',
  creatorName: 'alice',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};

function host(locale: 'en-US' | 'zh-CN' = 'en-US') {
  const h = createTestHost({ plugins: [dataAccessPlugin], locale, session: { token: 't', userId: 'u1' } });
  h.mockCall('table/list', { data: { rows: [dataset], total: 1, page: 1, pageSize: 20 } });
  h.mockCall('table/filter', (body) => {
    const b = body as { conditions: unknown[] };
    return { data: { columns: [{ name: 'speed', type: 'DOUBLE' }, { name: 'gear', type: 'DOUBLE' }], rows: b.conditions.length ? [[7, 2]] : [[1, 1], [7, 2], [3, 1]], total: b.conditions.length ? 1 : 3, offset: 0 } };
  });
  return h;
}

describe('DataOpsDialog', () => {
  afterEach(() => cleanup());

  it('filters rows by a condition the user adds', async () => {
    const h = host();
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('dataset-ops-orders'));
    expect(await screen.findByText('3 matching rows (showing 1–3)')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Condition'), { target: { value: 'gt' } });
    fireEvent.change(screen.getByLabelText('Value'), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('ops-add'));
    expect(await screen.findByText('1 matching rows (showing 1–1)')).toBeTruthy();
    expect(h.calls.filter((c) => c.url === 'table/filter').at(-1)!.body).toEqual({ tableId: 'd1', conditions: [{ field: 'speed', op: 'gt', value: 5 }], offset: 0, limit: 50 });
  });

  it('appends the rows of a stored file and shows which columns do not match', async () => {
    const h = host('en-US');
    h.mockCall('file/fileItemList', { data: { rows: [{ fileId: 'f1', name: 'more.csv', path: 'more.csv', kind: 'upload', size: 10, userId: 'u1', createdAt: '', updatedAt: '', deletedAt: null }], total: 1, page: 1, pageSize: 100 } });
    h.mockCall('table/append', { code: ErrorCode.tableFieldsMismatch, message: 'Table fields are inconsistent', errors: { missing: 'gear' } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('dataset-ops-orders'));
    fireEvent.click(await screen.findByRole('tab', { name: 'Add or replace data' }));
    fireEvent.change(await screen.findByTestId('ops-file'), { target: { value: 'f1' } });
    fireEvent.click(screen.getByTestId('ops-append'));
    const error = await screen.findByTestId('ops-error');
    expect(error.textContent).toContain('missing columns: gear');
    expect(h.calls.find((c) => c.url === 'table/append')!.body).toEqual({ tableId: 'd1', fileId: 'f1' });
  });

  it('keeps the keyboard in the dialog after an append: the focus the busy Append lost comes back to it, so Escape closes the dialog', async () => {
    const h = host('en-US');
    const gate = heldBack();
    h.mockCall('file/fileItemList', { data: { rows: [{ fileId: 'f1', name: 'more.csv', path: 'more.csv', kind: 'upload', size: 10, userId: 'u1', createdAt: '', updatedAt: '', deletedAt: null }], total: 1, page: 1, pageSize: 100 } });
    h.mockCall('table/append', async () => {
      await gate.wait;
      return { code: ErrorCode.tableFieldsMismatch, message: 'Table fields are inconsistent', errors: { missing: 'gear' } };
    });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('dataset-ops-orders'));
    fireEvent.click(await screen.findByRole('tab', { name: 'Add or replace data' }));
    fireEvent.change(await screen.findByTestId('ops-file'), { target: { value: 'f1' } });
    const append = screen.getByTestId('ops-append') as HTMLButtonElement;
    await pressBusy(append);
    await act(async () => gate.release());
    await screen.findByTestId('ops-error');
    await waitFor(() => expect(document.activeElement).toBe(append));
    // Blueprint's dialog hears Escape only from inside it.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('ops-file')).toBeNull());
  });

  it('creates a read key and shows its addresses, in Chinese too', async () => {
    const h = host('zh-CN');
    h.mockCall('table/getAccessKey', { data: { accessKey: 'tak1.x', url: '/api/table/data?accessKey=tak1.x', csvUrl: '/api/table/data?accessKey=tak1.x&format=csv', expiresAt: '2026-11-27T10:00:00.000Z' } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('dataset-ops-orders'));
    fireEvent.click(await screen.findByRole('tab', { name: '读取密钥' }));
    fireEvent.click(await screen.findByTestId('ops-make-key'));
    const key = await screen.findByTestId('ops-key');
    await waitFor(() => expect((within(key).getByLabelText('csv 地址') as HTMLInputElement).value).toMatch(/\/api\/table\/data\?accessKey=tak1\.x&format=csv$/));
    expect(h.calls.find((c) => c.url === 'table/getAccessKey')!.body).toEqual({ tableId: 'd1', ttlSeconds: 600 });
  });

  it('revokes every key of the dataset after a confirmation and hides the revoked addresses', async () => {
    const h = host('en-US');
    h.mockCall('table/getAccessKey', { data: { accessKey: 'tak1.x', url: '/api/table/data?accessKey=tak1.x', csvUrl: '/api/table/data?accessKey=tak1.x&format=csv', expiresAt: '2026-11-27T10:00:00.000Z' } });
    h.mockCall('table/revokeAccessKeys', { data: { tableId: 'd1', revokedAt: '2026-11-27T09:00:00.000Z' } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('dataset-ops-orders'));
    fireEvent.click(await screen.findByRole('tab', { name: 'Read key' }));
    fireEvent.click(await screen.findByTestId('ops-make-key'));
    await screen.findByTestId('ops-key');
    fireEvent.click(screen.getByTestId('ops-revoke'));
    expect(h.calls.some((c) => c.url === 'table/revokeAccessKeys')).toBe(false);
    fireEvent.click(await screen.findByTestId('ops-revoke-confirm'));
    expect((await screen.findByTestId('ops-revoked')).textContent).toContain('no longer reads this dataset');
    expect(screen.queryByTestId('ops-key')).toBeNull();
    expect(h.calls.find((c) => c.url === 'table/revokeAccessKeys')!.body).toEqual({ tableId: 'd1' });
  });
});
