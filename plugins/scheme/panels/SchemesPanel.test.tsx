import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { schemePlugin } from '../index';
import { TEMPLATE_GRAPH, TEMPLATE_TABLE } from '../model/fixtures';

const SOLUTION = 'a'.repeat(32);
const SCHEME = 'b'.repeat(32);
const panel = schemePlugin.panels.find((p) => p.id === 'scheme.list')!;
const host = (locale: 'en-US' | 'zh-CN', theme: 'light' | 'dark' = 'light') =>
  createTestHost({ plugins: [trainingsKitPlugin, schemePlugin], locale, theme, session: { token: 't', userId: 'u1' }, location: { pathname: '/workflow/scheme', search: { projectId: 'p'.repeat(32), solutionId: SOLUTION } } });
const empty = { data: { rows: [], total: 0 } };
/** A template project: its correlation described with its data, and its decision graph. */
const templateProject = (h: ReturnType<typeof host>) => {
  h.mockCall('solution/getTableCorrelation', { data: { solutionId: SOLUTION, correlation: { primaryTableId: 'd'.repeat(32), trajectoryField: 'room', sequenceField: 'step', datetimeField: 'time' }, table: TEMPLATE_TABLE } });
  h.mockCall('solution/getPattern', { data: { solutionId: SOLUTION, graph: TEMPLATE_GRAPH } });
};
const bodyOf = (h: ReturnType<typeof host>, url: string) => h.calls.filter((c) => c.url === url).at(-1)?.body as Record<string, any> | undefined;

