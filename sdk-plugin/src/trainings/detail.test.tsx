import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, heldBack, renderPanel, ScriptedEventSource as FakeEventSource } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from './plugin';
import { screenOf } from './test-screens';

const SOLUTION = 'a'.repeat(32);
const host = (locale: 'zh-CN' | 'en-US' = 'en-US') =>
  createTestHost({ plugins: [trainingsKitPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/objective', search: { solutionId: SOLUTION } } });

describe('training detail', () => {
  afterEach(() => cleanup());

  it('opens from the row with the keyboard and shows the measured metrics and the log', async () => {
    const h = host();
    const row = { id: 'b'.repeat(32), code: 'P-BBBBBBBB', name: 'ppo one', state: 'successful', progress: 1, durationMs: 120_000, jobId: 'c'.repeat(32), algorithm: 'ppo', reward: 12.5, metrics: { reward: 12.5 }, error: null, startTime: '2026-11-23T10:00:00.000Z', endTime: '2026-11-23T10:02:00.000Z', createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('trainPolicy/list', { data: { rows: [row], total: 1 } });
    h.mockCall('trainPolicy/get', { data: row });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: row.jobId, state: 'successful', progress: 1, metrics: {}, points: [{ id: 1, time: null, reward: 3 }, { id: 2, time: null, reward: 12.5 }] } });
    h.mockCall('train/getTrainLog', { data: { jobId: row.jobId, state: 'successful', error: null, items: [{ id: 7, level: 'info', message: 'epoch 1 reward 3', time: '2026-11-23T10:01:00.000Z' }], nextAfterId: null } });
    await renderPanel(screenOf('policy'), { host: h });
    const tr = (await screen.findAllByTestId('training-row'))[0]!;
    fireEvent.keyDown(tr, { key: 'Enter' });
    expect(await screen.findByTestId('training-detail')).toBeTruthy();
    expect(await screen.findByTestId('modelling-curves')).toBeTruthy();
    expect((await screen.findByTestId('modelling-log')).textContent).toContain('epoch 1 reward 3');
    expect(screen.getByText('reward: 12.50')).toBeTruthy();
    expect(h.calls.find((c) => c.url === 'train/getTrainDisplayDataList')?.body).toEqual({ jobId: row.jobId });
  });

  it('keeps the facts\' labels on one line in Chinese, however long the measured results, and lets the values wrap', async () => {
    const h = host('zh-CN');
    const metrics = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`policy_return_mean_of_rollout_${i}`, i + 0.5]));
    const row = { id: 'b'.repeat(32), code: 'P-B', name: 'long results', state: 'successful', progress: 1, durationMs: 120_000, jobId: 'c'.repeat(32), algorithm: 'ppo', reward: 12.5, metrics, error: null, startTime: '2026-11-23T10:00:00.000Z', endTime: '2026-11-23T10:02:00.000Z', createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('trainPolicy/list', { data: { rows: [row], total: 1 } });
    h.mockCall('trainPolicy/get', { data: row });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: row.jobId, state: 'successful', progress: 1, metrics: {}, points: [] } });
    h.mockCall('train/getTrainLog', { data: { jobId: row.jobId, state: 'successful', error: null, items: [], nextAfterId: null } });
    await renderPanel(screenOf('policy'), { host: h });
    fireEvent.click(await screen.findByText('long results'));
    const facts = await screen.findByTestId('training-facts');
    const labels = Array.from(facts.querySelectorAll('th'));
    expect(labels.map((th) => th.textContent)).toContain('算法');
    expect(labels.length).toBe(7);
    for (const th of labels) expect(getComputedStyle(th).whiteSpace).toBe('nowrap');
    const results = within(facts).getByText(/policy_return_mean_of_rollout_0/);
    expect(results.style.overflowWrap).toBe('anywhere');
  });

  it('shows no chart while a job waits (no invented numbers)', async () => {
    const h = host();
    const row = { id: 'b'.repeat(32), code: 'E-B', name: 'queued', state: 'waiting', progress: null, durationMs: null, jobId: 'c'.repeat(32), algorithm: 'bc', createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('trainSimulator/list', { data: { rows: [row], total: 1 } });
    h.mockCall('trainSimulator/get', { data: row });
    h.mockCall('train/getTrainLog', { code: 1404, message: 'not found' });
    await renderPanel(screenOf('environment'), { host: h });
    fireEvent.click(await screen.findByText('queued'));
    expect(await screen.findByText('No measured points yet')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'train/getTrainDisplayDataList')).toBe(false);
  });

  it("draws the curve of the record's current job only: a restored training shows none of the previous job's points while it waits or its first reading loads", async () => {
    const h = host();
    const first = 'c'.repeat(32);
    const next = 'd'.repeat(32);
    let row = { id: 'b'.repeat(32), code: 'E-B', name: 'stopped env', state: 'successful by manual stop', progress: 0.5, durationMs: 1000, jobId: first, algorithm: 'bc', createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('trainSimulator/list', () => ({ data: { rows: [row], total: 1 } }));
    h.mockCall('trainSimulator/get', () => ({ data: row }));
    h.mockCall('trainSimulator/restore', () => {
      row = { ...row, jobId: next, state: 'waiting', progress: 0 };
      return { data: { id: row.id } };
    });
    const gate = heldBack();
    h.mockCall('train/getTrainDisplayDataList', async (body) => {
      if ((body as { jobId: string }).jobId === first) return { data: { jobId: first, state: 'successful by manual stop', progress: 0.5, metrics: {}, points: [{ id: 1, time: null, step: 0, loss: 3 }, { id: 2, time: null, step: 1, loss: 2 }] } };
      await gate.wait;
      return { data: { jobId: next, state: 'processing', progress: 0.1, metrics: {}, points: [{ id: 9, time: null, step: 0, loss: 8 }, { id: 10, time: null, step: 1, loss: 7 }] } };
    });
    h.mockCall('train/getTrainLog', { data: { jobId: first, state: 'successful by manual stop', error: null, items: [], nextAfterId: null } });
    await renderPanel(screenOf('environment'), { host: h });
    fireEvent.click(await screen.findByText('stopped env'));
    const latest = () => screen.getByTestId('chart-legend-value').textContent;
    await waitFor(() => expect(latest()).toBe('2'));
    fireEvent.click(screen.getByText('Restore'));
    // Waiting: the new job has no reading yet, and the previous job's is not drawn in its place.
    expect(await within(screen.getByTestId('training-detail')).findByText('Waiting')).toBeTruthy();
    expect(await screen.findByTestId('modelling-curves-empty')).toBeTruthy();
    expect(screen.queryByTestId('modelling-curves')).toBeNull();
    // Running: while its first reading loads, a spinner, not the previous job's curve.
    row = { ...row, state: 'processing', progress: 0.1 };
    await waitFor(() => expect(h.calls.some((c) => c.url === 'train/getTrainDisplayDataList' && (c.body as { jobId: string }).jobId === next)).toBe(true), { timeout: 8000 });
    expect(screen.queryByTestId('modelling-curves')).toBeNull();
    expect(within(screen.getByTestId('training-detail')).getAllByLabelText('Loading…').length).toBeGreaterThan(0);
    gate.release();
    await waitFor(() => expect(latest()).toBe('7'));
  });
});

