import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import { createTestHost, heldBack, renderPanel, ScriptedEventSource } from '@decisio/sdk-plugin/testing';
import { environmentPlugin } from '../index';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { breakpointsOf, type TensorSummary } from './DebugPanel';

const SOLUTION = 'a'.repeat(32);
const SIM = 'b'.repeat(32);
const JOB = 'c'.repeat(32);
const panel = (id: string) => environmentPlugin.panels.find((p) => p.id === id)!;
const host = (search: Record<string, string>, locale: 'zh-CN' | 'en-US' = 'en-US') =>
  createTestHost({ plugins: [trainingsKitPlugin, environmentPlugin], locale, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/debug', search } });
const log = (id: number, message: string) => ({ id, level: 'info', message, time: `2026-11-23T10:0${id}:00.000Z` });
const summary = (name: string, over: Partial<TensorSummary> = {}): TensorSummary => ({
  name,
  shape: [3, 16],
  size: 48,
  mean: 0.0123456,
  std: 0.25,
  min: -0.5,
  max: 0.5,
  norm: 1.75,
  zeros: 0,
  nan: 0,
  inf: 0,
  hist: { lo: -0.5, hi: 0.5, counts: [2, 4, 8, 10, 8, 6, 4, 3, 2, 1] },
  gradNorm: 0.031,
  ...over,
});
const debugRow = (state: string) => ({ id: SIM, code: 'E-B', name: 'env debug', state, progress: 0.5, durationMs: 5000, jobId: JOB, algorithm: 'bc', config: { mode: 'debug' }, createdAt: '2026-11-23T10:00:00.000Z' });

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
    const tensors = {
      id: 3,
      time: '2026-11-23T10:03:00.000Z',
      step: 1,
      omitted: 2,
      tensors: [summary('action.0.weight'), summary('action.0.bias', { shape: [16], size: 16, mean: null, std: null, min: null, max: null, norm: null, nan: 0.75, inf: 0.25, hist: null, gradNorm: null })],
    };
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: JOB, state: 'debugging', progress: 0.5, metrics: {}, points: [{ id: 1, time: null, step: 0, loss: 0.9 }, { id: 2, time: null, step: 1, loss: 0.4, score: 61.5 }], tensors } });
    h.mockCall('train/skipBreakpoint', { data: { jobId: JOB, state: 'processing' } });
    h.mockCall('train/stopTrain', { data: { jobId: JOB, state: 'stopping' } });
    await renderPanel(panel('environment.debug'), { host: h });
    const list = await screen.findByTestId('debug-breakpoints');
    expect(list.querySelectorAll('li')).toHaveLength(2);
    expect(list.querySelector('[aria-current="step"]')?.textContent).toContain('After step 1');
    const metrics = await screen.findByTestId('debug-metrics');
    expect(metrics.textContent).toContain('loss');
    expect(metrics.textContent).toContain('0.40000');
    expect(metrics.textContent).toContain('61.500');
    // the tensors kept at the current breakpoint: one row per parameter, NaN/Inf flagged
    expect(screen.getByText('Tensors at the breakpoint after step 1')).toBeTruthy();
    const rows = screen.getAllByTestId('debug-tensor-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('action.0.weight');
    expect(rows[0]!.textContent).toContain('[3, 16]');
    expect(rows[0]!.textContent).toContain('0.01235');
    expect(rows[0]!.textContent).toContain('1.750');
    expect(rows[0]!.textContent).toContain('0.03100');
    expect(rows[0]!.getAttribute('aria-invalid')).toBeNull();
    const bars = rows[0]!.querySelectorAll('[data-testid="debug-tensor-histogram"] rect');
    expect(bars).toHaveLength(10);
    // the fullest bin is full height, an emptier one proportionally lower
    expect(Number(bars[3]!.getAttribute('height'))).toBe(20);
    expect(Number(bars[9]!.getAttribute('height'))).toBe(2);
    expect(rows[0]!.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('Histogram of action.0.weight, -0.5000 to 0.5000');
    expect(rows[1]!.getAttribute('aria-invalid')).toBe('true');
    expect(rows[1]!.textContent).toContain('NaN 75%');
    expect(rows[1]!.textContent).toContain('Inf 25%');
    expect(screen.getByTestId('debug-tensors-nonfinite').textContent).toBe('Parameters holding NaN or infinite values: 1.');
    expect(screen.getByText('Parameters left out to keep the summary small: 2.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('debug-skip'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'train/skipBreakpoint')?.body).toEqual({ jobId: JOB }));
    fireEvent.click(screen.getByTestId('debug-stop'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'train/stopTrain')?.body).toEqual({ jobId: JOB }));
  });

  it('offers no skip while the training runs between breakpoints, in Chinese too', async () => {
    const h = host({ solutionId: SOLUTION, simulatorId: SIM }, 'zh-CN');
    h.mockCall('trainSimulator/get', { data: debugRow('processing') });
    h.mockCall('train/getTrainLog', { data: { jobId: JOB, state: 'processing', error: null, items: [log(1, 'breakpoint after step 0')], nextAfterId: null } });
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: JOB, state: 'processing', progress: 0.5, metrics: {}, points: [] } });
    await renderPanel(panel('environment.debug'), { host: h });
    // neither metrics nor tensors away from a breakpoint
    expect(await screen.findAllByText('训练当前不在断点处。')).toHaveLength(2);
    expect(screen.getByText('张量')).toBeTruthy();
    expect(screen.queryByTestId('debug-tensors')).toBeNull();
    expect((screen.getByTestId('debug-skip') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('debug-stop') as HTMLButtonElement).disabled).toBe(false);
  });

  it('a view collaborator may watch, not skip or stop: both disabled with the reason, in both languages; an editor may', async () => {
    const reasons = { 'en-US': 'You can only view this project: ask its owner for the edit right to change it.', 'zh-CN': '你只能查看此项目：如需修改，请向项目所有者申请编辑权限。' } as const;
    for (const [locale, right] of [['en-US', 'view'], ['zh-CN', 'view'], ['en-US', 'edit']] as const) {
      const h = host({ projectId: 'p'.repeat(32), solutionId: SOLUTION, simulatorId: SIM }, locale);
      h.mockCall('project/getProject', { data: { projectId: 'p'.repeat(32), name: 'P', locked: false, right } });
      h.mockCall('trainSimulator/get', { data: debugRow('debugging') });
      h.mockCall('train/getTrainLog', { data: { jobId: JOB, state: 'debugging', error: null, items: [log(1, 'breakpoint after step 0')], nextAfterId: null } });
      h.mockCall('train/getTrainDisplayDataList', { data: { jobId: JOB, state: 'debugging', progress: 0.5, metrics: {}, points: [] } });
      await renderPanel(panel('environment.debug'), { host: h });
      const skip = (await screen.findByTestId('debug-skip')) as HTMLButtonElement;
      const stop = screen.getByTestId('debug-stop') as HTMLButtonElement;
      await screen.findByTestId('debug-breakpoints');
      await waitFor(() => expect(h.calls.some((c) => c.url === 'project/getProject')).toBe(true));
      await new Promise((r) => setTimeout(r, 20));
      const expected = right === 'view' ? [true, reasons[locale]] : [false, null];
      await waitFor(() => expect([skip, stop].map((b) => [b.disabled, b.getAttribute('title')])).toEqual([expected, expected]));
      cleanup();
    }
  });

  it('says when no tensor summary was kept at the current breakpoint, in Chinese and the dark theme too', async () => {
    for (const [locale, text] of [
      ['en-US', 'No tensor summary was kept at this breakpoint.'],
      ['zh-CN', '该断点处没有记录张量摘要。'],
    ] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, environmentPlugin], locale, theme: 'dark', session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/debug', search: { solutionId: SOLUTION, simulatorId: SIM } } });
      h.mockCall('trainSimulator/get', { data: debugRow('debugging') });
      h.mockCall('train/getTrainLog', { data: { jobId: JOB, state: 'debugging', error: null, items: [log(1, 'breakpoint after step 1'), log(2, 'breakpoint after step 2')], nextAfterId: null } });
      // the latest summary is of the earlier breakpoint (none kept at the current one)
      h.mockCall('train/getTrainDisplayDataList', { data: { jobId: JOB, state: 'debugging', progress: 0.5, metrics: {}, points: [], tensors: { id: 1, time: null, step: 1, omitted: 0, tensors: [summary('w')] } } });
      await renderPanel(panel('environment.debug'), { host: h });
      await waitFor(() => expect(screen.getByTestId('debug-tensors-empty').textContent).toBe(text));
      expect(screen.queryByTestId('debug-tensor-row')).toBeNull();
      cleanup();
    }
  });

  it('filters a long list of tensors by name', async () => {
    const h = host({ solutionId: SOLUTION, simulatorId: SIM });
    h.mockCall('trainSimulator/get', { data: debugRow('debugging') });
    h.mockCall('train/getTrainLog', { data: { jobId: JOB, state: 'debugging', error: null, items: [log(1, 'breakpoint after step 3')], nextAfterId: null } });
    const names = ['obs', 'action', 'next_obs'].flatMap((n) => [0, 1].flatMap((l) => [`${n}.${l}.weight`, `${n}.${l}.bias`]));
    h.mockCall('train/getTrainDisplayDataList', { data: { jobId: JOB, state: 'debugging', progress: 0.5, metrics: {}, points: [], tensors: { id: 1, time: null, step: 3, omitted: 0, tensors: names.map((n) => summary(n)) } } });
    await renderPanel(panel('environment.debug'), { host: h });
    await waitFor(() => expect(screen.getAllByTestId('debug-tensor-row')).toHaveLength(12));
    expect(screen.queryByTestId('debug-tensors-nonfinite')).toBeNull();
    fireEvent.change(screen.getByTestId('debug-tensors-filter'), { target: { value: 'NEXT_obs.1' } });
    expect(screen.getAllByTestId('debug-tensor-row').map((r) => r.querySelector('th')!.textContent)).toEqual(['next_obs.1.weight', 'next_obs.1.bias']);
    fireEvent.change(screen.getByTestId('debug-tensors-filter'), { target: { value: 'critic' } });
    expect(screen.queryAllByTestId('debug-tensor-row')).toHaveLength(0);
    expect(screen.getByText('No parameter matches the filter.')).toBeTruthy();
  });

  it('lists the trainings in debug mode when none is in the link, and says when there is none', async () => {
    const h = host({ solutionId: SOLUTION });
    h.mockCall('trainSimulator/list', { data: { rows: [{ id: SIM, code: 'E-B', name: 'env debug', state: 'debugging', progress: 0, durationMs: 1, jobId: JOB, config: { mode: 'debug' } }, { id: 'd'.repeat(32), code: 'E-D', name: 'env run', state: 'processing', progress: 0, durationMs: 1, jobId: 'e'.repeat(32), config: { mode: 'run' } }], total: 2 } });
    h.mockCall('trainPolicy/list', { data: { rows: [], total: 0 } });
    await renderPanel(panel('environment.debug'), { host: h });
    const rows = await screen.findAllByTestId('debug-choose-row');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.textContent).toContain('env debug');
    // A focused row opens with the keyboard as with a click.
    fireEvent.keyDown(rows[0]!, { key: 'Tab' });
    expect(h.location().search.simulatorId).toBeUndefined();
    fireEvent.keyDown(rows[0]!, { key: 'Enter' });
    expect(h.location()).toMatchObject({ pathname: '/workflow/debug', search: { solutionId: SOLUTION, simulatorId: SIM } });
    cleanup();
    const empty = host({ solutionId: SOLUTION });
    empty.mockCall('trainSimulator/list', { data: { rows: [], total: 0 } });
    empty.mockCall('trainPolicy/list', { data: { rows: [], total: 0 } });
    await renderPanel(panel('environment.debug'), { host: empty });
    expect(await screen.findByText('No training in debug mode')).toBeTruthy();
  });

  it("lists only the linked solution's debug trainings: another solution's list waits for its answer, never the previous one's", async () => {
    const OTHER = 'f'.repeat(32);
    const h = host({ solutionId: SOLUTION });
    const gate = heldBack();
    h.mockCall('trainSimulator/list', async (body) => {
      if ((body as { solutionId: string }).solutionId !== OTHER) return { data: { rows: [{ ...debugRow('debugging'), name: 'mine' }], total: 1 } };
      await gate.wait;
      return { data: { rows: [{ ...debugRow('debugging'), id: '9'.repeat(32), name: 'theirs' }], total: 1 } };
    });
    h.mockCall('trainPolicy/list', { data: { rows: [], total: 0 } });
    await renderPanel(panel('environment.debug'), { host: h });
    expect((await screen.findAllByTestId('debug-choose-row')).map((r) => r.textContent)).toEqual([expect.stringContaining('mine')]);
    act(() => h.services.get(navigationServiceRef).navigate('/workflow/debug', { search: { solutionId: OTHER } }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'trainSimulator/list' && (c.body as { solutionId: string }).solutionId === OTHER)).toBe(true));
    expect(screen.queryAllByTestId('debug-choose-row')).toEqual([]);
    expect(screen.getByText('Loading…')).toBeTruthy();
    gate.release();
    await waitFor(() => expect(screen.getAllByTestId('debug-choose-row').map((r) => r.textContent)).toEqual([expect.stringContaining('theirs')]));
  });

  it('picks the summary of an earlier breakpoint from a select, back to the current one, in both languages and themes', async () => {
    for (const [locale, theme, texts] of [
      ['en-US', 'light', { pick: 'Breakpoint', current: 'Current breakpoint (after step 2)', at1: 'Tensors at the breakpoint after step 1', at2: 'Tensors at the breakpoint after step 2', after1: 'After step 1', none: 'No tensor summary was kept at this breakpoint.' }],
      ['zh-CN', 'dark', { pick: '断点', current: '当前断点（第 2 步后）', at1: '第 1 步之后断点处的张量', at2: '第 2 步之后断点处的张量', after1: '第 1 步之后', none: '该断点处没有记录张量摘要。' }],
    ] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, environmentPlugin], locale, theme, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/debug', search: { solutionId: SOLUTION, simulatorId: SIM } } });
      h.mockCall('trainSimulator/get', { data: debugRow('debugging') });
      h.mockCall('train/getTrainLog', { data: { jobId: JOB, state: 'debugging', error: null, items: [log(1, 'breakpoint after step 1'), log(2, 'breakpoint after step 2')], nextAfterId: null } });
      const snap = (step: number, names: string[]) => ({ id: step * 10, time: null, step, omitted: 0, tensors: names.map((n) => summary(n)) });
      h.mockCall('train/getTrainDisplayDataList', (body) => {
        const step = (body as { step?: number }).step;
        const tensors = step === undefined || step === 2 ? snap(2, ['now.weight']) : step === 1 ? snap(1, ['then.weight', 'then.bias']) : null;
        return { data: { jobId: JOB, state: 'debugging', progress: 0.5, metrics: {}, points: [], tensors, tensorSteps: [1, 2, 3] } };
      });
      await renderPanel(panel('environment.debug'), { host: h });
      await waitFor(() => expect(screen.getAllByTestId('debug-tensor-row').map((r) => r.querySelector('th')!.textContent)).toEqual(['now.weight']));
      expect(screen.getByText(texts.at2)).toBeTruthy();
      // a native select with a label: keyboard usable, the current breakpoint first
      const select = screen.getByLabelText(texts.pick) as HTMLSelectElement;
      expect(select).toBe(screen.getByTestId('debug-tensors-step'));
      // the current breakpoint (step 2) is listed once, as the first choice
      expect([...select.options].map((o) => o.textContent)).toEqual([texts.current, texts.after1, expect.any(String)]);
      expect(select.value).toBe('');
      select.focus();
      expect(document.activeElement).toBe(select);
      fireEvent.change(select, { target: { value: '1' } });
      await waitFor(() => expect(screen.getAllByTestId('debug-tensor-row').map((r) => r.querySelector('th')!.textContent)).toEqual(['then.weight', 'then.bias']));
      expect(screen.getByText(texts.at1)).toBeTruthy();
      expect(h.calls.some((c) => c.url === 'train/getTrainDisplayDataList' && (c.body as { step?: number }).step === 1)).toBe(true);
      // a step whose summary the server does not find
      fireEvent.change(select, { target: { value: '3' } });
      await waitFor(() => expect(screen.getByTestId('debug-tensors-empty').textContent).toBe(texts.none));
      expect(screen.queryByTestId('debug-tensor-row')).toBeNull();
      fireEvent.change(select, { target: { value: '' } });
      await waitFor(() => expect(screen.getAllByTestId('debug-tensor-row').map((r) => r.querySelector('th')!.textContent)).toEqual(['now.weight']));
      cleanup();
    }
  });

  it('shows an earlier summary while the training runs between breakpoints', async () => {
    const h = host({ solutionId: SOLUTION, simulatorId: SIM });
    h.mockCall('trainSimulator/get', { data: debugRow('processing') });
    h.mockCall('train/getTrainLog', { data: { jobId: JOB, state: 'processing', error: null, items: [log(1, 'breakpoint after step 1')], nextAfterId: null } });
    h.mockCall('train/getTrainDisplayDataList', (body) => ({
      data: { jobId: JOB, state: 'processing', progress: 0.5, metrics: {}, points: [], tensorSteps: [1], tensors: (body as { step?: number }).step === 1 ? { id: 5, time: null, step: 1, omitted: 0, tensors: [summary('old.weight')] } : null },
    }));
    await renderPanel(panel('environment.debug'), { host: h });
    const select = (await screen.findByTestId('debug-tensors-step')) as HTMLSelectElement;
    expect(screen.getAllByText('The training is not at a breakpoint.')).toHaveLength(2);
    fireEvent.change(select, { target: { value: '1' } });
    await waitFor(() => expect(screen.getAllByTestId('debug-tensor-row')).toHaveLength(1));
    expect(screen.getByText('Tensors at the breakpoint after step 1')).toBeTruthy();
    expect(screen.getAllByText('The training is not at a breakpoint.')).toHaveLength(1);
  });

  it('follows the job live: lines appended, the summary fetched on a tensors notice, the record on a change of state', async () => {
    ScriptedEventSource.all = [];
    const sources = ScriptedEventSource.all;
    vi.stubGlobal('EventSource', ScriptedEventSource);
    try {
      const h = host({ solutionId: SOLUTION, simulatorId: SIM });
      h.mockCall('trainSimulator/get', { data: debugRow('processing') });
      h.mockCall('train/getTrainLog', { data: { jobId: JOB, state: 'processing', error: null, items: [], nextAfterId: null } });
      h.mockCall('train/getTrainDisplayDataList', { data: { jobId: JOB, state: 'processing', progress: 0.5, metrics: {}, points: [], tensors: null, tensorSteps: [] } });
      await renderPanel(panel('environment.debug'), { host: h });
      await waitFor(() => expect(sources).toHaveLength(1));
      expect(sources[0]!.url).toBe(`/api/job/events?jobId=${JOB}&logs=1`);
      await waitFor(() => expect(h.calls.filter((c) => c.url === 'train/getTrainDisplayDataList').length).toBeGreaterThan(0));
      sources[0]!.emit('open');
      const count = (url: string) => h.calls.filter((c) => c.url === url).length;
      const [d0, r0, l0] = [count('train/getTrainDisplayDataList'), count('trainSimulator/get'), count('train/getTrainLog')];
      // A breakpoint: its line is appended from the stream, its summary fetched once.
      sources[0]!.emit('log', { id: 7, level: 'info', message: 'breakpoint after step 1', time: '2026-11-28T17:00:00.000Z' });
      sources[0]!.emit('tensors', { step: 1, time: '2026-11-28T17:00:00.000Z' });
      await waitFor(() => expect(count('train/getTrainDisplayDataList')).toBe(d0 + 1), { timeout: 1000 });
      // A change of state reads the record again; the same state does not.
      sources[0]!.emit('state', { jobId: JOB, state: 'processing', progress: 0.6, final: false });
      sources[0]!.emit('state', { jobId: JOB, state: 'debugging', progress: 0.6, final: false });
      await waitFor(() => expect(count('trainSimulator/get')).toBe(r0 + 1), { timeout: 1000 });
      // The line came from the stream, not from another log page.
      expect(count('train/getTrainLog')).toBe(l0);
      cleanup();
      expect(sources[0]!.closed).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