describe('scheme.list', () => {
  afterEach(() => cleanup());

  it('shows its empty state in both languages, asking the list of the solution', async () => {
    for (const [locale, title] of [['en-US', 'No schemes yet'], ['zh-CN', '还没有方案']] as const) {
      const h = host(locale);
      h.mockCall('scheme/list', empty);
      await renderPanel(panel, { host: h });
      expect(await screen.findByText(title)).toBeTruthy();
      expect(h.calls.some((c) => c.url === 'scheme/list')).toBe(true);
      cleanup();
    }
  });

  it('starts a new scheme from a template project\'s data: its fields, its date range, the graph\'s dimensions; sends the choices', async () => {
    const h = host('en-US');
    h.mockCall('scheme/list', empty);
    templateProject(h);
    h.mockCall('scheme/create', { data: { id: SCHEME } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('modelling-new'));
    // The data it starts from, asked with its table.
    expect(await screen.findByText('Cold room history: 4000 rows, 7 fields')).toBeTruthy();
    expect(bodyOf(h, 'solution/getTableCorrelation')).toEqual({ solutionId: SOLUTION, withTable: true });
    expect(screen.getByTestId('scheme-date-range').textContent).toContain('Time field time: from 2026-01-01 00:00 to 2026-01-03 01:45 (UTC)');
    expect((screen.getByLabelText('Range start') as HTMLInputElement).value).toBe('2026-01-01');
    expect((screen.getByLabelText('Range end') as HTMLInputElement).value).toBe('2026-01-03');
    // Every field of the data, with the graph's roles as dimensions.
    expect(screen.getAllByTestId('scheme-field').map((r) => r.querySelector('strong')!.textContent)).toEqual(['room', 'step', 'time', 'obs_temp', 'factor_door_state', 'power_action', 'next_obs_temp']);
    expect((screen.getByLabelText('Dimension: power_action') as HTMLSelectElement).value).toBe('agent');
    expect((screen.getByLabelText('Dimension: obs_temp') as HTMLSelectElement).value).toBe('environment');
    // Types and aggregations are choices, not text.
    const agg = screen.getByLabelText('Aggregation: obs_temp') as HTMLSelectElement;
    expect(Array.from(agg.options).map((o) => o.value)).toEqual(['', 'sum', 'product', 'max', 'min', 'count', 'average', 'and', 'or', 'first', 'last']);
    expect(Array.from((screen.getByLabelText('Type: obs_temp') as HTMLSelectElement).options).map((o) => o.textContent)).toEqual(['As in the data', 'Continuous', 'Discrete']);

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'hourly' } });
    fireEvent.change(screen.getByLabelText('Business period'), { target: { value: 'hour' } });
    fireEvent.change(agg, { target: { value: 'average' } });
    fireEvent.change(screen.getByLabelText('Type: power_action'), { target: { value: 'discrete' } });
    fireEvent.change(screen.getByLabelText('Values (comma-separated numbers): power_action'), { target: { value: '0, 0.5, 1' } });
    fireEvent.change(screen.getByLabelText('Type: obs_temp'), { target: { value: 'continuous' } });
    fireEvent.change(screen.getByLabelText('Min: obs_temp'), { target: { value: '-5' } });
    fireEvent.change(screen.getByLabelText('Max: obs_temp'), { target: { value: '30' } });
    fireEvent.click(screen.getByTestId('scheme-add-derived'));
    fireEvent.change(screen.getByLabelText('New field 1'), { target: { value: 'heat' } });
    fireEvent.change(screen.getByLabelText('First field 1'), { target: { value: 'obs_temp' } });
    fireEvent.change(screen.getByLabelText('Operation 1'), { target: { value: '*' } });
    fireEvent.change(screen.getByLabelText('Second field 1'), { target: { value: 'power_action' } });
    fireEvent.change(screen.getByLabelText('Dimension: New field 1'), { target: { value: 'environment' } });
    fireEvent.change(screen.getByLabelText('Data filter'), { target: { value: 'obs_temp > -10' } });
    fireEvent.click(screen.getByTestId('scheme-submit'));
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe('Saved'));
    expect(bodyOf(h, 'scheme/create')).toEqual({
      solutionId: SOLUTION,
      name: 'hourly',
      description: '',
      period: 'hour',
      startTime: '2026-01-01',
      endTime: '2026-01-03',
      data: {
        dimensions: { agent: ['power_action'], otherAgents: [], environment: ['obs_temp', 'factor_door_state', 'next_obs_temp', 'heat'] },
        types: { obs_temp: { type: 'continuous', min: -5, max: 30 }, power_action: { type: 'discrete', values: [0, 0.5, 1] } },
        aggregation: { obs_temp: 'average', heat: 'obs_temp * power_action' },
        filter: 'obs_temp > -10',
        partialOrder: [],
      },
    });
    // The dialog closed.
    await waitFor(() => expect(screen.queryByTestId('scheme-fields')).toBeNull());
  });

  it('gives the focus back to New scheme when the editor closes, though its data arrived after Blueprint put the focus in the dialog (it is shown only while open)', async () => {
    const h = host('en-US');
    h.mockCall('scheme/list', empty);
    const data = heldBack();
    h.mockCall('solution/getTableCorrelation', async () => (await data.wait, { data: { solutionId: SOLUTION, correlation: { primaryTableId: 'd'.repeat(32), trajectoryField: 'room', sequenceField: 'step', datetimeField: 'time' }, table: TEMPLATE_TABLE } }));
    h.mockCall('solution/getPattern', { data: { solutionId: SOLUTION, graph: TEMPLATE_GRAPH } });
    await renderPanel(panel, { host: h });
    const opener = await screen.findByTestId('modelling-new');
    // A browser focuses a clicked button (jsdom does not: done here).
    opener.focus();
    fireEvent.click(opener);
    // While the data loads, Blueprint brings the focus into the dialog (its focus trap).
    expect(await screen.findByText('Reading the data…')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).not.toBe(opener));
    data.release();
    expect(await screen.findByText('Cold room history: 4000 rows, 7 fields')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('scheme-fields')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('checks the form on the client (nothing sent), then shows the server\'s errors under their fields, in Chinese and the dark theme', async () => {
    const h = host('zh-CN', 'dark');
    h.mockCall('scheme/list', empty);
    templateProject(h);
    h.mockCall('scheme/create', { code: 1008, message: '参数不合法', errors: { filter: '值不合法: obs_temp >' } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('modelling-new'));
    expect((await screen.findByTestId('scheme-date-range')).textContent).toContain('时间字段 time：从 2026-01-01 00:00 到 2026-01-03 01:45（UTC）');
    // A range outside the data says so; the data's range is one click (or key press) away.
    fireEvent.change(screen.getByLabelText('范围开始'), { target: { value: '2026-02-01' } });
    fireEvent.change(screen.getByLabelText('范围结束'), { target: { value: '2026-02-05' } });
    expect(screen.getByText('该范围内没有数据（数据从 2026-01-01 00:00 到 2026-01-03 01:45）')).toBeTruthy();
    fireEvent.click(screen.getByTestId('scheme-use-range'));
    expect((screen.getByLabelText('范围结束') as HTMLInputElement).value).toBe('2026-01-03');
    expect(screen.queryByText(/该范围内没有数据/)).toBeNull();

    fireEvent.change(screen.getByLabelText('类型: obs_temp'), { target: { value: 'continuous' } });
    fireEvent.change(screen.getByLabelText('最小值: obs_temp'), { target: { value: '30' } });
    fireEvent.change(screen.getByLabelText('最大值: obs_temp'), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('scheme-add-derived'));
    fireEvent.change(screen.getByLabelText('新字段 1'), { target: { value: 'room' } });
    fireEvent.click(screen.getByTestId('scheme-submit'));
    expect(await screen.findByText('必填')).toBeTruthy();
    expect(screen.getByText('请填写最小值和最大值两个数字，且最小值小于最大值')).toBeTruthy();
    expect(screen.getByText('请填写新字段名，并选择两个字段和运算')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'scheme/create')).toBe(false);

    fireEvent.change(screen.getByLabelText('名称'), { target: { value: 'q1' } });
    fireEvent.change(screen.getByLabelText('最小值: obs_temp'), { target: { value: '0' } });
    fireEvent.click(screen.getByLabelText('移除 1'));
    fireEvent.change(screen.getByLabelText('数据筛选'), { target: { value: 'obs_temp >' } });
    fireEvent.click(screen.getByTestId('scheme-submit'));
    expect(await screen.findByText('值不合法: obs_temp >')).toBeTruthy();
    expect(bodyOf(h, 'scheme/create')).toMatchObject({ name: 'q1', data: { types: { obs_temp: { type: 'continuous', min: 0, max: 5 } }, filter: 'obs_temp >' } });
    // Still open with what was typed.
    expect((screen.getByLabelText('名称') as HTMLInputElement).value).toBe('q1');
  });

  it('edits a stored scheme with its choices read back, and keeps names the data no longer has', async () => {
    const h = host('en-US');
    const stored = {
      id: SCHEME,
      name: 'daily',
      period: 'day',
      startTime: '2026-01-01T00:00:00.000Z',
      endTime: '2026-01-02T00:00:00.000Z',
      processState: 'completed',
      rows: 1920,
      data: { dimensions: { agent: ['power_action'], environment: ['gone'] }, types: { obs_temp: 'continuous [0, 40]' }, aggregation: { power_action: 'sum' }, filter: '', partialOrder: ['0 <= power_action <= 1'] },
    };
    h.mockCall('scheme/list', { data: { rows: [stored], total: 1 } });
    templateProject(h);
    h.mockCall('scheme/set', { data: { id: SCHEME } });
    await renderPanel(panel, { host: h });
    const row = await screen.findByTestId('scheme-row');
    expect(within(row).getByText('1920')).toBeTruthy();
    fireEvent.click(within(row).getByText('Detail'));
    await screen.findByTestId('scheme-fields');
    expect((screen.getByLabelText('Aggregation: power_action') as HTMLSelectElement).value).toBe('sum');
    expect((screen.getByLabelText('Max: obs_temp') as HTMLInputElement).value).toBe('40');
    const gone = screen.getAllByTestId('scheme-field').find((r) => r.querySelector('strong')!.textContent === 'gone')!;
    expect(within(gone).getByText('not in the data')).toBeTruthy();
    // A stored scheme keeps its dimensions (the graph is not asked).
    expect((screen.getByLabelText('Dimension: obs_temp') as HTMLSelectElement).value).toBe('');
    expect(h.calls.some((c) => c.url === 'solution/getPattern')).toBe(false);
    fireEvent.change(screen.getByLabelText('Dimension: gone'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('scheme-submit'));
    await waitFor(() => expect(bodyOf(h, 'scheme/set')).toBeTruthy());
    expect(bodyOf(h, 'scheme/set')).toMatchObject({
      id: SCHEME,
      name: 'daily',
      startTime: '2026-01-01',
      endTime: '2026-01-02',
      data: { dimensions: { agent: ['power_action'], otherAgents: [], environment: [] }, types: { obs_temp: { type: 'continuous', min: 0, max: 40 } }, aggregation: { power_action: 'sum' }, partialOrder: ['0 <= power_action <= 1'] },
    });
  });

  it('says when the solution has no data yet, when the data cannot be read and when it has no time range', async () => {
    const h = host('en-US');
    h.mockCall('scheme/list', empty);
    h.mockCall('solution/getTableCorrelation', { data: { solutionId: SOLUTION, correlation: null, table: null } });
    h.mockCall('solution/getPattern', { data: { solutionId: SOLUTION, graph: null } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('modelling-new'));
    expect(await screen.findByText('No data yet: choose the primary table on the data access step first')).toBeTruthy();
    cleanup();

    const h2 = host('en-US');
    h2.mockCall('scheme/list', empty);
    h2.mockCall('solution/getTableCorrelation', { code: 5002, message: 'Table not found' });
    h2.mockCall('solution/getPattern', { data: { solutionId: SOLUTION, graph: null } });
    await renderPanel(panel, { host: h2 });
    fireEvent.click(await screen.findByTestId('modelling-new'));
    expect(await screen.findByText('Could not read the data: Table not found')).toBeTruthy();
    cleanup();

    // A time field none of whose values reads as a time, and a table without one.
    for (const [datetimeField, text] of [['time', 'No value of the time field time reads as a time'], [undefined, 'The data names no time field: every row is kept whatever the range']] as const) {
      const h3 = host('en-US');
      h3.mockCall('scheme/list', empty);
      h3.mockCall('solution/getTableCorrelation', { data: { solutionId: SOLUTION, correlation: { primaryTableId: 'd'.repeat(32), trajectoryField: 'room', sequenceField: 'step', datetimeField }, table: { ...TEMPLATE_TABLE, dateRange: null } } });
      h3.mockCall('solution/getPattern', { data: { solutionId: SOLUTION, graph: null } });
      await renderPanel(panel, { host: h3 });
      fireEvent.click(await screen.findByTestId('modelling-new'));
      expect(await screen.findByText(text)).toBeTruthy();
      // Without a range to start from, the dates are the user's to give.
      expect((screen.getByLabelText('Range start') as HTMLInputElement).value).toBe('');
      cleanup();
    }
  });

  it('a view collaborator may look at the schemes, not create, process, delete or save one: disabled with the reason (both languages); an editor may', async () => {
    const stored = { id: SCHEME, name: 'daily', period: 'day', startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-02T00:00:00.000Z', processState: 'completed', rows: 1920, data: { dimensions: { agent: ['power_action'] } } };
    const reasons = { 'en-US': 'You can only view this project: ask its owner for the edit right to change it.', 'zh-CN': '你只能查看此项目：如需修改，请向项目所有者申请编辑权限。' } as const;
    for (const [locale, right] of [['en-US', 'view'], ['zh-CN', 'view'], ['en-US', 'edit']] as const) {
      const h = host(locale);
      h.mockCall('project/getProject', { data: { projectId: 'p'.repeat(32), name: 'P', locked: false, right } });
      h.mockCall('scheme/list', { data: { rows: [stored], total: 1 } });
      templateProject(h);
      await renderPanel(panel, { host: h });
      const row = await screen.findByTestId('scheme-row');
      await waitFor(() => expect(h.calls.some((c) => c.url === 'project/getProject')).toBe(true));
      const changes = () => [screen.getByTestId('modelling-new'), within(row).getByTestId('scheme-process'), within(row).getByText(locale === 'en-US' ? 'Delete' : '删除').closest('button')!] as HTMLButtonElement[];
      if (right === 'view') {
        await waitFor(() => expect(changes().every((b) => b.disabled && b.title === reasons[locale])).toBe(true));
      } else {
        await new Promise((r) => setTimeout(r, 20));
        expect(changes().map((b) => [b.disabled, b.title])).toEqual([[false, ''], [false, ''], [false, '']]);
      }
      // The detail opens for everyone; its Save only for an editor.
      fireEvent.click(within(row).getByText(locale === 'en-US' ? 'Detail' : '详情'));
      const save = (await screen.findByTestId('scheme-submit')) as HTMLButtonElement;
      expect([save.disabled, save.title]).toEqual(right === 'view' ? [true, reasons[locale]] : [false, '']);
      cleanup();
    }
  });
});
