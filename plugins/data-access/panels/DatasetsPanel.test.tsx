import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import { ErrorCode, type Dataset } from '@decisio/domain';
import { createTestHost, heldBack, pressBusy, renderPanel } from '@decisio/sdk-plugin/testing';
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

/** An import of the connection Shop as the `metadata/*` calls answer it (state left to the caller). */
const importOf = (tableId: string, source: Record<string, string> = { table: 'orders' }, name = 'orders') => ({
  tableId,
  connectionId: 'c1',
  connectionName: 'Shop',
  source,
  name,
  type: 'business',
  projectId: null,
  rowsCopied: 0,
  rowsExpected: 10,
  datasetId: null,
  errorCode: null,
  error: null,
  createdAt: '',
  endedAt: null,
});

/** A host with no dataset yet and one data connection, Shop, holding the table `shop.orders`. */
function importHost(locale: 'en-US' | 'zh-CN') {
  const host = createTestHost({ plugins: [dataAccessPlugin], locale, session: { token: 't', userId: 'u1' } });
  host.mockCall('table/list', page([]));
  host.mockCall('jobJdbcDatasource/all', { data: [{ id: 'c1', name: 'Shop', type: 'mysql' }] });
  host.mockCall('metadata/getTables', { data: [{ name: 'orders', schema: 'shop', kind: 'table', estimatedRows: 10 }] });
  return host;
}

/** In the open import dialog: chooses the connection Shop, and its table `shop.orders` unless `table` is false. */
async function chooseShop(table = true) {
  await screen.findByText('Shop (mysql)');
  fireEvent.change(screen.getByTestId('import-connection'), { target: { value: 'c1' } });
  if (!table) return;
  await screen.findByText('shop.orders (~10)');
  fireEvent.change(screen.getByTestId('import-table'), { target: { value: 'shop.orders' } });
}