describe('live training detail and list', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    FakeEventSource.all = [];
  });

  it('appends the streamed points and log lines, shows the streamed progress, and reads the record again only when the state changes', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const h = host();
    const jobId = 'c'.repeat(32);
    const row = { id: 'b'.repeat(32), code: 'E-B', name: 'running env', state: 'processing', progress: 0.25, durationMs: 1000, jobId, algorithm: 'bc', createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('trainSimulator/list', { data: { rows: [row], total: 1 } });
    h.mockCall('trainSimulator/get', { data: row });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId, state: 'processing', progress: 0.25, metrics: {}, points: [{ id: 1, time: null, step: 0, loss: 3 }, { id: 2, time: null, step: 1, loss: 2 }] } });
    h.mockCall('train/getTrainLog', { data: { jobId, state: 'processing', error: null, items: [{ id: 5, level: 'info', message: 'epoch 0', time: '2026-11-23T10:00:01.000Z' }], nextAfterId: null } });
    await renderPanel(screenOf('environment'), { host: h });
    // The list follows the running job.
    await waitFor(() => expect(FakeEventSource.all.map((e) => e.url)).toContain(`/api/job/events?jobId=${jobId}`));
    fireEvent.click(await screen.findByText('running env'));
    // The legend shows each series' latest value.
    const latest = () => screen.getByTestId('chart-legend-value').textContent;
    await waitFor(() => expect(latest()).toBe('2'));
    expect((await screen.findByTestId('modelling-log')).textContent).toContain('epoch 0');
    const stream = FakeEventSource.all.find((e) => e.url === `/api/job/events?jobId=${jobId}&logs=1`)!;
    expect(stream).toBeTruthy();
    stream.emit('open');
    const count = (url: string) => h.calls.filter((c) => c.url === url).length;
    const [d0, r0, l0] = [count('train/getTrainDisplayDataList'), count('trainSimulator/get'), count('train/getTrainLog')];

    // Points (one already fetched) and lines come with the events: appended, nothing asked again.
    stream.emit('metrics', { id: 2, time: null, step: 1, loss: 2 });
    stream.emit('metrics', { id: 3, time: null, step: 2, loss: 1.5 });
    stream.emit('metrics', { id: 4, time: null, step: 3, loss: 1 });
    stream.emit('log', { id: 6, level: 'info', message: 'epoch 3 streamed', time: '2026-11-23T10:00:04.000Z' });
    stream.emit('state', { jobId, state: 'processing', progress: 0.75, final: false, metrics: {} });
    await waitFor(() => expect(latest()).toBe('1'));
    await waitFor(() => expect(screen.getByTestId('modelling-log').textContent).toContain('epoch 3 streamed'));
    await waitFor(() => expect((screen.getByTestId('training-detail').querySelector('.bp6-progress-meter') as HTMLElement | null)?.style.width).toBe('75%'));
    expect([count('train/getTrainDisplayDataList'), count('trainSimulator/get'), count('train/getTrainLog')]).toEqual([d0, r0, l0]);

    // A new state: the record is read again; a final one closes the stream.
    h.mockCall('trainSimulator/get', { data: { ...row, state: 'successful', progress: 1, score: 81 } });
    stream.emit('state', { jobId, state: 'successful', progress: 1, final: true, metrics: {} });
    await waitFor(() => expect(count('trainSimulator/get')).toBeGreaterThan(r0));
    expect(stream.closed).toBe(true);
    expect(await screen.findByText('81.00')).toBeTruthy();
  });

  it('polls as before where there is no EventSource', async () => {
    vi.stubGlobal('EventSource', undefined);
    // The detail's per-job sections (TensorBoard, worker terminal) are siblings: each has its own key.
    const errors = vi.spyOn(console, 'error');
    const h = host();
    const jobId = 'c'.repeat(32);
    const row = { id: 'b'.repeat(32), code: 'E-B', name: 'running env', state: 'processing', progress: 0.25, durationMs: 1000, jobId, algorithm: 'bc', createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('trainSimulator/list', { data: { rows: [row], total: 1 } });
    h.mockCall('trainSimulator/get', { data: row });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId, state: 'processing', progress: 0.25, metrics: {}, points: [] } });
    h.mockCall('train/getTrainLog', { data: { jobId, state: 'processing', error: null, items: [], nextAfterId: null } });
    await renderPanel(screenOf('environment'), { host: h });
    fireEvent.click(await screen.findByText('running env'));
    const count = () => h.calls.filter((c) => c.url === 'trainSimulator/get').length;
    await waitFor(() => expect(count()).toBeGreaterThan(0));
    const r0 = count();
    // The 3 s fallback poll reads the record again.
    await waitFor(() => expect(count()).toBeGreaterThan(r0), { timeout: 8000 });
    expect(errors.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('same key'))).toEqual([]);
    errors.mockRestore();
  });
});

