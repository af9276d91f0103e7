import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from './plugin';
import { screenOf } from './test-screens';

const SOLUTION = 'a'.repeat(32);
const JOB = 'c'.repeat(32);
const row = { id: 'b'.repeat(32), code: 'E-BBBBBBBB', name: 'env one', state: 'successful', progress: 1, durationMs: 1000, jobId: JOB, algorithm: 'bc', score: 80, createdAt: '2026-11-23T10:00:00.000Z' };

function host(locale: 'zh-CN' | 'en-US' = 'en-US') {
  const h = createTestHost({ plugins: [trainingsKitPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/environment', search: { solutionId: SOLUTION } } });
  h.mockCall('trainSimulator/list', { data: { rows: [row], total: 1 } });
  h.mockCall('trainSimulator/get', { data: row });
  h.mockCall('train/getTrainDisplayDataList', { data: { jobId: JOB, state: 'successful', progress: 1, metrics: {}, points: [{ id: 1, time: null, step: 0, loss: 2 }] } });
  h.mockCall('train/getTrainLog', { data: { jobId: JOB, state: 'successful', error: null, items: [], nextAfterId: null } });
  h.mockCall('train/getPicBySimulatorNum', { code: 8003, message: 'not found' });
  h.mockCall('solution/getPattern', { data: { graph: null, files: [] } });
  return h;
}

async function openDetail(h: ReturnType<typeof host>) {
  await renderPanel(screenOf('environment'), { host: h });
  fireEvent.click(await screen.findByText('env one'));
  return screen.findByTestId('tensorboard');
}

describe('TensorBoard button', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('starts TensorBoard for the job, opens it in a new tab and stops it', async () => {
    const h = host();
    const url = `/api/tensorboard/${JOB}/`;
    h.mockCall('train/reStartTensorBoard', { data: { jobId: JOB, running: true, url, downloadUrl: `/api/train/tensorBoardEvents?jobId=${JOB}` } });
    h.mockCall('train/destroyTensorBoard', { data: { jobId: JOB, running: false } });
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    await openDetail(h);
    const button = screen.getByRole('button', { name: 'TensorBoard' });
    expect(button.getAttribute('title')).toContain('event file');
    fireEvent.click(button);
    await waitFor(() => expect(open).toHaveBeenCalledWith(url, '_blank', 'noopener'));
    expect(h.calls.find((c) => c.url === 'train/reStartTensorBoard')?.body).toEqual({ jobId: JOB });
    // A link too, for when the browser blocks the new tab.
    const link = await screen.findByRole('link', { name: 'Open TensorBoard' });
    expect(link.getAttribute('href')).toBe(url);
    expect(link.getAttribute('target')).toBe('_blank');
    fireEvent.click(screen.getByRole('button', { name: 'Stop TensorBoard' }));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'train/destroyTensorBoard')?.body).toEqual({ jobId: JOB }));
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe('TensorBoard stopped'));
    expect(screen.queryByRole('link', { name: 'Open TensorBoard' })).toBeNull();
  });

  it('offers the event file when the server has no TensorBoard (in Chinese too)', async () => {
    const h = host('zh-CN');
    const downloadUrl = `/api/train/tensorBoardEvents?jobId=${JOB}`;
    h.mockCall('train/reStartTensorBoard', { data: { jobId: JOB, running: false, reason: 'notInstalled', downloadUrl } });
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    await openDetail(h);
    fireEvent.click(screen.getByRole('button', { name: 'TensorBoard' }));
    const callout = await screen.findByTestId('tensorboard-not-installed');
    expect(callout.textContent).toContain('服务器上未安装 TensorBoard');
    const download = screen.getByRole('button', { name: '下载事件文件' });
    expect(download.getAttribute('href')).toBe(downloadUrl);
    expect(download.hasAttribute('download')).toBe(true);
    expect(open).not.toHaveBeenCalled();
  });

  it('reports a refusal and is not offered while the job waits', async () => {
    const h = host();
    h.mockCall('train/reStartTensorBoard', { code: 8022, message: 'Training record not found' });
    await openDetail(h);
    fireEvent.click(screen.getByRole('button', { name: 'TensorBoard' }));
    await waitFor(() => expect(h.toasts.at(-1)?.message).toContain('Training record not found'));
    cleanup();

    const waiting = host();
    waiting.mockCall('trainSimulator/get', { data: { ...row, state: 'waiting' } });
    await renderPanel(screenOf('environment'), { host: waiting });
    fireEvent.click(await screen.findByText('env one'));
    expect(await screen.findByText('No measured points yet')).toBeTruthy();
    expect(screen.queryByTestId('tensorboard')).toBeNull();
  });
});
