import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { hyperparametersPlugin } from '../index';

const SOLUTION = 'a'.repeat(32);
const SET = 'c'.repeat(32);
const panel = hyperparametersPlugin.panels.find((p) => p.id === 'hyperparameters.sets')!;
const host = (locale: 'en-US' | 'zh-CN', theme: 'light' | 'dark' = 'light') =>
  createTestHost({ plugins: [trainingsKitPlugin, hyperparametersPlugin], locale, theme, session: { token: 't', userId: 'u1' }, location: { pathname: '/hyperparameter', search: { projectId: 'p'.repeat(32), solutionId: SOLUTION } } });
const empty = { data: { rows: [], total: 0 } };
const bodyOf = (h: ReturnType<typeof host>, url: string) => h.calls.filter((c) => c.url === url).at(-1)?.body as Record<string, any> | undefined;
const names = () => screen.getAllByTestId('hyper-row').map((r) => r.querySelector('code')!.textContent);
const change = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('hyperparameters.sets', () => {
  afterEach(() => cleanup());

  it('shows its empty state in both languages, asking the list of the solution', async () => {
    for (const [locale, title] of [['en-US', 'No hyperparameter sets yet'], ['zh-CN', '还没有超参数集']] as const) {
      const h = host(locale);
      h.mockCall('hyperparameter/list', empty);
      await renderPanel(panel, { host: h });
      expect(await screen.findByText(title)).toBeTruthy();
      expect(h.calls.some((c) => c.url === 'hyperparameter/list')).toBe(true);
      cleanup();
    }
  });

  it('generates the form from the algorithm\'s schema and sends the set', async () => {
    const h = host('en-US');
    h.mockCall('hyperparameter/list', empty);
    h.mockCall('hyperparameter/create', { data: { id: SET } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('modelling-new'));
    // BC: its own hyperparameters (the ensemble), not the adversarial ones.
    expect(names()).toEqual(['seed', 'epochs', 'evalEvery', 'batchSize', 'hidden', 'updatesPerStep', 'lr', 'ensemble']);
    expect(screen.getByText('Environment models in the ensemble · a whole number, at least 1, at most 10')).toBeTruthy();
    // (the list's filter is also named "Training type": the dialog's select by its id)
    fireEvent.change(document.getElementById('hyper-type')!, { target: { value: 'policy' } });
    expect(names()).toContain('uncertaintyRelative');
    change('Algorithm', 'sac');
    expect(names()).not.toContain('uncertaintyRelative');
    // A choice is a select of the schema's values; a search mode is a select.
    expect(Array.from((screen.getByLabelText('Default: select') as HTMLSelectElement).options).map((o) => o.value)).toEqual(['', 'venv', 'mean', 'worst']);
    expect((screen.getByLabelText('Search mode: seed') as HTMLSelectElement).disabled).toBe(true);

    change('Name', 'sac defaults');
    change('Default: lr', '0.0003');
    change('Search mode: lr', 'continuous');
    change('Min: lr', '0.0001');
    change('Max: lr', '0.003');
    change('Default: hidden', '64, 64');
    change('Search mode: hidden', 'grid');
    change('Search values: hidden', '32, 32; 128, 128');
    change('Default: select', 'mean');
    change('Default: ensembleRollouts', 'true');
    fireEvent.click(screen.getByTestId('hyper-submit'));
    await waitFor(() => expect(h.toasts.at(-1)?.message).toBe('Saved'));
    expect(bodyOf(h, 'hyperparameter/create')).toEqual({
      name: 'sac defaults',
      description: '',
      trainType: 'policy',
      algorithm: 'sac',
      params: [
        { name: 'hidden', type: 'list', default: [64, 64], searchMode: 'grid', searchValues: [[32, 32], [128, 128]] },
        { name: 'lr', type: 'float', default: 0.0003, searchMode: 'continuous', searchValues: [0.0001, 0.003] },
        { name: 'ensembleRollouts', type: 'bool', default: true, searchMode: 'fixed' },
        { name: 'select', type: 'string', default: 'mean', searchMode: 'fixed' },
      ],
    });
  });

  it('checks the form with the schema (translated, nothing sent), then shows the server\'s errors, in Chinese and the dark theme', async () => {
    const h = host('zh-CN', 'dark');
    h.mockCall('hyperparameter/list', empty);
    h.mockCall('hyperparameter/create', { code: 8011, message: '超参数集名称已存在', errors: { name: '名称已被使用' } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('modelling-new'));
    change('名称', 'bc');
    change('默认值: lr', '0');
    change('默认值: ensemble', '11');
    change('默认值: hidden', '64, x');
    change('搜索方式: batchSize', 'continuous');
    change('最小值: batchSize', '256');
    change('最大值: batchSize', '64');
    fireEvent.click(screen.getByTestId('hyper-submit'));
    expect(await screen.findByText('lr：数值，大于 0')).toBeTruthy();
    expect(screen.getByText('ensemble：整数，不小于 1，不大于 10')).toBeTruthy();
    expect(screen.getByText('hidden：整数列表，不小于 1，不大于 4096，1 到 8 项')).toBeTruthy();
    expect(screen.getByText('batchSize：连续搜索填 [最小值, 最大值]，最小值小于最大值，每个值须为整数，不小于 1')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'hyperparameter/create')).toBe(false);

    change('默认值: lr', '0.001');
    change('默认值: ensemble', '3');
    change('默认值: hidden', '64, 64');
    change('最大值: batchSize', '512');
    fireEvent.click(screen.getByTestId('hyper-submit'));
    expect(await screen.findByText('名称已被使用')).toBeTruthy();
    expect(bodyOf(h, 'hyperparameter/create')?.params).toEqual([
      { name: 'batchSize', type: 'int', searchMode: 'continuous', searchValues: [256, 512] },
      { name: 'hidden', type: 'list', default: [64, 64], searchMode: 'fixed' },
      { name: 'lr', type: 'float', default: 0.001, searchMode: 'fixed' },
      { name: 'ensemble', type: 'int', default: 3, searchMode: 'fixed' },
    ]);
  });

  it('offers raw JSON as an option, checked by the same schema, and back to the form', async () => {
    const h = host('en-US');
    h.mockCall('hyperparameter/list', empty);
    h.mockCall('hyperparameter/create', { data: { id: SET } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('modelling-new'));
    change('Name', 'json set');
    change('Default: epochs', '40');
    fireEvent.click(screen.getByTestId('hyper-json-toggle'));
    const text = screen.getByLabelText('Hyperparameters') as HTMLTextAreaElement;
    expect(JSON.parse(text.value)).toEqual([{ name: 'epochs', type: 'int', default: 40, searchMode: 'fixed' }]);

    fireEvent.change(text, { target: { value: '[{"name": "epochs", "default": 40' } });
    fireEvent.click(screen.getByTestId('hyper-submit'));
    expect((await screen.findByTestId('hyper-json-errors')).textContent).toMatch(/^Not valid JSON: /);
    fireEvent.change(text, { target: { value: '{"epochs": 40}' } });
    fireEvent.click(screen.getByTestId('hyper-submit'));
    expect(await screen.findByText('Write an array of objects, each with a name')).toBeTruthy();
    fireEvent.change(text, { target: { value: '[{"name": "epochs", "default": 40}, {"name": "learningRate", "default": 0.1}, {"name": "lr", "default": -1}]' } });
    fireEvent.click(screen.getByTestId('hyper-submit'));
    const listed = within(await screen.findByTestId('hyper-json-errors'));
    expect(listed.getByText('"learningRate" is not a hyperparameter of this algorithm')).toBeTruthy();
    expect(listed.getByText('lr: a number, above 0')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'hyperparameter/create')).toBe(false);

    // Back to the form: the JSON's values fill the rows.
    fireEvent.change(text, { target: { value: '[{"name": "epochs", "default": 40}, {"name": "lr", "default": 0.01, "searchMode": "grid", "searchValues": [0.01, 0.001]}]' } });
    fireEvent.click(screen.getByTestId('hyper-json-toggle'));
    expect((screen.getByLabelText('Default: lr') as HTMLInputElement).value).toBe('0.01');
    expect((screen.getByLabelText('Search values: lr') as HTMLInputElement).value).toBe('0.01, 0.001');
    fireEvent.click(screen.getByTestId('hyper-json-toggle'));
    fireEvent.click(screen.getByTestId('hyper-submit'));
    await waitFor(() => expect(bodyOf(h, 'hyperparameter/create')).toBeTruthy());
    expect(bodyOf(h, 'hyperparameter/create')?.params).toEqual([
      { name: 'epochs', type: 'int', default: 40, searchMode: 'fixed' },
      { name: 'lr', type: 'float', default: 0.01, searchMode: 'grid', searchValues: [0.01, 0.001] },
    ]);
  });

  it('edits a stored set: its values read into the form, params the algorithm does not take flagged, not dropped silently', async () => {
    const h = host('en-US');
    h.mockCall('hyperparameter/list', {
      data: {
        rows: [{ id: SET, name: 'old set', trainType: 'environment', algorithm: 'bc', params: [{ name: 'lr', default: 0.001, searchMode: 'continuous', searchValues: [0.0001, 0.01] }, { name: 'dropout', default: 0.1 }], createdAt: '2026-11-20T10:00:00.000Z' }],
        total: 1,
      },
    });
    h.mockCall('hyperparameter/edit', { data: { id: SET } });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByText('Detail'));
    expect((screen.getByLabelText('Default: lr') as HTMLInputElement).value).toBe('0.001');
    expect((screen.getByLabelText('Max: lr') as HTMLInputElement).value).toBe('0.01');
    expect(screen.getByText(/Not hyperparameters of this algorithm: dropout/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('hyper-submit'));
    // The check names it; nothing sent until it is removed.
    expect(await screen.findByText('"dropout" is not a hyperparameter of this algorithm')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'hyperparameter/edit')).toBe(false);
    fireEvent.click(screen.getByText('Remove them'));
    fireEvent.click(screen.getByTestId('hyper-submit'));
    await waitFor(() => expect(bodyOf(h, 'hyperparameter/edit')).toBeTruthy());
    expect(bodyOf(h, 'hyperparameter/edit')).toMatchObject({ id: SET, name: 'old set', params: [{ name: 'lr', type: 'float', default: 0.001, searchMode: 'continuous', searchValues: [0.0001, 0.01] }] });
  });

  it('deletes a set after the confirmation, and says why when the server refuses', async () => {
    const h = host('en-US');
    h.mockCall('hyperparameter/list', { data: { rows: [{ id: SET, name: 'old set', trainType: 'policy', algorithm: 'ppo', params: [], createdAt: '2026-11-20T10:00:00.000Z' }], total: 1 } });
    h.mockCall('hyperparameter/delete', { code: 1008, message: 'Invalid parameters' });
    await renderPanel(panel, { host: h });
    const remove = async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
      const dialog = await screen.findByRole('alertdialog');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    };
    await remove();
    await waitFor(() => expect(h.toasts.at(-1)).toMatchObject({ message: 'Failed: Invalid parameters', intent: 'danger' }));
    h.mockCall('hyperparameter/delete', { data: null });
    await remove();
    await waitFor(() => expect(h.toasts.at(-1)).toMatchObject({ message: 'Deleted', intent: 'success' }));
    expect(h.calls.filter((c) => c.url === 'hyperparameter/delete').map((c) => c.body)).toEqual([{ id: SET }, { id: SET }]);
  });
});
