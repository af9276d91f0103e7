/**
 * Issue 17 items 1 and 5 in the screens: the reward list shows names with the "broken" mark and
 * its message, a reward saved broken says so (not "Saved"), the policy, tuning and deduction
 * forms do not offer a broken reward, and the deduction and tuning forms send the chosen
 * initial (search) dataset. A failed save's message (no one field's) shows in the SDK's
 * form-error callout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from './plugin';
import { screenOf } from './test-screens';

const SOLUTION = 'a'.repeat(32);
const PROJECT = 'p'.repeat(32);
const empty = { data: { rows: [], total: 0 } };
/** A test host answering `calls` (url → reply), and no virtual machines or hyperparameter sets. */
const host = (locale: 'zh-CN' | 'en-US', calls: Record<string, unknown> = {}) => {
  const h = createTestHost({ plugins: [trainingsKitPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/objective', search: { projectId: PROJECT, solutionId: SOLUTION } } });
  for (const [url, reply] of Object.entries({ 'virtualMachine/getVirtualMachineList': { data: { rows: [] } }, 'hyperparameter/list': empty, ...calls })) h.mockCall(url, reply as never);
  return h;
};
const GOOD = { id: 'g'.repeat(32), name: 'profit', description: 'a long description of the profit reward', files: null, checkState: 'checked', checkMessage: null };
const BROKEN = { id: 'b'.repeat(32), name: 'typo', description: 'the broken one', files: null, checkState: 'broken', checkMessage: 'reward.py:1: SyntaxError: expected \':\'' };
const REWARDS = { data: { rows: [GOOD, BROKEN], total: 2 } };
const DONE_ENV = { data: { rows: [{ id: 'e'.repeat(32), code: 'E-1', name: 'venv', state: 'successful', progress: 1, durationMs: 1 }], total: 1 } };
const DATASETS = { data: { rows: [{ tableId: 'd'.repeat(32), name: 'start states', amount: 42, type: 'decision', columns: [] }], total: 1, page: 1, pageSize: 100 } };

const optionTexts = (select: HTMLElement) => within(select).getAllByRole('option').map((o) => o.textContent);

describe('forms do not offer broken rewards and send the initial dataset', () => {
  afterEach(() => cleanup());

  it('policy form: only rewards that are not broken', async () => {
    const h = host('en-US', {
      'trainPolicy/list': empty,
      'trainSimulator/list': DONE_ENV,
      'objective/list': REWARDS,
    });
    await renderPanel(screenOf('policy', true), { host: h });
    await screen.findByText('profit');
    expect(optionTexts(screen.getByTestId('train-objective'))).toEqual(['Choose…', 'profit']);
  });

  it('tuning form: only rewards that are not broken, and the initial search dataset is sent', async () => {
    const h = host('en-US', {
      'trainParameter/list': empty,
      'trainSimulator/list': DONE_ENV,
      'objective/list': REWARDS,
      'table/list': DATASETS,
      'trainParameter/create': { data: { id: 'f'.repeat(32) } },
    });
    await renderPanel(screenOf('parameter', true), { host: h });
    await screen.findByText('profit');
    expect(optionTexts(screen.getByTestId('train-objective'))).toEqual(['Choose…', 'profit']);
    await screen.findByText('start states (42)');
    expect(h.calls.find((c) => c.url === 'table/list')?.body).toMatchObject({ projectId: PROJECT });
    fireEvent.change(screen.getByTestId('train-name'), { target: { value: 'tune-1' } });
    fireEvent.change(screen.getByTestId('train-simulator'), { target: { value: 'e'.repeat(32) } });
    fireEvent.change(screen.getByTestId('train-objective'), { target: { value: GOOD.id } });
    fireEvent.change(screen.getByTestId('train-datasetId'), { target: { value: 'd'.repeat(32) } });
    fireEvent.change(screen.getByTestId('train-search-count'), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('train-submit'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'trainParameter/create')?.body).toMatchObject({ name: 'tune-1', objectiveId: GOOD.id, datasetId: 'd'.repeat(32) }));
  });

  it('decision deduction form: offers the project datasets (both languages), no broken reward, and sends the steps and the dataset', async () => {
    for (const [locale, label, own] of [['en-US', 'Initial dataset', "The environment's data (its scheme's processed data)"], ['zh-CN', '初始数据集', '环境的数据（其方案的已处理数据）']] as const) {
      const h = host(locale, {
        'decision/list': empty,
        'trainSimulator/list': DONE_ENV,
        'trainPolicy/list': { data: { rows: [{ id: 'q'.repeat(32), code: 'P-1', name: 'ppo', state: 'successful', progress: 1, durationMs: 1 }], total: 1 } },
        'objective/list': REWARDS,
        'table/list': DATASETS,
        'decision/create': { data: { id: 'f'.repeat(32) } },
      });
      await renderPanel(screenOf('decision'), { host: h });
      fireEvent.click((await screen.findAllByTestId('modelling-new'))[0]!);
      await screen.findByText('start states (42)');
      expect(screen.getByText(label)).toBeTruthy();
      expect(optionTexts(screen.getByTestId('deduction-datasetId'))).toEqual([own, 'start states (42)']);
      expect(optionTexts(screen.getByTestId('deduction-objectiveId'))).not.toContain('typo');
      fireEvent.change(screen.getByTestId('deduction-name'), { target: { value: 'long run' } });
      fireEvent.change(screen.getByTestId('deduction-simulatorId'), { target: { value: 'e'.repeat(32) } });
      fireEvent.change(screen.getByTestId('deduction-policyId'), { target: { value: 'q'.repeat(32) } });
      fireEvent.change(screen.getByTestId('deduction-step'), { target: { value: '10000' } });
      fireEvent.change(screen.getByTestId('deduction-datasetId'), { target: { value: 'd'.repeat(32) } });
      fireEvent.click(screen.getByTestId('deduction-submit'));
      await waitFor(() => expect(h.calls.find((c) => c.url === 'decision/create')?.body).toEqual({ solutionId: SOLUTION, name: 'long run', simulatorId: 'e'.repeat(32), policyId: 'q'.repeat(32), stepSize: 10_000, datasetId: 'd'.repeat(32) }));
      cleanup();
    }
  });

  it('deduction form: a failed create\'s message shows once, in the SDK\'s form-error callout above the fields', async () => {
    const h = host('en-US', {
      'simulation/list': empty,
      'trainSimulator/list': DONE_ENV,
      'objective/list': REWARDS,
      'table/list': DATASETS,
      'simulation/create': { code: 1019, message: 'Platform error' },
    });
    await renderPanel(screenOf('simulation'), { host: h });
    fireEvent.click((await screen.findAllByTestId('modelling-new'))[0]!);
    await screen.findByText('venv');
    fireEvent.change(screen.getByTestId('deduction-name'), { target: { value: 'short run' } });
    fireEvent.change(screen.getByTestId('deduction-simulatorId'), { target: { value: 'e'.repeat(32) } });
    expect(screen.queryByTestId('form-error')).toBeNull();
    fireEvent.click(screen.getByTestId('deduction-submit'));
    const callout = await screen.findByTestId('form-error');
    expect(callout.textContent).toBe('Platform error');
    expect(screen.getAllByTestId('form-error')).toHaveLength(1);
    expect(callout.compareDocumentPosition(screen.getByTestId('deduction-name')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
