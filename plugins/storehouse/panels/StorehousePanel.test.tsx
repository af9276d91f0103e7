import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Recognition, StorehouseTemplate } from '@decisio/domain';
import { createTestHost, heldBack, withHost } from '@decisio/sdk-plugin/testing';
import { storehousePlugin } from '../index';
import { StorehousePanel } from './StorehousePanel';

const field = (name: string, role: 'trajectory' | 'sequence' | 'datetime' | 'field', extra: Partial<StorehouseTemplate['fields'][number]> = {}) => ({
  name,
  role,
  node: null,
  valueType: 'number' as const,
  min: null,
  max: null,
  distinct: 10,
  decision: false,
  required: true,
  ...extra,
});
const TEMPLATES: StorehouseTemplate[] = [
  {
    templateId: 'electric',
    type: 'electric',
    plugin: 'decisio.template-electric',
    name: { 'zh-CN': '冷库温控', 'en-US': 'Cold room' },
    description: { 'zh-CN': '说明', 'en-US': 'About' },
    colour: 'cyan',
    rows: 4000,
    nodes: ['temperature', 'action'],
    agent: 'action',
    fields: [field('room', 'trajectory'), field('obs_temp', 'field', { node: 'temperature' }), field('power_action', 'field', { node: 'action', decision: true }), field('next_obs_temp', 'field', { required: false })],
  },
];
const TYPES = [
  { type: 'electric', name: { 'zh-CN': '电力', 'en-US': 'Electric power' }, count: 1 },
  { type: 'coupon', name: { 'zh-CN': '零售', 'en-US': 'Retail' }, count: 1 },
];
const s = (total: number) => ({ name: total, type: 1, range: 1, total });
const RECOGNITION: Recognition = {
  recognitionId: 'a'.repeat(32),
  tableId: 'b'.repeat(32),
  tableName: 'my rooms',
  rows: 600,
  columns: ['room_id', 'temperature', 'cooling', 'note'].map((name) => ({ name, type: 'DOUBLE', valueType: name === 'note' ? 'text' : 'number', min: 0, max: 1, distinct: 3 })),
  matches: [
    {
      templateId: 'electric',
      name: { 'zh-CN': '冷库温控', 'en-US': 'Cold room' },
      score: 86.4,
      complete: true,
      missing: [],
      mapping: [
        { field: 'room', role: 'trajectory', required: true, column: 'room_id', score: s(0.9) },
        { field: 'obs_temp', role: 'field', required: true, column: 'temperature', score: s(0.95) },
        { field: 'power_action', role: 'field', required: true, column: 'cooling', score: s(0.7) },
        { field: 'next_obs_temp', role: 'field', required: false, column: null, score: null },
      ],
    },
    { templateId: 'coupon', name: { 'zh-CN': '定价', 'en-US': 'Pricing' }, score: 12.5, complete: false, missing: ['store', 'price'], mapping: [] },
  ],
  projectId: null,
  createdAt: '2026-11-28T00:00:00.000Z',
};
const DATASETS = { rows: [{ tableId: 'b'.repeat(32), name: 'my rooms', amount: 600 }], total: 1, page: 1, pageSize: 100 };

function setup(opts: { locale?: 'en-US' | 'zh-CN'; search?: Record<string, string>; datasets?: unknown } = {}) {
  const host = createTestHost({ plugins: [storehousePlugin], locale: opts.locale ?? 'en-US', session: { token: 't', userId: 'u' }, location: { pathname: '/template-storehouse', search: opts.search } });
  host.mockCall('templateWarehouse/getList', (body) => ({ code: 0, data: (body as { type?: string }).type === 'coupon' ? [] : TEMPLATES }));
  host.mockCall('templateWarehouse/getTemplateTypeList', { code: 0, data: TYPES });
  host.mockCall('table/list', { code: 0, data: opts.datasets ?? DATASETS });
  host.mockCall('templateWarehouse/recognizerUsed', { code: 0, data: RECOGNITION });
  host.mockCall('templateWarehouse/getRecognizerResult', { code: 0, data: RECOGNITION });
  render(withHost(host, <StorehousePanel panelId="storehouse.main" />));
  return host;
}

