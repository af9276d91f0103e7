import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { navigationServiceRef } from '../services';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { ErrorCode } from '@decisio/domain';
import { trainingsKitPlugin } from './plugin';
import { screenOf } from './test-screens';
import type { TrainingScreen } from './TrainingsScreen';

const SOLUTION = 'a'.repeat(32);
const host = (locale: 'zh-CN' | 'en-US', search: Record<string, string> = { projectId: 'p'.repeat(32), solutionId: SOLUTION }) =>
  createTestHost({ plugins: [trainingsKitPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/simulator', search } });
const empty = { data: { rows: [], total: 0 } };

const LISTS: { kind: TrainingScreen; url: string; en: string; zh: string }[] = [
  { kind: 'environment', url: 'trainSimulator/list', en: 'No environments yet', zh: '还没有环境' },
  { kind: 'policy', url: 'trainPolicy/list', en: 'No policies yet', zh: '还没有策略' },
  { kind: 'parameter', url: 'trainParameter/list', en: 'No parameter searches yet', zh: '还没有参数调优' },
  { kind: 'simulation', url: 'simulation/list', en: 'No simulation deductions yet', zh: '还没有仿真推演' },
  { kind: 'decision', url: 'decision/list', en: 'No decision deductions yet', zh: '还没有决策推演' },
];

describe('trainings screens', () => {
  afterEach(() => cleanup());

  for (const l of LISTS) {
    it(`${l.kind} shows its empty state in both languages`, async () => {
      for (const [locale, title] of [['en-US', l.en], ['zh-CN', l.zh]] as const) {
        const h = host(locale);
        h.mockCall(l.url, empty);
        await renderPanel(screenOf(l.kind), { host: h });
        expect(await screen.findByText(title)).toBeTruthy();
        expect(h.calls.find((c) => c.url === l.url)?.body).toEqual({ solutionId: SOLUTION });
        cleanup();
      }
    });
  }

  it("another solution's list never shows this one's trainings while its own load", async () => {
    const other = 'f'.repeat(32);
    const gate = heldBack();
    const row = (id: string, name: string) => ({ id, code: `E-${id.slice(0, 8)}`, name, state: 'successful', progress: 1, durationMs: 1000, jobId: null, algorithm: 'bc', score: 1, createdAt: '2026-11-23T10:00:00.000Z' });
    const h = host('en-US');
    h.mockCall('trainSimulator/list', async (body) => {
      if ((body as { solutionId: string }).solutionId !== other) return { data: { rows: [row('b'.repeat(32), 'ours')], total: 1 } };
      await gate.wait;
      return { data: { rows: [row('d'.repeat(32), 'theirs')], total: 1 } };
    });
    await renderPanel(screenOf('environment'), { host: h });
    expect(await screen.findByText('ours')).toBeTruthy();
    act(() => h.services.get(navigationServiceRef).navigate('/workflow/simulator', { search: { projectId: 'p'.repeat(32), solutionId: other } }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'trainSimulator/list' && (c.body as { solutionId: string }).solutionId === other)).toBe(true));
    expect(screen.queryByText('ours')).toBeNull();
    gate.release();
    expect(await screen.findByText('theirs')).toBeTruthy();
  });

  it('asks for a solution when the link has none', async () => {
    await renderPanel(screenOf('environment'), { host: host('en-US', {}) });
    expect(await screen.findByText('No solution selected')).toBeTruthy();
  });

  it('shows a load failure with a retry', async () => {
    const h = host('en-US');
    h.mockCall('trainPolicy/list', { code: 1001, message: 'Server error' });
    await renderPanel(screenOf('policy'), { host: h });
    expect(await screen.findByText('Could not load')).toBeTruthy();
    expect(screen.getByText('Retry')).toBeTruthy();
  });

  it('lists trainings with state, progress and the score', async () => {
    const h = host('en-US');
    h.mockCall('trainSimulator/list', {
      data: {
        rows: [
          { id: 'b'.repeat(32), code: 'E-BBBBBBBB', name: 'venv one', state: 'processing', progress: 0.4, durationMs: 65_000, jobId: 'c'.repeat(32), algorithm: 'bc', score: null, createdAt: '2026-11-23T10:00:00.000Z' },
          { id: 'd'.repeat(32), code: 'E-DDDDDDDD', name: 'venv two', state: 'successful', progress: 1, durationMs: 3_600_000, jobId: 'e'.repeat(32), algorithm: 'bc', score: 71.25, createdAt: '2026-11-23T09:00:00.000Z' },
        ],
        total: 2,
      },
    });
    await renderPanel(screenOf('environment'), { host: h });
    expect(await screen.findByText('venv one')).toBeTruthy();
    expect(screen.getByText('71.25')).toBeTruthy();
    expect(screen.getAllByText('Processing').length).toBeGreaterThan(0);
    expect(screen.getByText('Stop')).toBeTruthy();
  });

  it("shows a finished training's or deduction's progress as done (100%), a stopped one's as far as it got, not its duration alone", async () => {
    const h = host('en-US');
    const row = (id: string, name: string, state: string, progress: number | null) => ({ id: id.repeat(32), code: `D-${id}`, name, state, progress, durationMs: 11_000, jobId: null, stepSize: 10, score: null, createdAt: '2026-11-23T10:00:00.000Z' });
    h.mockCall('simulation/list', {
      data: { rows: [row('b', 'done', 'successful', null), row('c', 'halted', 'successful by manual stop', 0.5), row('d', 'broken', 'failure', null)], total: 3 },
    });
    await renderPanel(screenOf('simulation'), { host: h });
    const progressOf = async (name: string) => (await screen.findByText(name)).closest('tr')!.querySelectorAll('td')[3]!;
    const done = await progressOf('done');
    expect(done.textContent).toBe('100% · 11s');
    expect((done.querySelector('.bp6-progress-meter') as HTMLElement).style.width).toBe('100%');
    const halted = await progressOf('halted');
    expect(halted.textContent).toBe('50% · 11s');
    expect((halted.querySelector('.bp6-progress-meter') as HTMLElement).style.width).toBe('50%');
    // A failure of unknown progress: no invented figure.
    expect((await progressOf('broken')).textContent).toBe('11s');
  });

  it('marks a policy whose return does not exceed the data\'s own decisions, in both languages', async () => {
    for (const [locale, words] of [['en-US', "Not above the data's decisions"], ['zh-CN', '未超过数据决策']] as const) {
      const h = host(locale);
      h.mockCall('trainPolicy/list', {
        data: {
          rows: [
            { id: 'b'.repeat(32), code: 'P-BBBBBBBB', name: 'no gain', state: 'successful', progress: 1, durationMs: 1000, algorithm: 'sac', reward: -5.6, config: { behaviourReward: -5.6 }, createdAt: '2026-11-23T10:00:00.000Z' },
            { id: 'd'.repeat(32), code: 'P-DDDDDDDD', name: 'gains', state: 'successful', progress: 1, durationMs: 1000, algorithm: 'ppo', reward: -4.25, config: { behaviourReward: -5.6 }, createdAt: '2026-11-23T09:00:00.000Z' },
          ],
          total: 2,
        },
      });
      const view = await renderPanel(screenOf('policy'), { host: h });
      await screen.findByText('gains');
      const marks = screen.getAllByTestId('policy-behind');
      expect(marks).toHaveLength(1);
      expect(marks[0]!.textContent).toBe(words);
      expect(marks[0]!.closest('tr')!.textContent).toContain('no gain');
      view.unmount();
    }
  });
});

describe('training forms', () => {
  afterEach(() => cleanup());

  it('environment form: checks fields on the client and sends nothing while invalid', async () => {
    const h = host('en-US');
    h.mockCall('trainSimulator/list', empty);
    h.mockCall('scheme/list', { data: { rows: [{ id: 's'.repeat(32), name: 'main scheme', processState: 'completed', period: 'day', startTime: '2026-01-01', endTime: '2026-02-01', data: {} }], total: 1 } });
    h.mockCall('virtualMachine/getVirtualMachineList', { data: { rows: [] } });
    h.mockCall('hyperparameter/list', empty);
    await renderPanel(screenOf('environment', true), { host: h });
    fireEvent.click(await screen.findByTestId('stop-system'));
    fireEvent.click(screen.getByTestId('train-git'));
    fireEvent.change(screen.getByTestId('git-url'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByTestId('train-submit'));
    expect((await screen.findAllByText('Required')).length).toBeGreaterThanOrEqual(3);
    expect(screen.getByText('Choose at least one stop condition')).toBeTruthy();
    expect(screen.getByText('Not a valid git URL')).toBeTruthy();
    fireEvent.click(screen.getByTestId('stop-expected-on'));
    fireEvent.change(screen.getByTestId('stop-expected'), { target: { value: '120' } });
    fireEvent.click(screen.getByTestId('train-submit'));
    expect(await screen.findByText('Greater than 0 and at most 99')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'trainSimulator/create')).toBe(false);
  });

  it('environment form: sends a valid form and shows the server errors under the fields', async () => {
    const h = host('en-US');
    h.mockCall('trainSimulator/list', empty);
    h.mockCall('scheme/list', { data: { rows: [{ id: 's'.repeat(32), name: 'main scheme', processState: 'completed', period: 'day', startTime: '2026-01-01', endTime: '2026-02-01', data: {} }], total: 1 } });
    h.mockCall('virtualMachine/getVirtualMachineList', { data: { rows: [] } });
    h.mockCall('hyperparameter/list', empty);
    h.mockCall('trainSimulator/create', { code: 1008, message: 'Invalid parameters', errors: { name: 'Environment name already used', 'hyperparameters.ensemble': 'A whole number from 1 to 10' } });
    await renderPanel(screenOf('environment', true), { host: h });
    fireEvent.change(await screen.findByTestId('train-name'), { target: { value: 'venv' } });
    await screen.findByText('main scheme');
    fireEvent.change(screen.getByTestId('train-scheme'), { target: { value: 's'.repeat(32) } });
    // The hyperparameters field says which keys the environment takes.
    expect(screen.getByText(/ensemble: how many environment models are trained together/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('train-submit'));
    expect(await screen.findByText('Environment name already used')).toBeTruthy();
    // A server error on a hyperparameter stands under the hyperparameters field, in place of the hint, and names the setting.
    expect(screen.getByText('ensemble: A whole number from 1 to 10')).toBeTruthy();
    expect(screen.queryByText(/ensemble: how many environment models/)).toBeNull();
    // paramInvalid's own text would only repeat the fields': no form callout for it
    expect(screen.queryByTestId('form-error')).toBeNull();
    expect(h.calls.find((c) => c.url === 'trainSimulator/create')?.body).toMatchObject({ solutionId: SOLUTION, name: 'venv', schemeId: 's'.repeat(32), algorithm: 'bc', stopConditions: { system: true }, mode: 'run' });
  });

  it('environment form: recommends BC when an adversarial algorithm is chosen, in both languages', async () => {
    for (const [locale, words] of [['en-US', 'BC is recommended'], ['zh-CN', '建议使用 BC']] as const) {
      const h = host(locale);
      h.mockCall('trainSimulator/list', empty);
      h.mockCall('scheme/list', empty);
      h.mockCall('virtualMachine/getVirtualMachineList', { data: { rows: [] } });
      h.mockCall('hyperparameter/list', empty);
      const view = await renderPanel(screenOf('environment', true), { host: h });
      const select = await screen.findByTestId('train-algorithm');
      expect(screen.queryByTestId('train-algorithm-advice')).toBeNull();
      fireEvent.change(select, { target: { value: 'revive_p' } });
      expect((await screen.findByTestId('train-algorithm-advice')).textContent).toContain(words);
      fireEvent.change(select, { target: { value: 'bc' } });
      expect(screen.queryByTestId('train-algorithm-advice')).toBeNull();
      view.unmount();
    }
  });

  /** A host for the policy form: one finished environment, one reward, a create that succeeds. */
  const policyHost = (locale: 'zh-CN' | 'en-US') => {
    const h = host(locale);
    h.mockCall('trainPolicy/list', empty);
    h.mockCall('trainSimulator/list', { data: { rows: [{ id: 'e'.repeat(32), code: 'E-1', name: 'venv', state: 'successful', progress: 1, durationMs: 1 }], total: 1 } });
    h.mockCall('objective/list', { data: { rows: [{ id: 'o'.repeat(32), name: 'profit', files: null }], total: 1 } });
    h.mockCall('virtualMachine/getVirtualMachineList', { data: { rows: [] } });
    h.mockCall('hyperparameter/list', empty);
    h.mockCall('trainPolicy/create', { data: { id: 'f'.repeat(32) } });
    return h;
  };

  it('policy form: needs an environment and a reward, in Chinese too', async () => {
    const h = host('zh-CN');
    h.mockCall('trainPolicy/list', empty);
    h.mockCall('trainSimulator/list', empty);
    h.mockCall('objective/list', empty);
    h.mockCall('virtualMachine/getVirtualMachineList', { data: { rows: [] } });
    h.mockCall('hyperparameter/list', empty);
    await renderPanel(screenOf('policy', true), { host: h });
    fireEvent.change(await screen.findByTestId('train-name'), { target: { value: 'ppo-1' } });
    fireEvent.click(screen.getByTestId('stop-duration'));
    fireEvent.change(screen.getByTestId('stop-days'), { target: { value: '8' } });
    fireEvent.change(screen.getByTestId('train-hyper'), { target: { value: '{"epoch": 5}' } });
    fireEvent.click(screen.getByTestId('train-submit'));
    expect((await screen.findAllByText('必填')).length).toBe(2);
    expect(screen.getByText('须为整数，总时长大于 0 且不超过 7 天')).toBeTruthy();
    // the form's own check names the unknown setting before the translated text
    expect(screen.getByText('epoch: 此类训练没有该超参数，或取值超出范围')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'trainPolicy/create')).toBe(false);
  });

  it('policy form: sends PPO or SAC with the chosen environment and reward', async () => {
    const h = policyHost('en-US');
    await renderPanel(screenOf('policy', true), { host: h });
    fireEvent.change(await screen.findByTestId('train-name'), { target: { value: 'sac-1' } });
    await screen.findByText('venv');
    fireEvent.change(screen.getByTestId('train-simulator'), { target: { value: 'e'.repeat(32) } });
    fireEvent.change(screen.getByTestId('train-objective'), { target: { value: 'o'.repeat(32) } });
    // the graph's default first, then the algorithms by name
    const algorithm = screen.getByTestId('train-algorithm') as HTMLSelectElement;
    expect([...algorithm.options].map((o) => [o.value, o.textContent])).toEqual([['', 'For the graph: SAC if every decision is continuous, else PPO'], ['ppo', 'PPO'], ['sac', 'SAC']]);
    expect(algorithm.value).toBe('');
    fireEvent.change(algorithm, { target: { value: 'sac' } });
    fireEvent.click(screen.getByTestId('train-submit'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'trainPolicy/create')?.body).toMatchObject({ name: 'sac-1', simulatorId: 'e'.repeat(32), objectiveId: 'o'.repeat(32), algorithm: 'sac' }));
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe('Training started'));
  });

  it("policy form: SAC refused for the graph's discrete decisions shows the reason and marks the algorithm", async () => {
    const h = policyHost('en-US');
    const reason = 'SAC decides continuous fields only, and this decision graph has discrete or category decisions: choose PPO, or leave the algorithm to the graph';
    h.mockCall('trainPolicy/create', { code: ErrorCode.trainAlgorithmUnfit, message: reason, errors: { algorithm: 'Invalid value' } });
    await renderPanel(screenOf('policy', true), { host: h });
    fireEvent.change(await screen.findByTestId('train-name'), { target: { value: 'sac-2' } });
    await screen.findByText('venv');
    fireEvent.change(screen.getByTestId('train-simulator'), { target: { value: 'e'.repeat(32) } });
    fireEvent.change(screen.getByTestId('train-objective'), { target: { value: 'o'.repeat(32) } });
    fireEvent.change(screen.getByTestId('train-algorithm'), { target: { value: 'sac' } });
    fireEvent.click(screen.getByTestId('train-submit'));
    expect((await screen.findByTestId('form-error')).textContent).toContain(reason);
    expect(screen.getByText('Invalid value')).toBeTruthy();
    expect(h.toasts.some((t) => t.message === 'Training started')).toBe(false);
  });

  it('policy form: left at the graph\'s default, the body names no algorithm (the server takes the graph\'s), in Chinese too', async () => {
    const h = policyHost('zh-CN');
    await renderPanel(screenOf('policy', true), { host: h });
    fireEvent.change(await screen.findByTestId('train-name'), { target: { value: 'auto-1' } });
    await screen.findByText('venv');
    expect(screen.getByRole('option', { name: '按决策图选择：决策全为连续量时用 SAC，否则用 PPO' })).toBeTruthy();
    fireEvent.change(screen.getByTestId('train-simulator'), { target: { value: 'e'.repeat(32) } });
    fireEvent.change(screen.getByTestId('train-objective'), { target: { value: 'o'.repeat(32) } });
    fireEvent.click(screen.getByTestId('train-submit'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'trainPolicy/create')?.body).toMatchObject({ name: 'auto-1', simulatorId: 'e'.repeat(32) }));
    expect(h.calls.find((c) => c.url === 'trainPolicy/create')?.body).not.toHaveProperty('algorithm');
  });
});
