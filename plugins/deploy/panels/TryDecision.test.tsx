import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ModelServiceDetail } from '@decisio/domain';
import { ErrorCode } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { deployPlugin } from '../index';
import { parseField, startText } from './TryDecision';

const detailPanel = deployPlugin.panels.find((p) => p.id === 'deploy.detail')!;
const projectId = 'a'.repeat(32);
const serviceId = 'c'.repeat(32);

function detail(over: Partial<ModelServiceDetail> = {}): ModelServiceDetail {
  return {
    id: serviceId,
    serviceName: 'coupon-online',
    description: 'coupons',
    projectId,
    solutionId: 'd'.repeat(32),
    policyId: 'e'.repeat(32),
    policyName: 'coupon policy',
    status: 'running',
    failureReason: null,
    accessAddress: `http://127.0.0.1:8080/api/decide/${serviceId}`,
    accessTokenHint: 'wxyz',
    tokenExpiresAt: null,
    tokenExpired: false,
    keepPayloads: false,
    createdBy: 'b'.repeat(32),
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    inputs: [
      { name: 'price', node: 'state', dataType: 'continuous', min: 0, max: 100, frames: 1 },
      { name: 'season', node: 'state', dataType: 'category', min: 1, max: 4, values: [1, 2, 3, 4], frames: 1 },
      { name: 'demand', node: 'state', dataType: 'continuous', min: 0, max: 10, frames: 2 },
    ],
    outputs: [{ name: 'discount', node: 'action', dataType: 'continuous', min: 0, max: 0.5, frames: 1 }],
    totals: { calls: 0, failures: 0 },
    ...over,
  };
}

function host(locale: 'en-US' | 'zh-CN', d: ModelServiceDetail) {
  const h = createTestHost({ plugins: [trainingsKitPlugin, deployPlugin], locale, location: { pathname: '/project/deploy-detail', search: { projectId, serviceId } } });
  h.mockCall('modeldeploy/queryDetail', { data: d });
  h.mockCall('modeldeploy/queryMonitor', { data: { unit: 'day', buckets: [] } });
  h.mockCall('modeldeploy/queryBatchDecisionPage', { data: { rows: [], total: 0, page: 1, pageSize: 10 } });
  h.mockCall('modeldeploy/queryModelServiceRecordsPage', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
  h.mockCall('modeldeploy/queryPolicyUpdates', { data: { rows: [], total: 0, page: 1, pageSize: 10 } });
  return h;
}

describe('TryDecision', () => {
  afterEach(() => cleanup());

  it('reads a field: one number, or one per history frame', () => {
    const price = detail().inputs![0]!;
    const demand = detail().inputs![2]!;
    expect(startText(price)).toBe('50');
    expect(startText(demand)).toBe('5, 5');
    expect(parseField(price, ' 12.5 ')).toBe(12.5);
    expect(parseField(price, '')).toBeUndefined();
    expect(parseField(price, 'abc')).toBeUndefined();
    expect(parseField(price, '1, 2')).toBeUndefined();
    expect(parseField(demand, '1,2')).toEqual([1, 2]);
    expect(parseField(demand, '1')).toBeUndefined();
    expect(parseField(demand, '1,,2')).toBeUndefined();
  });

  it('sends the typed row to modeldeploy/decision and shows the decided outputs', async () => {
    const h = host('en-US', detail());
    h.mockCall('modeldeploy/decision', (body) => {
      const { inputs } = body as { inputs: { price: number } };
      return { data: { decisionId: '7'.repeat(32), decisions: { discount: inputs.price / 1000 } } };
    });
    await renderPanel(detailPanel, { host: h });
    const card = await screen.findByTestId('deploy-try');
    expect(within(card).getByText('Try a decision')).toBeTruthy();
    fireEvent.change(within(card).getByLabelText('price'), { target: { value: '120' } });
    fireEvent.change(within(card).getByLabelText('season'), { target: { value: '3' } });
    fireEvent.change(within(card).getByLabelText('demand'), { target: { value: '4, 6' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Decide' }));
    const result = await screen.findByTestId('deploy-try-result');
    expect(h.calls.find((c) => c.url === 'modeldeploy/decision')?.body).toEqual({ id: serviceId, inputs: { price: 120, season: 3, demand: [4, 6] } });
    expect(within(result).getByText('0.12')).toBeTruthy();
    expect(within(result).getByText(`Decision ${'7'.repeat(32)}`)).toBeTruthy();
  });

  it('refuses a field that is not a number before calling, and shows the server\'s refusal', async () => {
    const h = host('en-US', detail());
    h.mockCall('modeldeploy/decision', { code: ErrorCode.deployInputInvalid, message: 'The decision input is not valid' });
    await renderPanel(detailPanel, { host: h });
    const card = await screen.findByTestId('deploy-try');
    fireEvent.change(within(card).getByLabelText('demand'), { target: { value: '4' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Decide' }));
    expect(await within(card).findByText('Enter 2 numbers separated by commas')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'modeldeploy/decision')).toBe(false);
    // Enter in a field submits the form (keyboard)
    const demand = within(card).getByLabelText('demand');
    fireEvent.change(demand, { target: { value: '4, 5' } });
    fireEvent.submit(demand.closest('form')!);
    const error = await screen.findByTestId('deploy-try-error');
    expect(error.textContent).toContain('The decision failed');
    expect(error.textContent).toContain('The decision input is not valid');
    expect(screen.queryByTestId('deploy-try-result')).toBeNull();
  });

  it('says a stopped service must be started first, in Chinese, and does not decide', async () => {
    const h = host('zh-CN', detail({ status: 'waiting' }));
    await renderPanel(detailPanel, { host: h });
    const card = await screen.findByTestId('deploy-try');
    expect(within(card).getByText('试算决策')).toBeTruthy();
    expect(within(card).getByText('启动服务后即可试算决策。')).toBeTruthy();
    expect((within(card).getByRole('button', { name: '决策' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(h.calls.some((c) => c.url === 'modeldeploy/queryDetail')).toBe(true));
    expect(h.calls.some((c) => c.url === 'modeldeploy/decision')).toBe(false);
  });
});
