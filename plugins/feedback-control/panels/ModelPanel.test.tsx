import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createTestHost, withHost } from '@decisio/sdk-plugin/testing';
import { feedbackControlPlugin } from '../index';
import { ModelPanel } from './ModelPanel';

const ITEM = { id: 'a'.repeat(32), name: 'boiler loop', fileName: 'boiler.npz', rows: 1200, obsDim: 1, actDim: 1, backend: 'webgpu', improvement: 0.912, controllerCost: 0.2, loggedCost: 2.3, createdAt: '2026-11-27T04:00:00.000Z' };
const RESULT = {
  backend: 'webgpu',
  backendPath: 'wgsl',
  gains: { kp: [1], ki: [0], kd: [0], bias: [0] },
  metrics: { modelMse: 0.002, controllerCost: 0.2, loggedCost: 2.3, loggedCostReal: 2.4, improvement: 0.912, modelSteps: 400, controllerSteps: 150, stepsPerSecond: 5.5, seconds: 80 },
  curves: { modelLoss: [1, 0.1], controllerCost: [1, 0.2] },
  comparison: { target: [1, 1], real: [0.5, 0.6], logged: [0.5, 0.7], controller: [0.9, 1] },
  config: { history: 8, horizon: 16, latent: 8 },
};

function setup(rows: unknown[], locale: 'en-US' | 'zh-CN' = 'en-US') {
  const host = createTestHost({ plugins: [feedbackControlPlugin], locale, session: { token: 't', userId: 'u' } });
  host.mockCall('pidData/getPidDataList', { code: 0, data: { rows, total: rows.length, page: 1, pageSize: 20 } });
  host.mockCall('pidData/getPidResult', { code: 0, data: { ...ITEM, result: RESULT } });
  host.mockCall('pidData/saveDownloadRecord', { code: 0, data: { id: 'b'.repeat(32), createdAt: ITEM.createdAt } });
  render(withHost(host, <ModelPanel panelId="feedback-control.model" />));
  return host;
}

describe('ModelPanel', () => {
  afterEach(cleanup);

  it('says when nothing is saved, in both languages', async () => {
    setup([]);
    expect(await screen.findByText('No saved results')).toBeTruthy();
    cleanup();
    setup([], 'zh-CN');
    expect(await screen.findByText('没有已保存的结果')).toBeTruthy();
  });

  it('lists results and opens one with the keyboard', async () => {
    const host = setup([ITEM]);
    const row = (await screen.findByText('boiler loop')).closest('tr')!;
    expect(row.textContent).toContain('91.2 %');
    fireEvent.keyDown(row, { key: 'Enter' });
    expect((await screen.findByTestId('gfs-result')).dataset.beats).toBe('yes');
    expect(screen.getByTestId('gfs-controller-cost').textContent).toBe('0.2000');
    expect(host.calls.find((c) => c.url === 'pidData/getPidResult')!.body).toEqual({ id: ITEM.id });
  });
});
