import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { MarketModel, MarketModelDetail } from '@decisio/domain';
import { createTestHost, heldBack, pressBusy, withHost } from '@decisio/sdk-plugin/testing';
import { marketPlugin } from '../index';
import { MarketPanel } from './MarketPanel';

const M = 'a'.repeat(32);
const V1 = 'b'.repeat(32);
const V2 = 'c'.repeat(32);
const P = 'd'.repeat(32);
const model = (over: Partial<MarketModel> = {}): MarketModel => ({
  modelId: M,
  name: 'Cold room policy',
  description: 'keeps the room cold',
  kind: 'policy',
  visibility: 'tenant',
  publisherName: 'alice',
  mine: true,
  ownTenant: true,
  latestVersion: 2,
  latestVersionId: V2,
  score: 81.5,
  reward: -0.42,
  algorithm: 'ppo',
  imports: 3,
  createdAt: '2026-11-28T08:00:00.000Z',
  updatedAt: '2026-11-28T09:00:00.000Z',
  ...over,
});
const report = (reward: number | null) => ({
  algorithm: 'ppo',
  score: 81.5,
  reward,
  hyperparameters: { epochs: 2, stopConditions: { system: true } },
  memberScores: [81.5, 79],
  rows: 4000,
  nodes: ['temperature', 'action', 'next_temperature'],
  agent: 'action',
  rewardName: 'Temperature & power',
  trainedAt: '2026-11-28T07:00:00.000Z',
  environment: { name: 'env-1', score: 81.5 },
});
const DETAIL: MarketModelDetail = {
  ...model(),
  graph: null,
  versions: [
    { versionId: V2, version: 2, note: 'more steps', report: report(-0.42), size: 40960, hasOnnx: true, createdAt: '2026-11-28T09:00:00.000Z' },
    { versionId: V1, version: 1, note: null, report: report(null), size: 40000, hasOnnx: true, createdAt: '2026-11-28T08:00:00.000Z' },
  ],
};
const PROJECTS = {
  rows: [
    { projectId: P, name: 'My project', right: 'owner' },
    { projectId: 'e'.repeat(32), name: 'Read only', right: 'view' },
  ],
  total: 2,
  page: 1,
  pageSize: 100,
};

function setup(opts: { locale?: 'en-US' | 'zh-CN'; search?: Record<string, string>; list?: unknown; detail?: unknown } = {}) {
  const host = createTestHost({ plugins: [marketPlugin], locale: opts.locale ?? 'en-US', session: { token: 't', userId: 'u' }, location: { pathname: '/model-market', search: opts.search } });
  host.mockCall('market/list', opts.list ?? { code: 0, data: { rows: [model()], total: 1, page: 1, pageSize: 20 } });
  host.mockCall('market/get', opts.detail ?? { code: 0, data: DETAIL });
  host.mockCall('project/getProjectList', { code: 0, data: PROJECTS });
  host.mockCall('train/getAllTrainList', {
    code: 0,
    data: {
      rows: [
        { id: 'f'.repeat(32), name: 'policy-ok', state: 'successful', solutionId: 'S', reward: -0.5 },
        { id: '1'.repeat(32), name: 'policy-failed', state: 'failure', solutionId: 'S', reward: null },
      ],
      total: 2,
    },
  });
  render(withHost(host, <MarketPanel panelId="market.main" />));
  return host;
}

