import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ErrorCode, type FileItem, type Page } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { storagePlugin } from '../index';
import { checkCodeFiles } from './CodeFiles';

const panel = storagePlugin.panels.find((p) => p.id === 'storage.files')!;
const GB = 1024 ** 3;

function file(over: Partial<FileItem> = {}): FileItem {
  return {
    fileId: 'a'.repeat(32),
    name: 'sales.csv',
    path: 'sales.csv',
    kind: 'upload',
    size: 5 * 1024 * 1024,
    userId: 'b'.repeat(32),
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    deletedAt: null,
    ...over,
  };
}
const page = (rows: FileItem[]): Page<FileItem> => ({ rows, total: rows.length, page: 1, pageSize: 20 });
const space = { totalBytes: 10 * GB, usedBytes: 1 * GB, freeBytes: 9 * GB, tenant: { totalBytes: 500 * GB, usedBytes: GB, freeBytes: 499 * GB } };

function host(locale: 'en-US' | 'zh-CN', rows: FileItem[]) {
  const h = createTestHost({ plugins: [storagePlugin], locale, session: { token: 't', userId: 'b'.repeat(32) } });
  h.mockCall('file/getFreeSpace', { data: space });
  h.mockCall('file/fileItemList', { data: page(rows) });
  h.mockCall('file/uploadingList', { data: [] });
  return h;
}