describe('StorehousePanel', () => {
  afterEach(cleanup);

  it('lists the templates with their fields and filters them by industry', async () => {
    setup();
    const card = await screen.findByTestId('storehouse-template-electric');
    expect(card.textContent).toContain('Cold room');
    expect(card.textContent).toContain('next_obs_temp (optional)');
    expect(await screen.findByRole('tab', { name: 'Retail (1)' })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Retail (1)' }));
    expect(await screen.findByText('No template in this industry')).toBeTruthy();
  });

  it('matches a chosen dataset, shows the scores best first, and keeps the recognition in the address', async () => {
    const host = setup();
    const select = (await screen.findByLabelText('Your dataset')) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    fireEvent.change(select, { target: { value: 'b'.repeat(32) } });
    fireEvent.click(screen.getByTestId('storehouse-recognize'));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'templateWarehouse/recognizerUsed')?.body).toEqual({ tableId: 'b'.repeat(32) }));
    await waitFor(() => expect(host.location().search).toEqual({ recognitionId: 'a'.repeat(32) }));
    expect((await screen.findByTestId('storehouse-score-electric')).textContent).toBe('86.4 / 100');
    expect(screen.getByTestId('storehouse-result-coupon').textContent).toContain('Missing: store, price');
    // The complete match opens with its proposed mapping.
    expect((screen.getByTestId('storehouse-column-obs_temp') as HTMLSelectElement).value).toBe('temperature');
  });

  it('checks the edited mapping on the client, then makes the project and opens its first step', async () => {
    const host = setup({ search: { recognitionId: 'a'.repeat(32) } });
    await screen.findByTestId('storehouse-mapping');
    fireEvent.change(screen.getByTestId('storehouse-column-next_obs_temp'), { target: { value: 'temperature' } });
    fireEvent.click(screen.getByTestId('storehouse-create'));
    expect((await screen.findByTestId('storehouse-issue-obs_temp')).textContent).toBe('This column fills another field too');
    expect(screen.getByTestId('storehouse-create-failure').textContent).toBe('Fix the marked fields first.');
    expect(host.calls.some((c) => c.url === 'templateWarehouse/createProject')).toBe(false);

    fireEvent.change(screen.getByTestId('storehouse-column-next_obs_temp'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Project name'), { target: { value: 'My rooms' } });
    host.mockCall('templateWarehouse/createProject', { code: 0, data: { project: { projectId: 'P1' }, templateId: 'electric', solutionId: 'S1', datasetId: 'D1', objectiveId: 'O1' } });
    fireEvent.click(screen.getByTestId('storehouse-create'));
    await waitFor(() => expect(host.navigations.at(-1)?.pathname).toBe('/workflow/table-correlation'));
    expect(host.navigations.at(-1)?.search).toEqual({ projectId: 'P1', solutionId: 'S1', guide: 'true' });
    expect(host.calls.find((c) => c.url === 'templateWarehouse/createProject')!.body).toEqual({
      recognitionId: 'a'.repeat(32),
      templateId: 'electric',
      name: 'My rooms',
      mapping: [
        { field: 'room', column: 'room_id' },
        { field: 'obs_temp', column: 'temperature' },
        { field: 'power_action', column: 'cooling' },
      ],
    });
  });

  it("shows the server's refusal on the field it names, in Chinese", async () => {
    const host = setup({ locale: 'zh-CN', search: { recognitionId: 'a'.repeat(32) } });
    host.mockCall('templateWarehouse/createProject', { code: 4021, data: null, message: '字段映射与模板不符', errors: { 'mapping.power_action': 'validation.invalid' } });
    fireEvent.click(await screen.findByTestId('storehouse-create'));
    expect((await screen.findByTestId('storehouse-issue-power_action')).textContent).toBe('服务器拒绝了这一列');
    expect(screen.getByTestId('storehouse-create-failure').textContent).toContain('项目创建失败');
    expect(within(screen.getByTestId('storehouse-results')).getByText('所有字段均已找到')).toBeTruthy();
  });

  it("a second recognition shows its own scores, never the first one's while it loads", async () => {
    const host = setup({ search: { recognitionId: 'a'.repeat(32) } });
    expect((await screen.findByTestId('storehouse-score-electric')).textContent).toBe('86.4 / 100');
    const second = { ...RECOGNITION, recognitionId: 'c'.repeat(32), matches: [{ ...RECOGNITION.matches[0]!, score: 50 }] };
    const gate = heldBack();
    host.mockCall('templateWarehouse/recognizerUsed', { code: 0, data: second });
    host.mockCall('templateWarehouse/getRecognizerResult', async (body) => {
      if ((body as { recognitionId: string }).recognitionId === second.recognitionId) await gate.wait;
      return { code: 0, data: (body as { recognitionId: string }).recognitionId === second.recognitionId ? second : RECOGNITION };
    });
    const select = (await screen.findByLabelText('Your dataset')) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    fireEvent.change(select, { target: { value: 'b'.repeat(32) } });
    fireEvent.click(screen.getByTestId('storehouse-recognize'));
    await waitFor(() => expect(host.location().search).toEqual({ recognitionId: 'c'.repeat(32) }));
    await waitFor(() => expect(screen.queryByTestId('storehouse-score-electric')).toBeNull());
    gate.release();
    expect((await screen.findByTestId('storehouse-score-electric')).textContent).toBe('50 / 100');
  });

  it("keeps each recognition in the browser's history: Back returns to the previous one, then to the storehouse before any, not out of it", async () => {
    const host = setup();
    const second = { ...RECOGNITION, recognitionId: 'c'.repeat(32), matches: [{ ...RECOGNITION.matches[0]!, score: 50 }] };
    host.mockCall('templateWarehouse/getRecognizerResult', (body) => ({ code: 0, data: (body as { recognitionId: string }).recognitionId === second.recognitionId ? second : RECOGNITION }));
    const select = (await screen.findByLabelText('Your dataset')) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    fireEvent.change(select, { target: { value: 'b'.repeat(32) } });
    fireEvent.click(screen.getByTestId('storehouse-recognize'));
    expect((await screen.findByTestId('storehouse-score-electric')).textContent).toBe('86.4 / 100');
    host.mockCall('templateWarehouse/recognizerUsed', { code: 0, data: second });
    fireEvent.click(screen.getByTestId('storehouse-recognize'));
    await waitFor(() => expect(screen.getByTestId('storehouse-score-electric').textContent).toBe('50 / 100'));
    expect(host.history().map((l) => [l.pathname, l.search.recognitionId ?? ''])).toEqual([
      ['/template-storehouse', ''],
      ['/template-storehouse', 'a'.repeat(32)],
      ['/template-storehouse', 'c'.repeat(32)],
    ]);
    // Back: the first recognition's scores again
    act(() => void host.back());
    expect(host.location().search).toEqual({ recognitionId: 'a'.repeat(32) });
    await waitFor(() => expect(screen.getByTestId('storehouse-score-electric').textContent).toBe('86.4 / 100'));
    // Back again: the storehouse as it was opened, still the storehouse
    act(() => void host.back());
    expect(host.location()).toEqual({ pathname: '/template-storehouse', search: {} });
    await waitFor(() => expect(screen.queryByTestId('storehouse-results')).toBeNull());
    expect(screen.getByTestId('storehouse-recognize')).toBeTruthy();
  });

  it('says where to upload when the user has no dataset, and shows a failed recognition', async () => {
    setup({ datasets: { rows: [], total: 0, page: 1, pageSize: 100 } });
    expect((await screen.findByTestId('storehouse-no-dataset')).textContent).toContain('upload one under Datasets');
    cleanup();
    const host = setup();
    host.mockCall('templateWarehouse/recognizerUsed', { code: 5002, data: null, message: 'The table does not exist' });
    const select = (await screen.findByLabelText('Your dataset')) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    fireEvent.change(select, { target: { value: 'b'.repeat(32) } });
    fireEvent.click(screen.getByTestId('storehouse-recognize'));
    expect((await screen.findByTestId('storehouse-recognize-failure')).textContent).toBe('The table does not exist');
  });
});