/** A previewer standing in for the data worker (jsdom has no Worker); the real one runs in the e2e. */
function fakePreviewer(results: Record<string, PreviewResult>) {
  return setPreviewerFactory(() => ({
    inspect: (file) => Promise.resolve(results[file.name]!),
    stats: (file) => Promise.resolve({ name: file.name, kind: 'csv', ok: true, issues: [], rows: 2, columns: [{ name: 'a', kind: 'integer', count: 2, nulls: 0, nan: 0, min: 1, max: 3, mean: 2, distinct: 2, distinctApprox: false }], elapsedMs: 3 }),
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

  it("another project's datasets start on their first page and never show the previous project's while they load", async () => {
    const [ours, theirs] = ['7'.repeat(32), '6'.repeat(32)];
    const gate = heldBack();
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' }, location: { pathname: '/project/data', search: { projectId: ours } } });
    host.mockCall('table/list', async (body) => {
      const q = body as { projectId?: string; page: number };
      if (q.projectId !== theirs) return { data: { rows: [{ ...dataset, name: `ours-${q.page}`, projectId: ours }], total: 45, page: q.page, pageSize: 20 } };
      await gate.wait;
      return page([{ ...dataset, tableId: 'd2', name: 'theirs', projectId: theirs }]);
    });
    await renderPanel(panel, { host });
    expect(await screen.findByText('ours-1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('ours-2')).toBeTruthy();
    act(() => host.services.get(navigationServiceRef).navigate('/project/data', { search: { projectId: theirs } }));
    await waitFor(() => expect(host.calls.some((c) => c.url === 'table/list' && (c.body as { projectId?: string }).projectId === theirs)).toBe(true));
    expect(host.calls.filter((c) => c.url === 'table/list').pop()!.body).toMatchObject({ projectId: theirs, page: 1 });
    expect(screen.queryByText('ours-2')).toBeNull();
    gate.release();
    expect(await screen.findByText('theirs')).toBeTruthy();
  });

  it('lists datasets and refuses a duplicate-column file saying which columns, previews a good one', async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('table/list', page([dataset]));
    host.mockCall('file/getFreeSpace', { data: { totalBytes: 1e9, usedBytes: 0, freeBytes: 1e9, tenant: { totalBytes: 1e10, usedBytes: 0, freeBytes: 1e10 } } });
    restore = fakePreviewer({
      'dup.csv': { name: 'dup.csv', size: 10, kind: 'csv', ok: false, elapsedMs: 4, timings: {}, issues: [{ code: 'tableRepeatedColumns', value: ErrorCode.tableRepeatedColumns, reason: 'duplicateColumns', message: 'dup', fatal: true, details: { columns: ['a'] } }] },
      'good.csv': { name: 'good.csv', size: 10, kind: 'csv', ok: true, elapsedMs: 4, timings: {}, issues: [], columns: [{ name: 'a', kind: 'integer', rawType: 'BIGINT', missing: 0, nan: 0 }], rows: [[1], [3]] },
    });
    await renderPanel(panel, { host });
    expect(await screen.findByText('orders')).toBeTruthy();
    expect(screen.getByText('1,200')).toBeTruthy();
    fireEvent.click(screen.getByTestId('datasets-upload'));
    const input = (await screen.findByTestId('upload-file')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['a,a\n1,2\n'], 'dup.csv', { type: 'text/csv' })] } });
    expect((await screen.findByTestId('upload-issue-duplicateColumns')).textContent).toBe('Duplicate column names: a');
    expect(screen.getByTestId('upload-start').hasAttribute('disabled')).toBe(true);
    fireEvent.change(input, { target: { files: [new File(['a\n1\n3\n'], 'good.csv', { type: 'text/csv' })] } });
    expect(await screen.findByTestId('upload-preview')).toBeTruthy();
    expect(await screen.findByTestId('upload-stats')).toBeTruthy();
    expect((screen.getByTestId('upload-name') as HTMLInputElement).value).toBe('good');
    fireEvent.change(screen.getByTestId('upload-name'), { target: { value: 'x'.repeat(31) } });
    expect(screen.getByText('At most 30 characters')).toBeTruthy();
    expect(screen.getByTestId('upload-start').hasAttribute('disabled')).toBe(true);
  });

  it("offers a view-only collaborator of the project no upload, import, delete, add table or save, saying why", async () => {
    const P = '7'.repeat(32);
    const viewOnly = { projectId: P, name: 'P', colour: 'blue', industryTemplate: null, info: null, imageVersion: null, locked: false, favourite: false, ownerId: 'u1', ownerName: 'alice', right: 'view', solutionCount: 0, createdAt: '', updatedAt: '' };
    const reason = 'You can only view this project: ask its owner for the edit right to change it.';
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'carol' }, location: { pathname: '/project/data', search: { projectId: P } } });
    host.mockCall('table/list', page([{ ...dataset, projectId: P }]));
    host.mockCall('project/getProject', { data: viewOnly });
    await renderPanel(panel, { host });
    await screen.findByTestId('dataset-delete-orders');
    for (const id of ['datasets-upload', 'datasets-import', 'dataset-delete-orders']) {
      await waitFor(() => expect(screen.getByTestId(id).hasAttribute('disabled')).toBe(true));
      expect(screen.getByTestId(id).getAttribute('title')).toBe(reason);
    }
    cleanup();

    // The same project, with the edit right: all offered.
    const editor = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'carol' }, location: { pathname: '/project/data', search: { projectId: P } } });
    editor.mockCall('table/list', page([{ ...dataset, projectId: P }]));
    editor.mockCall('project/getProject', { data: { ...viewOnly, right: 'edit' } });
    await renderPanel(panel, { host: editor });
    await waitFor(() => expect(screen.getByTestId('datasets-upload').hasAttribute('disabled')).toBe(false));
    expect(screen.getByTestId('dataset-delete-orders').hasAttribute('disabled')).toBe(false);
    cleanup();

    // The data access step of a solution of that project.
    const corr = dataAccessPlugin.panels.find((p) => p.id === 'data-access.correlation')!;
    const step = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'carol' }, location: { pathname: '/workflow/table-correlation', search: { projectId: P, solutionId: 'S1' } } });
    step.mockCall('table/list', page([{ ...dataset, projectId: P }]));
    step.mockCall('project/getProject', { data: viewOnly });
    step.mockCall('solution/getTableCorrelation', { data: { solutionId: 'S1', correlation: null } });
    await renderPanel(corr, { host: step });
    for (const id of ['corr-add-table', 'corr-save']) {
      await waitFor(() => expect(screen.getByTestId(id).hasAttribute('disabled')).toBe(true));
      expect(screen.getByTestId(id).getAttribute('title')).toBe(reason);
    }
  });

  it('says what is wrong with a file once, in plain sentences: no data rows, the line that cannot be read, duplicate columns in Chinese', async () => {
    const parse = (details: Record<string, unknown>) => ({ code: 'tableFileFormatError' as const, value: ErrorCode.tableFileFormatError, reason: 'parse' as const, message: 'x', fatal: true, details });
    const results: Record<string, PreviewResult> = {
      'header.csv': {
        name: 'header.csv',
        size: 4,
        kind: 'csv',
        ok: false,
        elapsedMs: 1,
        timings: {},
        issues: [{ code: 'datasetEmpty', value: ErrorCode.datasetEmpty, reason: 'empty', message: 'x', fatal: true }],
        columns: [{ name: 'a', kind: 'empty', rawType: 'empty', missing: 0, nan: 0 }],
        rows: [],
      },
      'blank.csv': { name: 'blank.csv', size: 4, kind: 'csv', ok: false, elapsedMs: 1, timings: {}, issues: [{ code: 'datasetEmpty', value: ErrorCode.datasetEmpty, reason: 'empty', message: 'x', fatal: true }], columns: [], rows: [] },
      'ragged.csv': { name: 'ragged.csv', size: 4, kind: 'csv', ok: false, elapsedMs: 1, timings: {}, issues: [parse({ line: 4 }), parse({ line: 2, fields: 3, expected: 2 })] },
      'dup.csv': { name: 'dup.csv', size: 4, kind: 'csv', ok: false, elapsedMs: 1, timings: {}, issues: [{ code: 'tableRepeatedColumns', value: ErrorCode.tableRepeatedColumns, reason: 'duplicateColumns', message: 'x', fatal: true, details: { columns: ['x'] } }] },
    };
    restore = fakePreviewer(results);
    const texts = async (locale: 'en-US' | 'zh-CN', file: string) => {
      const host = createTestHost({ plugins: [dataAccessPlugin], locale, session: { token: 't', userId: 'u1' } });
      host.mockCall('table/list', page([dataset]));
      host.mockCall('file/getFreeSpace', { data: { totalBytes: 1e9, usedBytes: 0, freeBytes: 1e9, tenant: { totalBytes: 1e10, usedBytes: 0, freeBytes: 1e10 } } });
      await renderPanel(panel, { host });
      fireEvent.click(await screen.findByTestId('datasets-upload'));
      fireEvent.change(await screen.findByTestId('upload-file'), { target: { files: [new File(['x'], file, { type: 'text/csv' })] } });
      const out = [...(await screen.findByTestId('upload-issues')).querySelectorAll('li')].map((li) => li.textContent);
      cleanup();
      return out;
    };
    expect(await texts('en-US', 'header.csv')).toEqual(['The file has a header but no data rows']);
    expect(await texts('en-US', 'blank.csv')).toEqual(['The file is empty']);
    expect(await texts('en-US', 'ragged.csv')).toEqual(['Line 2 has 3 fields, the header has 2']);
    expect(await texts('zh-CN', 'ragged.csv')).toEqual(['第 2 行有 3 个字段，表头有 2 个']);
    expect(await texts('zh-CN', 'header.csv')).toEqual(['文件只有表头，没有数据行']);
    expect(await texts('zh-CN', 'dup.csv')).toEqual(['列名重复：x']);
  });

  it('names column types in plain words: the upload preview and statistics in Chinese, the dataset preview in both languages', async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
    host.mockCall('table/list', page([dataset]));
    host.mockCall('file/getFreeSpace', { data: { totalBytes: 1e9, usedBytes: 0, freeBytes: 1e9, tenant: { totalBytes: 1e10, usedBytes: 0, freeBytes: 1e10 } } });
    const kinds = ['integer', 'date', 'float', 'string', 'empty'] as const;
    restore = fakePreviewer({
      'kinds.csv': {
        name: 'kinds.csv',
        size: 10,
        kind: 'csv',
        ok: true,
        elapsedMs: 4,
        timings: {},
        issues: [],
        columns: kinds.map((k) => ({ name: `c_${k}`, kind: k, rawType: k, missing: 0, nan: 0 })),
        rows: [[1, '2024-01-01', 1.5, 'x', null]],
      },
    });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('datasets-upload'));
    fireEvent.change(await screen.findByTestId('upload-file'), { target: { files: [new File(['x'], 'kinds.csv', { type: 'text/csv' })] } });
    const heads = [...(await screen.findByTestId('upload-preview')).querySelectorAll('th')].map((th) => th.textContent);
    expect(heads).toEqual(['c_integer (整数)', 'c_date (日期)', 'c_float (小数)', 'c_string (文本)', 'c_empty (空)']);
    const statKind = (await screen.findByTestId('upload-stats')).querySelector('tbody td:nth-child(2)')!;
    expect([statKind.textContent, statKind.getAttribute('title')]).toEqual(['整数', 'integer']);
    cleanup();

    const types = ['BIGINT', 'DOUBLE', 'VARCHAR', 'DATE', 'TIMESTAMP WITH TIME ZONE'];
    for (const [locale, words] of [
      ['en-US', ['integer', 'decimal', 'text', 'date', 'date and time']],
      ['zh-CN', ['整数', '小数', '文本', '日期', '日期时间']],
    ] as const) {
      const h = createTestHost({ plugins: [dataAccessPlugin], locale, session: { token: 't', userId: 'u1' } });
      h.mockCall('table/list', page([dataset]));
      h.mockCall('table/get', { data: dataset });
      h.mockCall('file/previewCSV', { data: { columns: types.map((type, i) => ({ name: `c${i}`, type })), rows: [], total: 0, offset: 0, stats: [] } });
      await renderPanel(panel, { host: h });
      fireEvent.click(await screen.findByTestId('dataset-open-orders'));
      const spans = [...(await screen.findByTestId('dataset-preview')).querySelectorAll('th span')];
      expect(spans.map((x) => x.textContent)).toEqual(words.map((w) => `(${w})`));
      expect(spans.map((x) => x.getAttribute('title'))).toEqual(types);
      cleanup();
    }
  });

  it('refuses a dataset name the user already used before sending the file, in both languages', async () => {
    for (const [locale, message] of [['en-US', 'Table name already exists'], ['zh-CN', '数据表名称已存在']] as const) {
      const host = createTestHost({ plugins: [dataAccessPlugin], locale, session: { token: 't', userId: 'u1' } });
      host.mockCall('table/list', (body) => page((body as { keyword?: string }).keyword?.toLowerCase() === 'orders' ? [dataset] : []));
      host.mockCall('file/getFreeSpace', { data: { totalBytes: 1e9, usedBytes: 0, freeBytes: 1e9, tenant: { totalBytes: 1e10, usedBytes: 0, freeBytes: 1e10 } } });
      host.mockCall('file/uploadpartinit', { code: 1008, message: 'stop here' });
      restore = fakePreviewer({
        'ORDERS.csv': { name: 'ORDERS.csv', size: 10, kind: 'csv', ok: true, elapsedMs: 4, timings: {}, issues: [], columns: [{ name: 'a', kind: 'integer', rawType: 'BIGINT', missing: 0, nan: 0 }], rows: [[1]] },
      });
      await renderPanel(panel, { host });
      fireEvent.click(await screen.findByTestId('datasets-upload'));
      fireEvent.change(await screen.findByTestId('upload-file'), { target: { files: [new File(['a\n1\n'], 'ORDERS.csv', { type: 'text/csv' })] } });
      await waitFor(() => expect(screen.getByTestId('upload-start').hasAttribute('disabled')).toBe(false));
      fireEvent.click(screen.getByTestId('upload-start'));
      expect((await screen.findByTestId('upload-error')).textContent).toBe(message);
      expect(host.calls.some((c) => c.url === 'file/uploadpartinit')).toBe(false);
      // Another name goes on to the upload.
      fireEvent.change(screen.getByTestId('upload-name'), { target: { value: 'orders 2' } });
      fireEvent.click(screen.getByTestId('upload-start'));
      await waitFor(() => expect(host.calls.some((c) => c.url === 'file/uploadpartinit')).toBe(true));
      restore();
      restore = undefined;
      cleanup();
    }
  });

  it('opens the import dialog with the focus on its first field, the connection (not on Blueprint\'s empty focus trap)', async () => {
    await renderPanel(panel, { host: importHost('en-US') });
    fireEvent.click(await screen.findByTestId('datasets-import'));
    await screen.findByText('Shop (mysql)');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('import-connection')));
  });

  it('imports a table from a connection, following the copy until the dataset exists', async () => {
    const host = importHost('en-US');
    const status = importOf('imp1');
    host.mockCall('metadata/startImport', { data: { ...status, state: 'waiting' } });
    host.mockCall('metadata/getCopyStatusByTableId', { data: { ...status, state: 'successful', rowsCopied: 10, datasetId: 'd1' } });
    host.mockCall('table/get', { data: dataset });
    host.mockCall('file/previewCSV', { data: { columns: [{ name: 'speed', type: 'DOUBLE' }], rows: [[1.5]], total: 1200, offset: 0, stats: [] } });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('datasets-import'));
    fireEvent.click(await screen.findByTestId('import-start'));
    expect((await screen.findAllByText('Required')).length).toBeGreaterThan(0);
    expect(host.calls.some((c) => c.url === 'metadata/startImport')).toBe(false);
    await chooseShop();
    expect((screen.getByTestId('import-name') as HTMLInputElement).value).toBe('orders');
    fireEvent.click(screen.getByTestId('import-start'));
    await waitFor(() => expect(host.toasts.at(-1)?.message).toBe('Dataset orders imported'), { timeout: 5000 });
    expect(host.calls.find((c) => c.url === 'metadata/startImport')?.body).toEqual({ connectionId: 'c1', table: 'orders', schema: 'shop', name: 'orders', type: 'business' });
    expect(await screen.findByTestId('dataset-preview')).toBeTruthy();
  });

  it("offers the chosen connection's tables only, never the previous connection's while they load", async () => {
    const host = importHost('en-US');
    host.mockCall('jobJdbcDatasource/all', { data: [{ id: 'c1', name: 'Shop', type: 'mysql' }, { id: 'c2', name: 'Stock', type: 'postgresql' }] });
    const gate = heldBack();
    host.mockCall('metadata/getTables', async (body) => {
      if ((body as { id: string }).id === 'c1') return { data: [{ name: 'orders', schema: 'shop', kind: 'table', estimatedRows: 10 }] };
      await gate.wait;
      return { data: [{ name: 'levels', schema: 'public', kind: 'table', estimatedRows: 5 }] };
    });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('datasets-import'));
    await chooseShop(false);
    const options = () => [...(screen.getByTestId('import-table') as HTMLSelectElement).options].map((o) => o.textContent);
    await waitFor(() => expect(options()).toContain('shop.orders (~10)'));
    fireEvent.change(screen.getByTestId('import-connection'), { target: { value: 'c2' } });
    await waitFor(() => expect(host.calls.some((c) => c.url === 'metadata/getTables' && (c.body as { id: string }).id === 'c2')).toBe(true));
    expect(options()).toEqual(['Choose a table…']);
    gate.release();
    await waitFor(() => expect(options()).toContain('public.levels (~5)'));
  });

  it('cancels a running import from the dialog: the copy stops, no dataset is opened, the dialog can close again', async () => {
    const host = importHost('en-US');
    const status = { ...importOf('imp2', { sql: 'SELECT 1' }, 'big'), rowsCopied: 512, rowsExpected: 100000 };
    let stopped = false;
    host.mockCall('metadata/startImport', { data: { ...status, state: 'waiting', rowsCopied: 0 } });
    host.mockCall('metadata/getCopyStatusByTableId', () => ({ data: { ...status, state: stopped ? 'stopped' : 'copying' } }));
    host.mockCall('metadata/stopImport', () => ((stopped = true), { data: { ...status, state: 'stopped' } }));
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('datasets-import'));
    await chooseShop(false);
    fireEvent.click(screen.getByTestId('import-mode-query'));
    fireEvent.change(await screen.findByTestId('import-sql'), { target: { value: 'SELECT 1' } });
    fireEvent.change(screen.getByTestId('import-name'), { target: { value: 'big' } });
    expect(screen.queryByTestId('import-cancel')).toBeNull();
    fireEvent.click(screen.getByTestId('import-start'));
    // While it runs there is no Close, only Cancel.
    const cancel = await screen.findByTestId('import-cancel');
    expect(cancel.textContent).toBe('Cancel import');
    expect(screen.queryByText('Close')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('import-status').getAttribute('data-state')).toBe('copying'), { timeout: 5000 });
    fireEvent.click(cancel);
    await waitFor(() => expect(host.toasts.at(-1)).toMatchObject({ message: 'Import of big cancelled; no dataset was made', intent: 'warning' }));
    expect(host.calls.filter((c) => c.url === 'metadata/stopImport').map((c) => c.body)).toEqual([{ tableId: 'imp2' }]);
    expect(screen.getByTestId('import-status').getAttribute('data-state')).toBe('stopped');
    expect(screen.getByText('Import stopped')).toBeTruthy();
    expect(screen.queryByTestId('import-cancel')).toBeNull();
    expect(screen.getByText('Close')).toBeTruthy();
    expect(screen.queryByTestId('dataset-preview')).toBeNull();
  });

  it('keeps the keyboard in the import dialog: Cancel takes the focus from the busy Import, Close takes it after the cancel', async () => {
    const host = importHost('en-US');
    const status = { ...importOf('imp4', { table: 'orders' }, 'orders'), rowsCopied: 3 };
    let stopped = false;
    host.mockCall('metadata/startImport', { data: { ...status, state: 'waiting', rowsCopied: 0 } });
    host.mockCall('metadata/getCopyStatusByTableId', () => ({ data: { ...status, state: stopped ? 'stopped' : 'copying' } }));
    host.mockCall('metadata/stopImport', () => ((stopped = true), { data: { ...status, state: 'stopped' } }));
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('datasets-import'));
    await chooseShop();
    fireEvent.click(screen.getByTestId('import-start'));
    // The Import button turns busy (disabled): the focus goes to Cancel, not out of the dialog.
    const cancel = await screen.findByTestId('import-cancel');
    await waitFor(() => expect(document.activeElement).toBe(cancel));
    fireEvent.click(cancel);
    await waitFor(() => expect(screen.getByTestId('import-status').getAttribute('data-state')).toBe('stopped'));
    // Escape and Tab go on from Close (Blueprint's dialog hears the keys only from inside it).
    expect(document.activeElement).toBe(screen.getByText('Close').closest('button'));
  });

  it('says why an import can no longer be cancelled, in Chinese', async () => {
    const host = importHost('zh-CN');
    const status = importOf('imp3');
    host.mockCall('metadata/startImport', { data: { ...status, state: 'waiting' } });
    host.mockCall('metadata/getCopyStatusByTableId', { data: { ...status, state: 'copying', rowsCopied: 4 } });
    host.mockCall('metadata/stopImport', { code: ErrorCode.importNotRunning, message: '只有等待中或复制中的导入可以停止' });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('datasets-import'));
    await chooseShop();
    fireEvent.click(screen.getByTestId('import-start'));
    fireEvent.click(await screen.findByText('取消导入'));
    await waitFor(() => expect(host.toasts.at(-1)).toMatchObject({ message: '只有等待中或复制中的导入可以停止', intent: 'danger' }));
    expect(screen.getByTestId('import-cancel')).toBeTruthy();
  });

  it("opens another dataset's field settings with its own fields only, never the previously opened one's", async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    const other: Dataset = { ...dataset, tableId: 'd2', name: 'stock', columns: [column('level')] };
    const gate = heldBack();
    host.mockCall('table/list', page([dataset, other]));
    host.mockCall('table/get', async (body) => {
      if ((body as { tableId: string }).tableId !== other.tableId) return { data: dataset };
      await gate.wait;
      return { data: other };
    });
    host.mockCall('file/previewCSV', { data: { columns: [], rows: [], total: 0, offset: 0, stats: [] } });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('dataset-open-orders'));
    await screen.findByTestId('field-min-speed');
    fireEvent.click(screen.getByText('Close'));
    fireEvent.click(await screen.findByTestId('dataset-open-stock'));
    await waitFor(() => expect(host.calls.some((c) => c.url === 'table/get' && (c.body as { tableId: string }).tableId === other.tableId)).toBe(true));
    expect(screen.queryByTestId('field-min-speed')).toBeNull();
    gate.release();
    await screen.findByTestId('field-min-level');
    expect(screen.queryByTestId('field-min-speed')).toBeNull();
  });

  it("closes the field settings with Blueprint's animation (the dialog stays until it has faded), and opens afresh, without unsaved edits", async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('table/list', page([dataset]));
    host.mockCall('table/get', { data: dataset });
    host.mockCall('file/previewCSV', { data: { columns: [], rows: [], total: 0, offset: 0, stats: [] } });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('dataset-open-orders'));
    fireEvent.change(await screen.findByTestId('field-min-speed'), { target: { value: '5' } });
    fireEvent.click(screen.getByText('Close'));
    // Still there while it fades out (a remount would drop it at once), then gone.
    expect(screen.getByTestId('field-min-speed')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('field-min-speed')).toBeNull());
    fireEvent.click(screen.getByTestId('dataset-open-orders'));
    expect(((await screen.findByTestId('field-min-speed')) as HTMLInputElement).value).toBe('0');
  });

  it('keeps the keyboard in the field settings after saving: the focus the busy Save lost comes back to it, so Escape closes the dialog', async () => {
    const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    const gate = heldBack();
    host.mockCall('table/list', page([dataset]));
    host.mockCall('table/get', { data: dataset });
    host.mockCall('file/previewCSV', { data: { columns: [], rows: [], total: 0, offset: 0, stats: [] } });
    host.mockCall('table/setFields', async () => {
      await gate.wait;
      return { data: dataset };
    });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('dataset-open-orders'));
    await screen.findByTestId('field-min-speed');
    const save = screen.getByTestId('fields-save') as HTMLButtonElement;
    await pressBusy(save);
    await act(async () => gate.release());
    await waitFor(() => expect(host.toasts.at(-1)?.message).toBe('Field settings saved'));
    await waitFor(() => expect(document.activeElement).toBe(save));
    // Blueprint's dialog hears Escape only from inside it.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('field-min-speed')).toBeNull());
  });

  it('shows dates as days and timestamps in local time in the preview, the full value in the title', async () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Shanghai';
    try {
      const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
      host.mockCall('table/list', page([dataset]));
      host.mockCall('table/get', { data: dataset });
      host.mockCall('file/previewCSV', {
        data: { columns: [{ name: 'day', type: 'DATE' }, { name: 'at', type: 'TIMESTAMP WITH TIME ZONE' }], rows: [['2024-01-01T00:00:00.000Z', '2024-01-01T00:30:00.000Z']], total: 1, offset: 0, stats: [] },
      });
      await renderPanel(panel, { host });
      fireEvent.click(await screen.findByTestId('dataset-open-orders'));
      const cells = [...(await screen.findByTestId('dataset-preview')).querySelectorAll('tbody td')];
      expect(cells.map((c) => c.textContent)).toEqual(['2024-01-01', '2024-01-01 08:30:00']);
      expect(cells[1]!.getAttribute('title')).toBe('2024-01-01T00:30:00.000Z');
    } finally {
      process.env.TZ = tz;
    }
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

  it('downloads the original file of an uploaded dataset (none for a database import); a missing file is said, in Chinese', async () => {
    const clicked: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    try {
      const host = createTestHost({ plugins: [dataAccessPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
      const imported: Dataset = { ...dataset, tableId: 'd2', name: 'shop_orders', fileType: 'sql', fileName: 'shop.orders' };
      host.mockCall('table/list', page([dataset, imported]));
      host.mockCall('file/getDataSourceDownloadUrl', { data: { url: '/api/file/download?fileId=f1', name: 'orders.csv', size: 4096 } });
      await renderPanel(panel, { host });
      const button = await screen.findByTestId('dataset-download-orders');
      expect(button.getAttribute('title')).toBe('Download the original file orders.csv');
      expect(screen.queryByTestId('dataset-download-shop_orders')).toBeNull();
      fireEvent.click(button);
      await waitFor(() => expect(clicked).toEqual([{ href: '/api/file/download?fileId=f1', download: 'orders.csv' }]));
      expect(host.calls.find((c) => c.url === 'file/getDataSourceDownloadUrl')!.body).toEqual({ tableId: 'd1' });
      cleanup();

      const zh = createTestHost({ plugins: [dataAccessPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
      zh.mockCall('table/list', page([dataset]));
      zh.mockCall('file/getDataSourceDownloadUrl', { code: ErrorCode.fileNotFound, message: '文件不存在' });
      await renderPanel(panel, { host: zh });
      const zhButton = await screen.findByTestId('dataset-download-orders');
      expect(zhButton.textContent).toBe('下载');
      fireEvent.click(zhButton);
      await waitFor(() => expect(zh.toasts.map((x) => x.message)).toContain('文件不存在'));
      expect(clicked).toHaveLength(1);
    } finally {
      click.mockRestore();
    }
  });

  it('shows the columns of the chosen table, and checks a query before importing it (its failure said), in both languages', async () => {
    const host = importHost('en-US');
    host.mockCall('metadata/getColumns', {
      data: [
        { name: 'id', dataType: 'int', kind: 'number', nullable: false },
        { name: 'placed_at', dataType: 'datetime', kind: 'datetime', nullable: true },
      ],
    });
    host.mockCall('metadata/getColumnsByQuerySql', { code: ErrorCode.tableParamError, message: 'The query failed on the outside server' });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('datasets-import'));
    await chooseShop();
    fireEvent.click(await screen.findByRole('button', { name: 'Show columns' }));
    const table = await screen.findByTestId('import-columns-table');
    expect(table.textContent).toContain('2 columns');
    expect(table.textContent).toContain('placed_at');
    expect(table.textContent).toContain('date and time');
    expect(host.calls.find((c) => c.url === 'metadata/getColumns')?.body).toEqual({ id: 'c1', table: 'orders', schema: 'shop' });
    // a query: the answer for the table is gone, the query is checked on the server
    fireEvent.click(screen.getByTestId('import-mode-query'));
    fireEvent.change(screen.getByTestId('import-sql'), { target: { value: ' select * from orders where total > ' } });
    expect(screen.queryByTestId('import-columns-table')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Check the query' }));
    expect((await screen.findByTestId('import-columns-error')).textContent).toBe('The query failed on the outside server');
    expect(host.calls.find((c) => c.url === 'metadata/getColumnsByQuerySql')?.body).toEqual({ id: 'c1', sql: 'select * from orders where total >' });
    expect(host.calls.some((c) => c.url === 'metadata/startImport')).toBe(false);
    cleanup();

    const zh = importHost('zh-CN');
    zh.mockCall('metadata/getColumnsByQuerySql', { data: [{ name: 'total', dataType: 'number', kind: 'number', nullable: true }] });
    await renderPanel(panel, { host: zh });
    fireEvent.click(await screen.findByTestId('datasets-import'));
    await screen.findByText('Shop (mysql)');
    fireEvent.change(screen.getByTestId('import-connection'), { target: { value: 'c1' } });
    fireEvent.click(screen.getByTestId('import-mode-query'));
    fireEvent.change(screen.getByTestId('import-sql'), { target: { value: 'select total from orders' } });
    fireEvent.click(screen.getByRole('button', { name: '检查查询' }));
    const zhTable = await screen.findByTestId('import-columns-table');
    expect(zhTable.textContent).toContain('共 1 列');
    expect(zhTable.textContent).toContain('数值');
  });

  it('fills a category field\'s values from the column (metadata/getColumnsValue), leaving out what is not a number, in both languages', async () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const host = createTestHost({ plugins: [dataAccessPlugin], locale, session: { token: 't', userId: 'u1' } });
      host.mockCall('table/list', page([dataset]));
      host.mockCall('table/get', { data: dataset });
      host.mockCall('file/previewCSV', { data: { columns: [{ name: 'speed', type: 'DOUBLE' }, { name: 'gear', type: 'BIGINT' }], rows: [[1.5, 2]], total: 1200, offset: 0, stats: [] } });
      host.mockCall('metadata/getColumnsValue', { data: { values: [3, 1, 'n/a', null, 2] } });
      await renderPanel(panel, { host });
      fireEvent.click(await screen.findByTestId('dataset-open-orders'));
      await screen.findByTestId('field-datatype-gear');
      expect(screen.queryByTestId('field-fill-gear')).toBeNull();
      fireEvent.change(screen.getByTestId('field-datatype-gear'), { target: { value: 'category' } });
      const fill = screen.getByTestId('field-fill-gear');
      expect(fill.getAttribute('aria-label')).toBe(locale === 'en-US' ? 'Fill from the data' : '从数据填入');
      fill.focus();
      fireEvent.click(fill);
      // busy, the Fill button is disabled and a browser drops its focus to the page (jsdom does not: done here)
      fill.blur();
      await waitFor(() => expect((screen.getByTestId('field-values-gear') as HTMLInputElement).value).toBe('1, 2, 3'));
      // the focus comes back into the dialog, to the filled values
      expect(document.activeElement).toBe(screen.getByTestId('field-values-gear'));
      expect(host.calls.find((c) => c.url === 'metadata/getColumnsValue')?.body).toEqual({ tableId: 'd1', column: 'gear', limit: 1000 });
      expect(host.toasts.at(-1)?.message).toBe(locale === 'en-US' ? '2 values of gear that are not numbers were left out' : '已略去 gear 中 2 个非数字取值');
      cleanup();
    }
  });
});
