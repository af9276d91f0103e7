import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { modellingPlugin } from '../index';
import { breakpointsOf } from './DebugPanel';

const SOLUTION = 'a'.repeat(32);
const PROJECT = '9'.repeat(32);
const SIM = 'b'.repeat(32);
const JOB = 'c'.repeat(32);
const panel = (id: string) => modellingPlugin.panels.find((p) => p.id === id)!;
const host = (search: Record<string, string>, locale: 'zh-CN' | 'en-US' = 'en-US') =>
  createTestHost({ plugins: [modellingPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/debug', search } });
const log = (id: number, message: string) => ({ id, level: 'info', message, time: `2026-11-23T10:0${id}:00.000Z` });

describe('debug page', () => {
  afterEach(() => cleanup());

  it('reads the breakpoints from the log lines', () => {
    expect(breakpointsOf([log(1, 'metrics {}'), log(2, 'breakpoint after step 0'), log(3, 'breakpoint after step 1')]).map((b) => b.step)).toEqual([0, 1]);
  });

  it('shows the breakpoints, the metrics measured at the current one, and skips and stops', async () => {
    const h = host({ solutionId: SOLUTION, simulatorId: SIM });
    const row = { id: SIM, code: 'E-B', name: 'env debug', state: 'debugging', progress: 0.5, durationMs: 5000, jobId: JOB, algorithm: 'bc', config: { mode: 'debug' }, createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('trainSimulator/get', { data: row });
    h.mockCall('train/getTrainLog', { data: { jobId: JOB, state: 'debugging', error: null, items: [log(1, 'breakpoint after step 0'), log(2, 'breakpoint after step 1')], nextAfterId: null } });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: JOB, state: 'debugging', progress: 0.5, metrics: {}, points: [{ id: 1, time: null, step: 0, loss: 0.9 }, { id: 2, time: null, step: 1, loss: 0.4, score: 61.5 }] } });
    h.mockCall('train/skipBreakpoint', { data: { jobId: JOB, state: 'processing' } });
    h.mockCall('train/stopTrain', { data: { jobId: JOB, state: 'stopping' } });
    await renderPanel(panel('modelling.debug'), { host: h });
    const list = await screen.findByTestId('debug-breakpoints');
    expect(list.querySelectorAll('li')).toHaveLength(2);
    expect(list.querySelector('[aria-current="step"]')?.textContent).toContain('After step 1');
    const metrics = await screen.findByTestId('debug-metrics');
    expect(metrics.textContent).toContain('loss');
    expect(metrics.textContent).toContain('0.40000');
    expect(metrics.textContent).toContain('61.500');
    fireEvent.click(screen.getByTestId('debug-skip'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'train/skipBreakpoint')?.body).toEqual({ jobId: JOB }));
    fireEvent.click(screen.getByTestId('debug-stop'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'train/stopTrain')?.body).toEqual({ jobId: JOB }));
  });

  it('offers no skip while the training runs between breakpoints, in Chinese too', async () => {
    const h = host({ solutionId: SOLUTION, simulatorId: SIM }, 'zh-CN');
    const row = { id: SIM, code: 'E-B', name: 'env debug', state: 'processing', progress: 0.5, durationMs: 5000, jobId: JOB, algorithm: 'bc', config: { mode: 'debug' }, createdAt: '2026-11-23T10:00:00.000Z' };
    h.mockCall('trainSimulator/get', { data: row });
    h.mockCall('train/getTrainLog', { data: { jobId: JOB, state: 'processing', error: null, items: [log(1, 'breakpoint after step 0')], nextAfterId: null } });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: JOB, state: 'processing', progress: 0.5, metrics: {}, points: [] } });
    await renderPanel(panel('modelling.debug'), { host: h });
    expect(await screen.findByText('训练当前不在断点处。')).toBeTruthy();
    expect((screen.getByTestId('debug-skip') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('debug-stop') as HTMLButtonElement).disabled).toBe(false);
  });

  it('lists the trainings in debug mode when none is in the link, and says when there is none', async () => {
    const h = host({ solutionId: SOLUTION });
    h.mockCall('trainSimulator/list', { data: { rows: [{ id: SIM, code: 'E-B', name: 'env debug', state: 'debugging', progress: 0, durationMs: 1, jobId: JOB, config: { mode: 'debug' } }, { id: 'd'.repeat(32), code: 'E-D', name: 'env run', state: 'processing', progress: 0, durationMs: 1, jobId: 'e'.repeat(32), config: { mode: 'run' } }], total: 2 } });
    h.mockCall('trainPolicy/list', { data: { rows: [], total: 0 } });
    await renderPanel(panel('modelling.debug'), { host: h });
    const rows = await screen.findAllByTestId('debug-choose-row');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.textContent).toContain('env debug');
    cleanup();
    const empty = host({ solutionId: SOLUTION });
    empty.mockCall('trainSimulator/list', { data: { rows: [], total: 0 } });
    empty.mockCall('trainPolicy/list', { data: { rows: [], total: 0 } });
    await renderPanel(panel('modelling.debug'), { host: empty });
    expect(await screen.findByText('No training in debug mode')).toBeTruthy();
  });
});

describe('project log', () => {
  afterEach(() => cleanup());

  it('lists the trainings of every solution of the project, newest first, with their solution and message', async () => {
    const h = host({ projectId: PROJECT });
    h.mockCall('solution/getSolutionList', { data: [{ solutionId: SOLUTION, name: 'control' }, { solutionId: 'f'.repeat(32), name: 'other' }] });
    h.mockCall('train/getAllTrainList', (body) =>
      (body as { solutionId: string }).solutionId === SOLUTION
        ? { data: { rows: [{ id: '1'.repeat(32), code: 'E-1', kind: 'environment', name: 'env bc', state: 'successful', progress: 1, durationMs: 60_000, error: null, createdAt: '2026-11-23T10:00:00.000Z' }], total: 1 } }
        : { data: { rows: [{ id: '2'.repeat(32), code: 'P-2', kind: 'policy', name: 'ppo', state: 'failure', progress: 0, durationMs: 1000, error: 'The reward failed', createdAt: '2026-11-23T11:00:00.000Z' }], total: 1 } },
    );
    await renderPanel(panel('modelling.projectLog'), { host: h });
    const rows = await screen.findAllByTestId('project-log-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('ppo');
    expect(rows[0]!.textContent).toContain('other');
    expect(rows[0]!.textContent).toContain('The reward failed');
    expect(rows[1]!.textContent).toContain('env bc');
    expect(rows[1]!.textContent).toContain('Environment');
    fireEvent.change(screen.getByTestId('project-log-kind'), { target: { value: 'policy' } });
    expect(screen.getAllByTestId('project-log-row')).toHaveLength(1);
  });

  it('shows the empty state in Chinese and asks for a project without one', async () => {
    const h = host({ projectId: PROJECT }, 'zh-CN');
    h.mockCall('solution/getSolutionList', { data: [] });
    await renderPanel(panel('modelling.projectLog'), { host: h });
    expect(await screen.findByText('日志为空')).toBeTruthy();
    cleanup();
    await renderPanel(panel('modelling.projectLog'), { host: host({}) });
    expect(await screen.findByText('No project selected')).toBeTruthy();
  });
});