describe('MarketPanel', () => {
  afterEach(cleanup);

  it('lists the models with the figures the server measured and filters by search, kind and scope', async () => {
    const host = setup();
    const row = await screen.findByTestId(`market-row-${M}`);
    expect(row.textContent).toContain('Cold room policy');
    expect(row.textContent).toContain('81.50');
    expect(row.textContent).toContain('-0.42');
    fireEvent.change(screen.getByLabelText('Search models'), { target: { value: 'cold' } });
    fireEvent.change(screen.getByLabelText('All kinds'), { target: { value: 'policy' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Public' }));
    await waitFor(() => expect(host.calls.filter((c) => c.url === 'market/list').at(-1)!.body).toEqual({ page: 1, pageSize: 20, scope: 'public', keyword: 'cold', kind: 'policy' }));
  });

  it('opens a model: versions with their scores (a dash where none was measured), graph, ONNX download', async () => {
    const host = setup();
    fireEvent.click(await screen.findByText('Cold room policy'));
    await waitFor(() => expect(host.location().search).toEqual({ modelId: M }));
    const detail = await screen.findByTestId('market-detail');
    expect(within(detail).getByTestId('market-graph').textContent).toBe('temperatureactionnext_temperature');
    expect(screen.getByTestId('market-version-2-reward').textContent).toBe('-0.42');
    expect(screen.getByTestId('market-version-1-reward').textContent).toBe('—');
    fireEvent.click(screen.getByTestId('market-report-2'));
    expect(screen.getByTestId('market-report-2-body').textContent).toContain('epochs: 2');
    expect(screen.getByTestId('market-report-2-body').textContent).toContain('81.50 · 79.00');
    host.mockCall('market/getOnnxDownloadUrl', { code: 0, data: { url: `/api/market/download/${V2}`, name: 'Cold_room_policy-v2.onnx', size: 10 } });
    fireEvent.click(screen.getByTestId('market-onnx-2'));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'market/getOnnxDownloadUrl')?.body).toEqual({ versionId: V2 }));
  });

  it("keeps each opened model in the browser's history: Back returns to the previous model, then to the list, not out of the market", async () => {
    const OTHER = 'e'.repeat(32);
    const host = setup({ list: { code: 0, data: { rows: [model(), model({ modelId: OTHER, name: 'Pump policy' })], total: 2, page: 1, pageSize: 20 } } });
    host.mockCall('market/get', (body) => ({ code: 0, data: (body as { modelId: string }).modelId === OTHER ? { ...DETAIL, modelId: OTHER, name: 'Pump policy' } : DETAIL }));
    fireEvent.click(await screen.findByText('Cold room policy'));
    expect(within(await screen.findByTestId('market-detail')).getByRole('heading', { level: 4 }).textContent).toBe('Cold room policy');
    fireEvent.click(screen.getByText('Pump policy'));
    await waitFor(() => expect(within(screen.getByTestId('market-detail')).getByRole('heading', { level: 4 }).textContent).toBe('Pump policy'));
    expect(host.history().map((l) => [l.pathname, l.search.modelId ?? ''])).toEqual([
      ['/model-market', ''],
      ['/model-market', M],
      ['/model-market', OTHER],
    ]);
    // Back: the first model again
    act(() => void host.back());
    expect(host.location().search).toEqual({ modelId: M });
    await waitFor(() => expect(within(screen.getByTestId('market-detail')).getByRole('heading', { level: 4 }).textContent).toBe('Cold room policy'));
    // Back again: the list as it was opened, still the market
    act(() => void host.back());
    expect(host.location()).toEqual({ pathname: '/model-market', search: {} });
    await waitFor(() => expect(screen.queryByTestId('market-detail')).toBeNull());
    expect(screen.getByTestId(`market-row-${M}`)).toBeTruthy();
    // Closing a model is a step of its own too: Back reopens it
    fireEvent.click(screen.getByText('Pump policy'));
    fireEvent.click(within(await screen.findByTestId('market-detail')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('market-detail')).toBeNull());
    act(() => void host.back());
    expect(host.location().search).toEqual({ modelId: OTHER });
  });

  it('leaves no history entry to return to for a model just unpublished whole: Back goes to the list before it', async () => {
    const host = setup();
    fireEvent.click(await screen.findByText('Cold room policy'));
    await screen.findByTestId('market-detail');
    host.mockCall('market/unpublish', { code: 0, data: { modelId: M, removed: true } });
    fireEvent.click(screen.getByTestId('market-unpublish'));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Unpublish' }));
    await waitFor(() => expect(screen.queryByTestId('market-detail')).toBeNull());
    expect(host.history().map((l) => l.search.modelId ?? '')).toEqual(['', '']);
  });

  it('imports a version into a project the user may edit and opens it', async () => {
    const host = setup({ search: { modelId: M } });
    fireEvent.click(await screen.findByTestId('market-import-1'));
    const select = (await screen.findByLabelText(/Into project/)) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2)); // "choose" + the editable project only
    fireEvent.change(select, { target: { value: P } });
    host.mockCall('market/import', { code: 0, data: { projectId: P, solutionId: 'S9', schemeId: 'X', simulatorId: 'E', policyId: 'PO', objectiveId: 'O' } });
    fireEvent.click(screen.getByTestId('market-import-submit'));
    await screen.findByTestId('market-import-done');
    expect(host.calls.find((c) => c.url === 'market/import')!.body).toEqual({ versionId: V1, projectId: P });
    fireEvent.click(screen.getByTestId('market-import-open'));
    expect(host.navigations.at(-1)).toEqual({ pathname: '/workflow/policy', search: { projectId: P, solutionId: 'S9' } });
  });

  it('keeps the keyboard in the import dialog: the focus the busy Import dropped goes to Open once imported, so Escape closes the dialog', async () => {
    const host = setup({ search: { modelId: M } });
    fireEvent.click(await screen.findByTestId('market-import-1'));
    const select = (await screen.findByLabelText(/Into project/)) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    fireEvent.change(select, { target: { value: P } });
    const gate = heldBack();
    host.mockCall('market/import', async () => {
      await gate.wait;
      return { code: 0, data: { projectId: P, solutionId: 'S9', schemeId: 'X', simulatorId: 'E', policyId: 'PO', objectiveId: 'O' } };
    });
    const submit = screen.getByTestId('market-import-submit') as HTMLButtonElement;
    await pressBusy(submit);
    await act(async () => gate.release());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('market-import-open')));
    // Blueprint's dialog hears Escape only from inside it.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('market-import-done')).toBeNull());
  });

  it('publishes a trained policy (only trained ones offered) and shows a refusal in Chinese', async () => {
    const host = setup({ locale: 'zh-CN' });
    fireEvent.click(await screen.findByTestId('market-publish'));
    const project = (await screen.findByLabelText(/^项目/)) as HTMLSelectElement;
    await waitFor(() => expect(project.options.length).toBe(2));
    fireEvent.change(project, { target: { value: P } });
    const record = screen.getByLabelText(/已训练模型/) as HTMLSelectElement;
    await waitFor(() => expect(record.options.length).toBe(2));
    expect(record.options[1]!.textContent).toBe('policy-ok (-0.50)');
    fireEvent.click(screen.getByTestId('market-publish-submit'));
    expect((await screen.findAllByText('必填')).length).toBeGreaterThan(0);
    expect(host.calls.some((c) => c.url === 'market/publish')).toBe(false);
    fireEvent.change(record, { target: { value: 'f'.repeat(32) } });
    fireEvent.change(screen.getByLabelText(/^名称/), { target: { value: 'My policy' } });
    fireEvent.change(screen.getByLabelText('共享范围'), { target: { value: 'public' } });
    host.mockCall('market/publish', { code: 4030, data: null, message: '您无权发布给所有租户' });
    fireEvent.click(screen.getByTestId('market-publish-submit'));
    expect((await screen.findByTestId('market-publish-failure')).textContent).toContain('您无权发布给所有租户');
    expect(host.calls.find((c) => c.url === 'market/publish')!.body).toEqual({ kind: 'policy', recordId: 'f'.repeat(32), name: 'My policy', visibility: 'public' });
  });

  it("offers only the chosen project's trainings of the chosen kind, never the previous choice's while they load", async () => {
    const host = setup();
    const gate = heldBack();
    host.mockCall('train/getAllTrainList', async (body) => {
      if ((body as { kind: string }).kind === 'policy') return { code: 0, data: { rows: [{ id: 'f'.repeat(32), name: 'policy-ok', state: 'successful', solutionId: 'S', reward: -0.5 }], total: 1 } };
      await gate.wait;
      return { code: 0, data: { rows: [{ id: '2'.repeat(32), name: 'env-ok', state: 'successful', solutionId: 'S', score: 80 }], total: 1 } };
    });
    fireEvent.click(await screen.findByTestId('market-publish'));
    const project = (await screen.findByLabelText(/^Project/)) as HTMLSelectElement;
    await waitFor(() => expect(project.options.length).toBe(2));
    fireEvent.change(project, { target: { value: P } });
    const record = () => screen.getByLabelText(/Trained model/) as HTMLSelectElement;
    await waitFor(() => expect([...record().options].map((o) => o.textContent)).toContain('policy-ok (-0.50)'));
    fireEvent.change(screen.getByLabelText('What to publish'), { target: { value: 'environment' } });
    await waitFor(() => expect(host.calls.some((c) => c.url === 'train/getAllTrainList' && (c.body as { kind: string }).kind === 'environment')).toBe(true));
    expect([...record().options].map((o) => o.textContent).filter((x) => x?.startsWith('policy-ok'))).toEqual([]);
    gate.release();
    await waitFor(() => expect([...record().options].map((o) => o.textContent)).toContain('env-ok (80.00)'));
  });

  it("lets the publisher unpublish a version after confirming, and shows others' models without those actions", async () => {
    const host = setup({ search: { modelId: M } });
    fireEvent.click(await screen.findByTestId('market-unpublish-1'));
    host.mockCall('market/unpublish', { code: 0, data: { modelId: M, removed: false } });
    const alert = await screen.findByRole('alertdialog');
    expect(alert.textContent).toContain('Unpublish version 1? Copies already imported stay.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Unpublish' }));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'market/unpublish')?.body).toEqual({ modelId: M, versionId: V1 }));
    cleanup();
    setup({ search: { modelId: M }, detail: { code: 0, data: { ...DETAIL, mine: false } } });
    await screen.findByTestId('market-detail');
    expect(screen.queryByTestId('market-unpublish')).toBeNull();
    expect(screen.queryByTestId('market-new-version')).toBeNull();
    expect(screen.getByTestId('market-import-2')).toBeTruthy();
  });

  it('shows the empty and failed states', async () => {
    setup({ list: { code: 0, data: { rows: [], total: 0, page: 1, pageSize: 20 } }, locale: 'zh-CN' });
    expect(await screen.findByText('没有符合条件的模型')).toBeTruthy();
    cleanup();
    setup({ list: { code: 1, data: null, message: 'boom' } });
    expect(await screen.findByText('The models could not be loaded.')).toBeTruthy();
  });
});