describe('environment detail', () => {
  afterEach(() => cleanup());

  it('rolls a trajectory of a trained environment and restores a failed one', async () => {
    const h = host();
    const done = { id: 'b'.repeat(32), code: 'E-B', name: 'trained', state: 'successful', progress: 1, durationMs: 1000, jobId: 'c'.repeat(32), algorithm: 'bc', score: 80, createdAt: '2026-11-23T10:00:00.000Z' };
    const failed = { ...done, id: 'f'.repeat(32), name: 'broken', state: 'failure', jobId: 'e'.repeat(32), score: null };
    h.mockCall('trainSimulator/list', { data: { rows: [done, failed], total: 2 } });
    h.mockCall('trainSimulator/get', { data: done });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: done.jobId, state: 'successful', progress: 1, metrics: {}, points: [] } });
    h.mockCall('train/getTrainLog', { data: { jobId: done.jobId, state: 'successful', error: null, items: [], nextAfterId: null } });
    h.mockCall('train/getPicBySimulatorNum', { data: { id: done.id, trajectory: 0, trajectories: 4, horizon: 2, nodes: { temp: { predicted: [[1], [2]], real: [[1.5], [2.5]] } } } });
    h.mockCall('trainSimulator/restore', { data: { id: failed.id } });
    h.mockCall('solution/getPattern', { data: { graph: { nodes: [{ name: 'temp', fields: [{ name: 'inlet' }] }] }, files: [] } });
    await renderPanel(screenOf('environment'), { host: h });
    fireEvent.click(await screen.findByText('trained'));
    expect(await screen.findByTestId('modelling-rollout')).toBeTruthy();
    // Each chart is labelled with its node and the field of the decision graph.
    expect(await screen.findByText('temp · inlet')).toBeTruthy();
    expect(h.calls.find((c) => c.url === 'train/getPicBySimulatorNum')?.body).toEqual({ id: done.id, trajectory: 0, horizon: 50 });
    expect(screen.getAllByText('Restore')).toHaveLength(1);
    fireEvent.click(screen.getByText('Restore'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'trainSimulator/restore')?.body).toEqual({ id: failed.id }));
  });

  it("charts only the chosen trajectory: another one's charts wait for its answer, and one that fails shows no previous charts beside the message", async () => {
    const h = host();
    const done = { id: 'b'.repeat(32), code: 'E-B', name: 'trained', state: 'successful', progress: 1, durationMs: 1000, jobId: 'c'.repeat(32), algorithm: 'bc', score: 80, createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('trainSimulator/list', { data: { rows: [done], total: 1 } });
    h.mockCall('trainSimulator/get', { data: done });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: done.jobId, state: 'successful', progress: 1, metrics: {}, points: [] } });
    h.mockCall('train/getTrainLog', { data: { jobId: done.jobId, state: 'successful', error: null, items: [], nextAfterId: null } });
    h.mockCall('solution/getPattern', { data: { graph: { nodes: [{ name: 'temp', fields: [{ name: 'inlet' }] }] }, files: [] } });
    const gate = heldBack();
    h.mockCall('train/getPicBySimulatorNum', async (body) => {
      if ((body as { trajectory: number }).trajectory === 0) return { data: { id: done.id, trajectory: 0, trajectories: 4, horizon: 2, nodes: { temp: { predicted: [[1], [2]], real: [[1.5], [2.5]] } } } };
      await gate.wait;
      return { code: 500, message: 'rollout failed' };
    });
    await renderPanel(screenOf('environment'), { host: h });
    fireEvent.click(await screen.findByText('trained'));
    expect(await screen.findByTestId('chart-temp-0')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Trajectory'), { target: { value: '1' } });
    await waitFor(() => expect(h.calls.some((c) => c.url === 'train/getPicBySimulatorNum' && (c.body as { trajectory: number }).trajectory === 1)).toBe(true));
    expect(screen.queryByTestId('chart-temp-0')).toBeNull();
    expect(within(screen.getByTestId('modelling-rollout')).getByLabelText('Loading…')).toBeTruthy();
    gate.release();
    expect(await screen.findByText('No rollout: the environment has no trained model yet')).toBeTruthy();
    expect(screen.queryByTestId('chart-temp-0')).toBeNull();
  });
});

