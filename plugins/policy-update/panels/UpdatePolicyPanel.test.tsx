/**
 * The policy update page's "update the environment first" option: the ticked datasets go to an
 * environment update of the policy's environment, and the policy update starts only once that
 * run has succeeded (not after a failed one). A running run is followed through its job's live
 * stream: a state event reads the runs again, and nothing is polled while the stream is open.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import { createTestHost, renderPanel, ScriptedEventSource } from '@decisio/sdk-plugin/testing';
import { policyUpdatePlugin } from '../index';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';

const update = policyUpdatePlugin.panels.find((p) => p.id === 'policy-update.list')!;
const projectId = 'a'.repeat(32);
const solutionId = 'b'.repeat(32);
const policyId = 'c'.repeat(32);
const datasetId = 'd'.repeat(32);
const envId = 'e'.repeat(32);
const envJob = 'f'.repeat(32);

function host(locale: 'en-US' | 'zh-CN', envState: string) {
  const h = createTestHost({ plugins: [trainingsKitPlugin, policyUpdatePlugin], locale, location: { pathname: '/project/update-policy', search: { projectId, solutionId } } });
  h.mockCall('policy/list', { data: { rows: [{ id: policyId, name: 'coupon policy', state: 'successful', simulatorId: envId }], total: 1 } });
  h.mockCall('table/list', { data: { rows: [{ tableId: datasetId, name: 'service calls' }], total: 1, page: 1, pageSize: 100 } });
  h.mockCall('train/getTrainUpdateListPage', {
    data: { rows: [{ jobId: envJob, reason: 'update', state: envState, progress: 1, error: null, createdAt: '2026-11-01T10:00:00.000Z', startTime: null, endTime: null }], total: 1, page: 1, pageSize: 20 },
  });
  h.mockCall('train/createTrainUpdate', { data: { id: envId, name: 'env', state: 'waiting', jobId: envJob } });
  return h;
}

const updates = (h: ReturnType<typeof host>) => h.calls.filter((c) => c.url === 'train/createTrainUpdate').map((c) => c.body);

describe('UpdatePolicyPanel with new data', () => {
  afterEach(() => cleanup());

  it('updates the environment with the ticked datasets, then the policy', async () => {
    const h = host('en-US', 'successful');
    await renderPanel(update, { host: h });
    await waitFor(() => expect(screen.getByRole('option', { name: 'coupon policy' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText(/^Policy/), { target: { value: policyId } });
    expect(screen.getByText('Update the environment first with these datasets')).toBeTruthy();
    fireEvent.click(await screen.findByLabelText('service calls'));
    fireEvent.click(screen.getByRole('button', { name: 'Update policy' }));
    await waitFor(() =>
      expect(updates(h)).toEqual([
        { id: envId, kind: 'environment', hyperparameters: { epochs: 5 }, datasetIds: [datasetId] },
        { id: policyId, kind: 'policy', hyperparameters: { epochs: 5 } },
      ]),
    );
  });

  it("leaves another project's policy and datasets unchosen after a switch", async () => {
    const h = host('en-US', 'successful');
    const empty = { data: { rows: [], total: 0, page: 1, pageSize: 100 } };
    h.mockCall('policy/list', (body) =>
      (body as { solutionId?: string }).solutionId === solutionId ? { data: { rows: [{ id: policyId, name: 'coupon policy', state: 'successful', simulatorId: envId }], total: 1 } } : empty,
    );
    h.mockCall('table/list', (body) => ((body as { projectId?: string }).projectId === projectId ? { data: { rows: [{ tableId: datasetId, name: 'service calls' }], total: 1, page: 1, pageSize: 100 } } : empty));
    await renderPanel(update, { host: h });
    await waitFor(() => expect(screen.getByRole('option', { name: 'coupon policy' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText(/^Policy/), { target: { value: policyId } });
    fireEvent.click(await screen.findByLabelText('service calls'));
    act(() => h.services.get(navigationServiceRef).navigate('/project/update-policy', { search: { projectId: '9'.repeat(32), solutionId: '8'.repeat(32) } }));
    await waitFor(() => expect(screen.queryByRole('option', { name: 'coupon policy' })).toBeNull());
    expect((screen.getByLabelText(/^Policy/) as HTMLSelectElement).value).toBe('');
    expect((screen.getByRole('button', { name: 'Update policy' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByLabelText('service calls')).toBeNull();
    expect(updates(h)).toEqual([]);
  });

  it('does not update the policy after a failed environment update (zh-CN)', async () => {
    const h = host('zh-CN', 'failure');
    await renderPanel(update, { host: h });
    await waitFor(() => expect(screen.getByRole('option', { name: 'coupon policy' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText(/^策略/), { target: { value: policyId } });
    expect(screen.getByText('先用这些数据集更新环境')).toBeTruthy();
    fireEvent.click(await screen.findByLabelText('service calls'));
    fireEvent.click(screen.getByRole('button', { name: '更新策略' }));
    await waitFor(() => expect(h.toasts.map((n) => n.message)).toContain('环境更新未成功；策略未更新'));
    expect(updates(h)).toEqual([{ id: envId, kind: 'environment', hyperparameters: { epochs: 5 }, datasetIds: [datasetId] }]);
  });
});

describe('UpdatePolicyPanel', () => {
  afterEach(() => cleanup());

  it('asks for a project first, saying what the page is for, in both languages', async () => {
    for (const [locale, title, description] of [
      ['en-US', 'No project chosen', 'Open a project to update its policies.'],
      ['zh-CN', '未选择项目', '请先打开一个项目，再更新其策略。'],
    ] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, policyUpdatePlugin], locale, location: { pathname: '/project/update-policy', search: {} } });
      await renderPanel(update, { host: h });
      expect(await screen.findByText(title)).toBeTruthy();
      expect(screen.getByText(description)).toBeTruthy();
      cleanup();
    }
  });

  it('lists the runs of the chosen policy and starts an update', async () => {
    const h = createTestHost({ plugins: [trainingsKitPlugin, policyUpdatePlugin], locale: 'en-US', location: { pathname: '/project/update-policy', search: { projectId, solutionId } } });
    h.mockCall('policy/list', { data: { rows: [{ id: policyId, name: 'coupon policy', state: 'successful' }], total: 1 } });
    h.mockCall('table/list', { data: { rows: [{ tableId: datasetId, name: 'orders' }], total: 1, page: 1, pageSize: 100 } });
    h.mockCall('train/getTrainUpdateListPage', {
      data: { rows: [{ jobId: 'f'.repeat(32), reason: 'create', state: 'successful', progress: 1, error: null, createdAt: '2026-11-01T10:00:00.000Z', startTime: null, endTime: null }], total: 1, page: 1, pageSize: 50 },
    });
    h.mockCall('train/createTrainUpdate', { data: { id: policyId, name: 'coupon policy', state: 'waiting' } });
    await renderPanel(update, { host: h });
    expect(await screen.findByText('No training run yet')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('option', { name: 'coupon policy' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText(/^Policy/), { target: { value: policyId } });
    const rows = await screen.findByTestId('update-rows');
    expect(within(rows).getByText('First training')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Update policy' }));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'train/createTrainUpdate')?.body).toEqual({ id: policyId, kind: 'policy', hyperparameters: { epochs: 5 } }));
  });
});

describe('UpdatePolicyPanel live', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    ScriptedEventSource.all = [];
  });

  const jobId = 'f'.repeat(32);
  const run = (state: string, progress: number) => ({ jobId, reason: 'update', state, progress, error: null, createdAt: '2026-11-01T10:00:00.000Z', startTime: null, endTime: null });
  /**
   * The scripted event source and fake timers from the start (a poll set before would run on a
   * real timer), then the page open on the policy's running run: the host and the run's stream.
   */
  async function open() {
    vi.stubGlobal('EventSource', ScriptedEventSource);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const h = createTestHost({ plugins: [trainingsKitPlugin, policyUpdatePlugin], locale: 'en-US', location: { pathname: '/project/update-policy', search: { projectId, solutionId } } });
    h.mockCall('policy/list', { data: { rows: [{ id: policyId, name: 'coupon policy', state: 'successful' }], total: 1 } });
    h.mockCall('table/list', { data: { rows: [], total: 0, page: 1, pageSize: 100 } });
    h.mockCall('train/getTrainUpdateListPage', { data: { rows: [run('processing', 0.2)], total: 1, page: 1, pageSize: 50 } });
    await renderPanel(update, { host: h });
    await waitFor(() => expect(screen.getByRole('option', { name: 'coupon policy' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText(/^Policy/), { target: { value: policyId } });
    await screen.findByTestId('update-rows');
    await waitFor(() => expect(ScriptedEventSource.all.map((e) => e.url)).toEqual([`/api/job/events?jobId=${jobId}`]));
    return { h, stream: ScriptedEventSource.all[0]! };
  }
  const runsCalls = (h: ReturnType<typeof createTestHost>) => h.calls.filter((c) => c.url === 'train/getTrainUpdateListPage').length;

  it('follows the running run: no polling while the stream is open, the live progress, the runs read again on a new state', async () => {
    const { h, stream } = await open();
    stream.emit('open');
    const r0 = runsCalls(h);
    // Open stream: the 2 s poll does not run.
    await vi.advanceTimersByTimeAsync(7000);
    expect(runsCalls(h)).toBe(r0);
    // The progress comes with the events; the same state reads nothing again.
    stream.emit('state', { jobId, id: jobId, kind: 'policy', name: 'x', state: 'processing', final: false, progress: 0.6, metrics: {}, error: null });
    await waitFor(() => expect((screen.getByTestId('update-rows').querySelector('.bp6-progress-meter') as HTMLElement | null)?.style.width).toBe('60%'));
    expect(runsCalls(h)).toBe(r0);
    // A new state reads the runs again; the final one closes the stream.
    h.mockCall('train/getTrainUpdateListPage', { data: { rows: [run('successful', 1)], total: 1, page: 1, pageSize: 50 } });
    stream.emit('state', { jobId, id: jobId, kind: 'policy', name: 'x', state: 'successful', final: true, progress: 1, metrics: {}, error: null });
    await waitFor(() => expect(runsCalls(h)).toBe(r0 + 1));
    expect(await within(screen.getByTestId('update-rows')).findByText('successful')).toBeTruthy();
    expect(stream.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(7000);
    expect(runsCalls(h)).toBe(r0 + 1);
  });

  it('polls the runs every 2 s while the stream is not open', async () => {
    const { h, stream } = await open();
    stream.emit('error');
    const r0 = runsCalls(h);
    await vi.advanceTimersByTimeAsync(4500);
    expect(runsCalls(h)).toBeGreaterThanOrEqual(r0 + 2);
    // Once open, the poll stops.
    stream.emit('open');
    await vi.advanceTimersByTimeAsync(100);
    const r1 = runsCalls(h);
    await vi.advanceTimersByTimeAsync(6000);
    expect(runsCalls(h)).toBe(r1);
  });
});