describe('StoragePanel', () => {
  afterEach(() => cleanup());

  it('shows the space used and the files', async () => {
    await renderPanel(panel, { host: host('en-US', [file(), file({ fileId: 'c'.repeat(32), name: 'b.npz', path: 'b.npz', size: 2048 })]) });
    const rows = await screen.findByTestId('storage-rows');
    expect(within(rows).getByText('sales.csv')).toBeTruthy();
    expect(within(rows).getByText('5.00 MB')).toBeTruthy();
    expect(within(rows).getByText('2.00 KB')).toBeTruthy();
    expect(await screen.findByText(/1\.00 GB of 10\.0 GB used/)).toBeTruthy();
  });

  it('shows the empty state in both languages', async () => {
    await renderPanel(panel, { host: host('zh-CN', []) });
    expect(await screen.findByText('还没有文件')).toBeTruthy();
    cleanup();
    await renderPanel(panel, { host: host('en-US', []) });
    expect(await screen.findByText('No files yet')).toBeTruthy();
  });

  it('shows an error state with retry when the list fails', async () => {
    const h = host('en-US', []);
    h.mockCall('file/fileItemList', 'network');
    await renderPanel(panel, { host: h });
    expect(await screen.findByText('Could not load your files')).toBeTruthy();
    h.mockCall('file/fileItemList', { data: page([file()]) });
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('storage-rows')).toBeTruthy();
  });

  it('deletes a file after confirmation', async () => {
    const h = host('en-US', [file()]);
    h.mockCall('file/deleteFile', { data: null });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete the file sales.csv? This cannot be undone.')).toBeTruthy();
    const dialog = document.querySelector('.bp6-alert') as HTMLElement;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'file/deleteFile')).toBe(true));
    expect(h.calls.find((c) => c.url === 'file/deleteFile')!.body).toEqual({ fileId: 'a'.repeat(32) });
    await waitFor(() => expect(h.toasts.some((n) => n.message === 'sales.csv deleted')).toBe(true));
  });

  it('lists unfinished uploads and discards one', async () => {
    const h = host('en-US', []);
    h.mockCall('file/uploadingList', {
      data: [{ uploadId: 'd'.repeat(32), name: 'big.csv', purpose: 'dataset', size: 200 * 1024 * 1024, partSize: 8 * 1024 * 1024, partCount: 25, state: 'uploading', parts: [1, 2], receivedBytes: 16 * 1024 * 1024, fileId: null, createdAt: '' }],
    });
    h.mockCall('file/mpuAbortOne', { data: null });
    await renderPanel(panel, { host: h });
    const box = await screen.findByTestId('storage-interrupted');
    expect(within(box).getByText(/big\.csv · 16\.0 MB of 200 MB uploaded/)).toBeTruthy();
    fireEvent.click(within(box).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'file/mpuAbortOne')?.body).toEqual({ uploadId: 'd'.repeat(32) }));
  });

  it('expands the storage: more than 0, total at most 500 GB', async () => {
    const h = host('en-US', []);
    h.mockCall('file/addStorageSpace', { data: { ...space, totalBytes: 12 * GB } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByRole('button', { name: 'Expand' }));
    const input = await screen.findByLabelText('Space to add (GB)');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Enter a number greater than 0')).toBeTruthy();
    fireEvent.change(input, { target: { value: '491' } });
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('The total cannot exceed 500 GB')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'file/addStorageSpace')).toBe(false);
    fireEvent.change(input, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'file/addStorageSpace')?.body).toEqual({ size: 2 }));
    await waitFor(() => expect(h.toasts.some((n) => n.message === '2 GB added')).toBe(true));
  });

  it('explains the used space by its parts', async () => {
    const h = host('en-US', []);
    h.mockCall('file/getFreeSpace', { data: { ...space, breakdown: { files: 512 * 1024 ** 2, code: 0, datasets: 256 * 1024 ** 2, uploading: 0, artefacts: 256 * 1024 ** 2 } } });
    await renderPanel(panel, { host: h });
    const line = await screen.findByTestId('storage-breakdown');
    expect(line.textContent).toBe('What uses the space: Uploaded files 512 MB · Dataset copies 256 MB · Training models and logs 256 MB');
  });

  it('lists deleted-file records in both languages, with an empty state', async () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const h = host(locale, [file()]);
      h.mockCall('file/getDeleteFileRecord', { data: page([file({ fileId: 'e'.repeat(32), name: 'old.csv', path: 'old.csv', deletedAt: '2026-11-02T10:00:00.000Z' })]) });
      await renderPanel(panel, { host: h });
      fireEvent.click(await screen.findByRole('tab', { name: locale === 'en-US' ? 'Deleted files' : '已删除文件' }));
      const rows = await screen.findByTestId('storage-deleted-rows');
      expect(within(rows).getByText('old.csv')).toBeTruthy();
      expect(within(rows).getByText(locale === 'en-US' ? 'Deleted' : '删除时间')).toBeTruthy();
      expect(h.calls.find((c) => c.url === 'file/getDeleteFileRecord')?.body).toEqual({ page: 1, pageSize: 20 });
      cleanup();
    }
    const h = host('en-US', []);
    h.mockCall('file/getDeleteFileRecord', { data: page([]) });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByRole('tab', { name: 'Deleted files' }));
    expect(await screen.findByText('No deleted files')).toBeTruthy();
  });

  it('refuses an empty file before uploading it', async () => {
    const h = host('en-US', []);
    await renderPanel(panel, { host: h });
    const input = (await screen.findByTestId('storage-file-input')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([], 'nothing.csv')] } });
    await waitFor(() => expect(h.toasts.some((n) => n.message === 'nothing.csv is empty: choose a file with data')).toBe(true));
    expect(h.calls.some((c) => c.url === 'file/uploadpartinit')).toBe(false);
  });

  it('uploads a code folder under its relative paths (file/uploadFileByContent), refusing bad names before sending', async () => {
    const h = host('en-US', []);
    h.mockCall('file/uploadFileByContent', (body) => ({ data: (body as { files: { path: string }[] }).files.map((f, i) => file({ fileId: String(i).repeat(32), name: f.path.split('/').pop()!, path: f.path, kind: 'code' })) }));
    await renderPanel(panel, { host: h });
    const input = (await screen.findByTestId('storage-code-input')) as HTMLInputElement;
    expect(input.hasAttribute('webkitdirectory')).toBe(true);
    const inFolder = (text: string, path: string) => Object.defineProperty(new File([text], path.split('/').pop()!), 'webkitRelativePath', { value: path });
    fireEvent.change(input, { target: { files: [inFolder('x', 'reward/bad*name.py')] } });
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe('Names may hold letters, digits, Chinese, . _ - ( ) and spaces only: reward/bad*name.py'));
    expect(h.calls.some((c) => c.url === 'file/uploadFileByContent')).toBe(false);
    fireEvent.change(input, { target: { files: [inFolder('def reward(x):\n  return 1\n', 'reward/reward.py'), inFolder('W = 2\n', 'reward/lib/consts.py')] } });
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe('2 code files saved'));
    expect(h.calls.find((c) => c.url === 'file/uploadFileByContent')!.body).toEqual({
      files: [
        { path: 'reward/reward.py', content: 'def reward(x):\n  return 1\n' },
        { path: 'reward/lib/consts.py', content: 'W = 2\n' },
      ],
    });
  });

  it('checks the count and size of a code upload', () => {
    const f = (path: string, size: number) => ({ path, size, text: () => Promise.resolve('') });
    expect(checkCodeFiles([])).toEqual({ reason: 'empty' });
    expect(checkCodeFiles(Array.from({ length: 201 }, (_, i) => f(`a/${i}.py`, 1)))).toEqual({ reason: 'tooMany' });
    expect(checkCodeFiles([f('a/big.py', 10 * 1024 ** 2 + 1)])).toEqual({ reason: 'tooLarge' });
    expect(checkCodeFiles([f('a/ok.py', 10), f('../up.py', 1)])).toEqual({ reason: 'badPaths', paths: ['../up.py'] });
    expect(checkCodeFiles([f('a/ok.py', 10)])).toBeNull();
  });

  it('shows a code file\'s text (file/getContentByFilePath), and says when it is gone, in Chinese', async () => {
    const code = file({ fileId: 'd'.repeat(32), name: 'reward.py', path: 'reward/reward.py', kind: 'code', size: 26 });
    const h = host('zh-CN', [file(), code]);
    h.mockCall('file/getContentByFilePath', { data: { path: 'reward/reward.py', content: 'def reward(x):\n  return 1\n', size: 26, updatedAt: '2026-11-01T10:00:00.000Z' } });
    await renderPanel(panel, { host: h });
    const rows = await screen.findByTestId('storage-rows');
    expect(within(rows).getAllByRole('button', { name: '查看' })).toHaveLength(1);
    fireEvent.click(within(rows).getByRole('button', { name: '查看' }));
    expect((await screen.findByTestId('storage-code-content')).textContent).toBe('def reward(x):\n  return 1\n');
    expect(h.calls.find((c) => c.url === 'file/getContentByFilePath')!.body).toEqual({ path: 'reward/reward.py' });
    // the footer's Close (the header's cross is named 关闭 too)
    const [, footerClose] = screen.getAllByRole('button', { name: '关闭' });
    fireEvent.click(footerClose!);
    await waitFor(() => expect(screen.queryByTestId('storage-code-content')).toBeNull());
    cleanup();

    const gone = host('zh-CN', [code]);
    gone.mockCall('file/getContentByFilePath', { code: ErrorCode.fileNotFound, message: '文件不存在' });
    await renderPanel(panel, { host: gone });
    fireEvent.click(within(await screen.findByTestId('storage-rows')).getByRole('button', { name: '查看' }));
    expect((await screen.findByTestId('storage-code-error')).textContent).toBe('文件不存在');
  });
});
