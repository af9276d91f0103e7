/**
 * The policy update page's "update the environment first" option: the ticked datasets go to an
 * environment update of the policy's environment, and the policy update starts only once that
 * run has succeeded (not after a failed one).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
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
