import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { tuningPlugin } from '../index';

/**
 * The tuning panels past their empty state (issue 17 item 9): the tuning form filled and sent
 * (with a hyperparameter set and the initial search dataset), its client and server errors in
 * both languages, and a finished search's results (best parameters, final reward, curve, log).
 */
const SOLUTION = 'a'.repeat(32);
const PROJECT = 'p'.repeat(32);
const ENV = 'e'.repeat(32);
const REWARD = 'o'.repeat(32);
const DATASET = 'd'.repeat(32);
const HYPER = 'h'.repeat(32);
const listPanel = tuningPlugin.panels.find((p) => p.id === 'tuning.list')!;
const trainPanel = tuningPlugin.panels.find((p) => p.id === 'tuning.train')!;
const host = (locale: 'en-US' | 'zh-CN', theme: 'light' | 'dark' = 'light') =>
  createTestHost({ plugins: [trainingsKitPlugin, tuningPlugin], locale, theme, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/parameter/train', search: { projectId: PROJECT, solutionId: SOLUTION } } });
const empty = { data: { rows: [], total: 0 } };

/** What the tuning form reads: a trained environment, a checked reward, a dataset, a hyperparameter set. */
function formData(h: ReturnType<typeof host>) {
  h.mockCall('trainParameter/list', empty);
  h.mockCall('trainSimulator/list', { data: { rows: [{ id: ENV, code: 'E-1', name: 'cold room venv', state: 'successful', progress: 1, durationMs: 1 }], total: 1 } });
  h.mockCall('objective/list', { data: { rows: [{ id: REWARD, name: 'comfort', files: null, checkState: 'checked' }], total: 1 } });
  h.mockCall('table/list', { data: { rows: [{ tableId: DATASET, name: 'winter starts', amount: 20, type: 'business', columns: [] }], total: 1, page: 1, pageSize: 100 } });
  h.mockCall('virtualMachine/getVirtualMachineList', { data: { rows: [] } });
  h.mockCall('hyperparameter/list', { data: { rows: [{ id: HYPER, name: 'short search', trainType: 'parameter', algorithm: 'random', params: [{ name: 'trials', default: 8 }] }], total: 1 } });
  h.mockCall('hyperparameter/createTrainParams', { data: { trainType: 'parameter', algorithm: 'random', hyperparameters: { trials: 8, horizon: 12 } } });
}
const bodyOf = (h: ReturnType<typeof host>, url: string) => h.calls.filter((c) => c.url === url).at(-1)?.body as Record<string, any> | undefined;

describe('tuning panels', () => {
  afterEach(() => cleanup());

  it('tuning.train: checks the form on the client in both languages and sends nothing while it is wrong', async () => {
    for (const [locale, required, range] of [['en-US', 'Required', 'Greater than 0 and less than 10000'], ['zh-CN', '必填', '须大于 0 且小于 10000']] as const) {
      const h = host(locale, locale === 'zh-CN' ? 'dark' : 'light');
      formData(h);
      await renderPanel(trainPanel, { host: h });
      await screen.findByText('cold room venv');
      fireEvent.click(screen.getByTestId('stop-system'));
      fireEvent.change(screen.getByTestId('train-search-count'), { target: { value: '0' } });
      fireEvent.click(screen.getByTestId('train-submit'));
      // Name, environment and reward.
      expect((await screen.findAllByText(required)).length).toBe(3);
      expect(screen.getAllByText(range).length).toBeGreaterThan(0);
      expect(h.calls.some((c) => c.url === 'trainParameter/create')).toBe(false);
      cleanup();
    }
  });

  it('tuning.train: fills the form (hyperparameter set, initial search dataset), sends it and shows the server\'s field errors', async () => {
    const h = host('en-US');
    formData(h);
    h.mockCall('trainParameter/create', { code: 1008, message: 'Invalid parameters', errors: { name: 'Parameter search name already used', 'stopConditions.searchCount': 'Greater than 0 and less than 10000' } });
    await renderPanel(trainPanel, { host: h });
    await screen.findByText('winter starts (20)');
    fireEvent.change(screen.getByTestId('train-name'), { target: { value: 'tune winter' } });
    fireEvent.change(screen.getByTestId('train-simulator'), { target: { value: ENV } });
    fireEvent.change(screen.getByTestId('train-objective'), { target: { value: REWARD } });
    fireEvent.change(screen.getByTestId('train-datasetId'), { target: { value: DATASET } });
    fireEvent.change(screen.getByTestId('train-algorithm'), { target: { value: 'random' } });
    fireEvent.change(screen.getByLabelText('Hyperparameter set'), { target: { value: HYPER } });
    await waitFor(() => expect(JSON.parse((screen.getByTestId('train-hyper') as HTMLTextAreaElement).value)).toEqual({ trials: 8, horizon: 12 }));
    fireEvent.click(screen.getByTestId('stop-system'));
    fireEvent.change(screen.getByTestId('train-search-count'), { target: { value: '6' } });
    fireEvent.click(screen.getByTestId('train-submit'));
    expect(await screen.findByText('Parameter search name already used')).toBeTruthy();
    expect(bodyOf(h, 'trainParameter/create')).toMatchObject({
      solutionId: SOLUTION,
      name: 'tune winter',
      simulatorId: ENV,
      objectiveId: REWARD,
      algorithm: 'random',
      datasetId: DATASET,
      hyperparameters: { trials: 8, horizon: 12 },
      stopConditions: { searchCount: 6 },
    });
    expect(bodyOf(h, 'hyperparameter/createTrainParams')).toEqual({ id: HYPER });

    // Fixed, it starts.
    h.mockCall('trainParameter/create', { data: { id: 'f'.repeat(32) } });
    fireEvent.change(screen.getByTestId('train-name'), { target: { value: 'tune winter 2' } });
    fireEvent.click(screen.getByTestId('train-submit'));
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe('Training started'));
    expect(bodyOf(h, 'trainParameter/create')?.name).toBe('tune winter 2');
  });

  it('tuning.list: a finished search shows its best parameters, final reward, curve and log (opened with the keyboard)', async () => {
    const h = host('en-US');
    const done = {
      id: 'b'.repeat(32),
      code: 'PT-BBBBBBBB',
      name: 'tune winter',
      state: 'successful',
      progress: 1,
      durationMs: 90_000,
      jobId: 'c'.repeat(32),
      algorithm: 'random',
      reward: 3.25,
      datasetId: DATASET,
      result: { best: { candidate: { g: 0.42 }, score: 3.25 }, space: [{ name: 'g', min: 0, max: 1 }] },
      startTime: '2026-11-23T10:00:00.000Z',
      endTime: '2026-11-23T10:01:30.000Z',
      createdAt: '2026-11-23T10:00:00.000Z',
    };
    const running = { ...done, id: 'r'.repeat(32), code: 'PT-RRRRRRRR', name: 'tune spring', state: 'processing', progress: 0.5, reward: null, result: null, endTime: null };
    h.mockCall('trainParameter/list', { data: { rows: [running, done], total: 2 } });
    h.mockCall('trainParameter/get', { data: done });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: done.jobId, state: 'successful', progress: 1, points: [{ id: 1, time: null, step: 0, score: 1.5, best: 1.5 }, { id: 2, time: null, step: 1, score: 3.25, best: 3.25 }] } });
    h.mockCall('train/getTrainLog', { data: { jobId: done.jobId, state: 'successful', error: null, items: [{ id: 3, level: 'info', message: 'best {"g":0.42} score 3.2500', time: '2026-11-23T10:01:30.000Z' }], nextAfterId: null } });
    await renderPanel(listPanel, { host: h });
    const rows = await screen.findAllByTestId('training-row');
    expect(rows.map((r) => r.querySelector('td')!.textContent)).toEqual(['tune spring PT-RRRRRRRR', 'tune winter PT-BBBBBBBB']);
    expect(within(rows[0]!).getByText('Stop')).toBeTruthy();
    fireEvent.keyDown(rows[1]!, { key: 'Enter' });
    const detail = await screen.findByTestId('training-detail');
    expect(within(detail).getByTestId('training-score').textContent).toBe('3.2500');
    expect(JSON.parse(within(detail).getByTestId('best-params').textContent!)).toEqual({ candidate: { g: 0.42 }, score: 3.25 });
    expect((await within(detail).findByTestId('modelling-log')).textContent).toContain('best {"g":0.42} score 3.2500');
    expect(await within(detail).findByTestId('modelling-curves')).toBeTruthy();
    expect(bodyOf(h, 'trainParameter/get')).toEqual({ id: done.id });
  });
});
