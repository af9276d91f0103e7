import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { computeWorkerServiceRef, type ComputeWorkerSession, type GfsTrialProgress, type GfsTrialRun } from '@decisio/sdk-plugin';
import { createTestHost, withHost } from '@decisio/sdk-plugin/testing';
import { feedbackControlPlugin } from '../index';
import { TrialPanel } from './TrialPanel';

/**
 * jsdom has no Worker: the session stands in for the worker's answers (the worker itself is
 * tested in workers/compute and, in Chromium, by e2e/specs/gfs.spec.ts).
 */
function standIn(log: string[]): ComputeWorkerSession {
  let progress: ((p: GfsTrialProgress) => void) | undefined;
  let finish: ((r: GfsTrialRun) => void) | undefined;
  let fail: ((e: Error) => void) | undefined;
  return {
    init: async (prefer) => (log.push(`init ${prefer}`), { backend: 'cpu', path: 'wasm-simd', reason: prefer === 'cpu' ? 'forcedCpu' : 'noWebgpuApi' }),
    check: async (file) =>
      file?.name === 'good.csv'
        ? { check: { status: 0, code: 0, fileName: 'good.csv', format: 'csv', rows: 500, obsDim: 1, actDim: 1, hasTarget: true }, preview: { obs: new Float32Array(500), act: new Float32Array(500), target: null } }
        : { check: { status: 5, code: 10005, error: 'gfsNanValues', fileName: file?.name, detail: 'missing value at row 3, column obs' } },
    train: (settings, onProgress) => {
      log.push(`train ${settings.modelSteps}/${settings.controllerSteps}`);
      progress = onProgress;
      return new Promise((resolve, reject) => ((finish = resolve), (fail = reject)));
    },
    infer: async () => new Float32Array(1),
    cancel: async () => {
      log.push('cancel');
      fail?.(new Error('cancelled'));
    },
    dispose: () => log.push('dispose'),
    // test hooks
    ...({ emit: (p: GfsTrialProgress) => progress?.(p), finish: (r: GfsTrialRun) => finish?.(r) } as object),
  } as ComputeWorkerSession;
}

const RUN: GfsTrialRun = {
  result: {
    backend: 'cpu',
    backendPath: 'wasm-simd',
    gains: { kp: [1.2], ki: [0.3], kd: [0.1], bias: [0.05] },
    metrics: { modelMse: 0.0021, controllerCost: 0.1432, loggedCost: 2.8116, loggedCostReal: 2.8175, improvement: 0.949, modelSteps: 3, controllerSteps: 2, stepsPerSecond: 130.2, seconds: 0.04 },
    curves: { modelLoss: [1, 0.5, 0.2], controllerCost: [2, 0.3] },
    comparison: { target: [1, 1, 2], real: [0.4, 0.8, 1.1], logged: [0.5, 0.7, 1.2], controller: [0.9, 1, 1.8] },
    config: { history: 8, horizon: 16, latent: 8 },
  },
  weights: new Uint8Array([1, 2, 3]),
  onestep: { real: new Float32Array(3), predicted: new Float32Array(3) },
};

function setup(locale: 'en-US' | 'zh-CN' = 'en-US') {
  const log: string[] = [];
  const session = standIn(log);
  const host = createTestHost({ plugins: [feedbackControlPlugin], locale, session: { token: 't', userId: 'u' } });
  host.provide(computeWorkerServiceRef, { open: () => session });
  render(withHost(host, <TrialPanel panelId="feedback-control.trial" />));
  return { host, log, session: session as ComputeWorkerSession & { emit(p: GfsTrialProgress): void; finish(r: GfsTrialRun): void } };
}

const drop = (name: string) => {
  const input = screen.getByTestId('gfs-file') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File(['x'], name)] } });
};

describe('TrialPanel', () => {
  afterEach(cleanup);
  it('shows the backend and why, a broken file with its code and message, in English', async () => {
    const { log } = setup();
    await screen.findByText(/this browser has no WebGPU/);
    expect(log).toEqual(['init auto']);
    drop('bad.csv');
    const callout = await screen.findByTestId('gfs-check');
    expect(callout.dataset.code).toBe('10005');
    expect(callout.textContent).toContain('Code 10005: The data has NaN or missing values');
    expect(callout.textContent).toContain('row 3');
    expect(screen.queryByTestId('gfs-train')).toBeNull();
  });

  it('says the same in Chinese', async () => {
    setup('zh-CN');
    await screen.findByText(/此浏览器不支持 WebGPU/);
    drop('bad.csv');
    expect((await screen.findByTestId('gfs-check')).textContent).toContain('代码 10005：数据中存在 NaN 或缺失值');
  });

  it('trains with live curves, shows the comparison, saves, and cancels', async () => {
    const { host, log, session } = setup();
    await screen.findByText(/this browser has no WebGPU/);
    drop('good.csv');
    expect((await screen.findByTestId('gfs-check')).textContent).toContain('good.csv: 500 rows');
    fireEvent.click(screen.getByTestId('gfs-train'));
    expect(log).toContain('train 400/150');
    await act(async () => {
      session.emit({ phase: 'model', step: 1, total: 3, value: 1, stepsPerSecond: 50 });
      session.emit({ phase: 'model', step: 2, total: 3, value: 0.5, stepsPerSecond: 55 });
      await new Promise((r) => setTimeout(r, 40));
    });
    await waitFor(() => expect(screen.getByTestId('gfs-chart-model').dataset.points).toBe('2'));
    expect(screen.getByTestId('gfs-progress').textContent).toContain('step 2 / 3');
    await act(async () => session.finish(RUN));
    expect((await screen.findByTestId('gfs-result')).dataset.beats).toBe('yes');
    expect(screen.getByTestId('gfs-controller-cost').textContent).toBe('0.1432');
    expect(screen.getByTestId('gfs-logged-cost').textContent).toBe('2.8116');
    host.mockCall('pidData/createPidData', { code: 0, data: { id: 'a'.repeat(32) } });
    fireEvent.change(screen.getByTestId('gfs-save-name'), { target: { value: 'loop 1' } });
    fireEvent.click(screen.getByTestId('gfs-save'));
    await waitFor(() => expect(host.calls.some((c) => c.url === 'pidData/createPidData')).toBe(true));
    const body = host.calls.find((c) => c.url === 'pidData/createPidData')!.body as { name: string; fileName: string; rows: number; result: { weights: string; metrics: { improvement: number } } };
    expect(body).toMatchObject({ name: 'loop 1', fileName: 'good.csv', rows: 500 });
    expect(body.result.weights).toBe('AQID');
    expect(body.result.metrics.improvement).toBe(0.949);
    // Nothing else went to the server: no file content, no check call.
    expect(host.calls.map((c) => c.url)).toEqual(['pidData/createPidData']);

    fireEvent.click(screen.getByTestId('gfs-train'));
    fireEvent.click(await screen.findByTestId('gfs-cancel'));
    expect(await screen.findByTestId('gfs-cancelled')).toBeTruthy();
    expect(log).toContain('cancel');
  });
});