describe('deduction detail', () => {
  afterEach(() => cleanup());

  it('shows the measured result of a decision deduction', async () => {
    const h = host();
    const row = { id: 'b'.repeat(32), code: 'DD-B', name: 'decide', state: 'successful', progress: 1, durationMs: 1000, jobId: 'c'.repeat(32), stepSize: 100, score: 4.5, result: { reward: 4.5, behaviourReward: 3.25, horizon: 100 }, createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('decision/list', { data: { rows: [row], total: 1 } });
    h.mockCall('decision/get', { data: row });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: row.jobId, state: 'successful', progress: 1, metrics: {}, points: [] } });
    h.mockCall('train/getTrainLog', { data: { jobId: row.jobId, state: 'successful', error: null, items: [], nextAfterId: null } });
    await renderPanel(screenOf('decision'), { host: h });
    fireEvent.click(await screen.findByText('decide'));
    const table = await screen.findByTestId('deduction-result');
    expect(table.textContent).toContain('behaviourReward');
    expect(table.textContent).toContain('3.2500');
    // No trajectory kept (an older deduction): no charts, nothing invented.
    expect(screen.queryByTestId('deduction-charts')).toBeNull();
  });

  it('charts the decided against the real values per field and the reward of each step', async () => {
    const h = host('zh-CN');
    const trajectory = { trajectory: 0, horizon: 3, nodes: { action: { decided: [[0.1], [0.2], [0.3]], real: [[0.5], [0.4], [0.3]] }, next_x: { decided: [[1], [0.9], [0.8]], real: [[1.1], [1], [0.7]] } }, rewards: [-1, -0.9, -0.8] };
    const row = { id: 'b'.repeat(32), code: 'DD-B', name: 'decide', state: 'successful', progress: 1, durationMs: 1000, jobId: 'c'.repeat(32), stepSize: 3, score: -2.7, result: { reward: -2.7, behaviourReward: -3.1, horizon: 3, trajectory }, createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('decision/list', { data: { rows: [row], total: 1 } });
    h.mockCall('decision/get', { data: row });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: row.jobId, state: 'successful', progress: 1, metrics: {}, points: [] } });
    h.mockCall('train/getTrainLog', { data: { jobId: row.jobId, state: 'successful', error: null, items: [], nextAfterId: null } });
    h.mockCall('solution/getPattern', { data: { graph: { nodes: [{ name: 'x', fields: [{ name: 'pos' }] }, { name: 'action', fields: [{ name: 'force' }] }, { name: 'next_x', fields: [] }] }, files: [] } });
    await renderPanel(screenOf('decision'), { host: h });
    fireEvent.click(await screen.findByText('decide'));
    const reward = await screen.findByTestId('deduction-reward');
    expect(reward.textContent).toContain('策略获得的奖励');
    expect(reward.textContent).toContain('-2.7000');
    expect(reward.textContent).toContain('-3.1000');
    expect(await screen.findByText('action · force')).toBeTruthy();
    // next_x is the transition of x: its chart takes the field of x.
    expect(await screen.findByText('next_x · pos')).toBeTruthy();
    expect(screen.getByTestId('chart-reward')).toBeTruthy();
    // The kept trajectory is charted, not listed among the figures.
    expect(screen.getByTestId('deduction-result').textContent).not.toContain('trajectory');
  });

  it('charts a simulation deduction with the rollout of its environment over its step size', async () => {
    const h = host();
    const row = { id: 'b'.repeat(32), code: 'SD-B', name: 'simulate', state: 'successful', progress: 1, durationMs: 1000, jobId: 'c'.repeat(32), stepSize: 12, simulatorId: 'e'.repeat(32), score: 71, result: { score: 71, mae: 0.1 }, createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('simulation/list', { data: { rows: [row], total: 1 } });
    h.mockCall('simulation/get', { data: row });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: row.jobId, state: 'successful', progress: 1, metrics: {}, points: [] } });
    h.mockCall('train/getTrainLog', { data: { jobId: row.jobId, state: 'successful', error: null, items: [], nextAfterId: null } });
    h.mockCall('train/getPicBySimulatorNum', { data: { id: row.simulatorId, trajectory: 0, trajectories: 2, horizon: 12, nodes: { next_x: { predicted: [[1]], real: [[1.2]] } } } });
    h.mockCall('solution/getPattern', { data: { graph: null, files: [] } });
    await renderPanel(screenOf('simulation'), { host: h });
    fireEvent.click(await screen.findByText('simulate'));
    expect(await screen.findByTestId('deduction-charts')).toBeTruthy();
    await waitFor(() => expect(h.calls.find((c) => c.url === 'train/getPicBySimulatorNum')?.body).toEqual({ id: row.simulatorId, trajectory: 0, horizon: 12 }));
    expect(await screen.findByText('next_x · [0]')).toBeTruthy();
  });

  it('rolls a long simulation deduction over its full step count and draws no one-point training curve', async () => {
    const h = host();
    const row = { id: 'b'.repeat(32), code: 'SD-L', name: 'long', state: 'successful', progress: 1, durationMs: 1000, jobId: 'c'.repeat(32), stepSize: 5000, simulatorId: 'e'.repeat(32), score: 71, result: { score: 71, mae: 0.1 }, createdAt: '2026-11-23T10:00:00.000Z' };
    const steps = Array.from({ length: 5000 }, (_, k) => k);
    h.mockCall('simulation/list', { data: { rows: [row], total: 1 } });
    h.mockCall('simulation/get', { data: row });
    // what the server measures for a deduction: one closing point
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: row.jobId, state: 'successful', progress: 1, metrics: {}, points: [{ id: 1, time: null, step: 0, score: 71 }] } });
    h.mockCall('train/getTrainLog', { data: { jobId: row.jobId, state: 'successful', error: null, items: [], nextAfterId: null } });
    h.mockCall('train/getPicBySimulatorNum', { data: { id: row.simulatorId, trajectory: 0, trajectories: 1, horizon: 5000, nodes: { next_x: { predicted: steps.map((k) => [k]), real: steps.map((k) => [k + 1]) } } } });
    h.mockCall('solution/getPattern', { data: { graph: null, files: [] } });
    await renderPanel(screenOf('simulation'), { host: h });
    fireEvent.click(await screen.findByText('long'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'train/getPicBySimulatorNum')?.body).toEqual({ id: row.simulatorId, trajectory: 0, horizon: 5000 }));
    const chart = await screen.findByTestId('chart-next_x-0');
    // real against simulated in one chart, each with its latest value
    const values = Object.fromEntries([...chart.querySelectorAll('[data-testid="chart-legend-item"]')].map((li) => [(li as HTMLElement).dataset.series, li.querySelector('[data-testid="chart-legend-value"]')!.textContent]));
    expect(values).toEqual({ simulated: '4,999', real: '5,000' });
    expect(screen.queryByText('Training curves')).toBeNull();
  });
});
