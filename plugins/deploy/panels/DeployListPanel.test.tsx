import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import type { ModelServiceDetail, ModelServiceItem, Page } from '@decisio/domain';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { deployPlugin } from '../index';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';

const list = deployPlugin.panels.find((p) => p.id === 'deploy.list')!;
const detailPanel = deployPlugin.panels.find((p) => p.id === 'deploy.detail')!;
const projectId = 'a'.repeat(32);
const serviceId = 'c'.repeat(32);

function item(over: Partial<ModelServiceItem> = {}): ModelServiceItem {
  return {
    id: serviceId,
    serviceName: 'coupon-online',
    description: 'coupons',
    projectId,
    solutionId: 'd'.repeat(32),
    policyId: 'e'.repeat(32),
    policyName: 'coupon policy',
    status: 'running',
    failureReason: null,
    accessAddress: `http://127.0.0.1:8080/api/decide/${serviceId}`,
    accessTokenHint: 'wxyz',
    tokenExpiresAt: null,
    tokenExpired: false,
    keepPayloads: true,
    createdBy: 'b'.repeat(32),
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    ...over,
  };
}
const page = (rows: ModelServiceItem[]): Page<ModelServiceItem> => ({ rows, total: rows.length, page: 1, pageSize: 20 });

function host(locale: 'en-US' | 'zh-CN', rows: ModelServiceItem[], search: Record<string, string> = { projectId }) {
  const h = createTestHost({ plugins: [trainingsKitPlugin, deployPlugin], locale, location: { pathname: '/project/deploy', search } });
  h.mockCall('modeldeploy/queryPage', { data: page(rows) });
  return h;
}

describe('DeployListPanel', () => {
  afterEach(() => cleanup());

  it('asks for a project first, in both languages', async () => {
    await renderPanel(list, { host: host('en-US', [], {}) });
    expect(screen.getByText('No project chosen')).toBeTruthy();
    cleanup();
    await renderPanel(list, { host: host('zh-CN', [], {}) });
    expect(screen.getByText('未选择项目')).toBeTruthy();
  });

  it('lists the services with their status and the allowed actions', async () => {
    const h = host('en-US', [item(), item({ id: 'f'.repeat(32), serviceName: 'idle', status: 'waiting' })]);
    await renderPanel(list, { host: h });
    const rows = await screen.findByTestId('deploy-rows');
    const [running, idle] = within(rows).getAllByRole('row');
    expect(within(running!).getByText('Running')).toBeTruthy();
    expect((within(running!).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(running!).getByRole('button', { name: 'Stop' })).toBeTruthy();
    expect(within(idle!).getByText('Waiting to start')).toBeTruthy();
    expect((within(idle!).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(false);
    expect(h.calls.find((c) => c.url === 'modeldeploy/queryPage')?.body).toMatchObject({ projectId, page: 1, pageSize: 20 });
  });

  it('pages through the services', async () => {
    const h = createTestHost({ plugins: [trainingsKitPlugin, deployPlugin], locale: 'en-US', location: { pathname: '/project/deploy', search: { projectId } } });
    h.mockCall('modeldeploy/queryPage', { data: { rows: [item()], total: 45, page: 1, pageSize: 20 } });
    await renderPanel(list, { host: h });
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'modeldeploy/queryPage' && (c.body as { page: number }).page === 2)).toBe(true));
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    // a search goes back to the first page
    fireEvent.change(screen.getByLabelText('Search service names'), { target: { value: ' coupon ' } });
    await waitFor(() => expect(h.calls.some((c) => c.url === 'modeldeploy/queryPage' && (c.body as { keyword?: string; page: number }).keyword === 'coupon' && (c.body as { page: number }).page === 1)).toBe(true));
  });

  it("another project's list starts on its first page and never shows the previous project's services while its own load", async () => {
    const other = '6'.repeat(32);
    const gate = heldBack();
    const h = createTestHost({ plugins: [trainingsKitPlugin, deployPlugin], locale: 'en-US', location: { pathname: '/project/deploy', search: { projectId } } });
    h.mockCall('modeldeploy/queryPage', async (body) => {
      const q = body as { projectId: string; page: number };
      if (q.projectId !== other) return { data: { rows: [item({ serviceName: `ours-${q.page}` })], total: 45, page: q.page, pageSize: 20 } };
      await gate.wait;
      return { data: page([item({ id: other, projectId: other, serviceName: 'theirs' })]) };
    });
    await renderPanel(list, { host: h });
    expect(await screen.findByText('ours-1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('ours-2')).toBeTruthy();

    act(() => h.services.get(navigationServiceRef).navigate('/project/deploy', { search: { projectId: other } }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'modeldeploy/queryPage' && (c.body as { projectId: string }).projectId === other)).toBe(true));
    expect(h.calls.filter((c) => c.url === 'modeldeploy/queryPage').pop()!.body).toMatchObject({ projectId: other, page: 1 });
    expect(screen.queryByText('ours-2')).toBeNull();
    gate.release();
    expect(await screen.findByText('theirs')).toBeTruthy();
  });

  it('shows the empty state in Chinese', async () => {
    await renderPanel(list, { host: host('zh-CN', []) });
    expect(await screen.findByText('还没有模型服务')).toBeTruthy();
  });

  it('deploys a trained policy picked from the solution and shows the token once', async () => {
    const h = host('en-US', [], { projectId });
    h.mockCall('solution/getSolutionList', { data: [{ solutionId: 'd'.repeat(32), name: 'coupons' }] });
    h.mockCall('policy/list', {
      data: {
        rows: [
          { id: 'e'.repeat(32), name: 'coupon policy', state: 'successful', score: 12.5 },
          { id: 'f'.repeat(32), name: 'still training', state: 'processing', score: null },
        ],
        total: 2,
      },
    });
    h.mockCall('modeldeploy/create', { data: { ...item({ status: 'deploying' }), accessToken: 'dk_secret_token' } });
    await renderPanel(list, { host: h });
    fireEvent.click(await screen.findByRole('button', { name: 'Deploy a policy' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Deploy' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    fireEvent.change(screen.getByLabelText(/Service name/), { target: { value: 'coupon-online' } });
    const select = screen.getByLabelText(/^Policy/) as HTMLSelectElement;
    await waitFor(() => expect(within(select).getByText('coupon policy (12.50)')).toBeTruthy());
    expect(within(select).queryByText(/still training/)).toBeNull();
    fireEvent.change(select, { target: { value: 'e'.repeat(32) } });
    fireEvent.click(screen.getByRole('button', { name: 'Deploy' }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'modeldeploy/create')).toBe(true));
    expect(h.calls.find((c) => c.url === 'modeldeploy/create')!.body).toEqual({ serviceName: 'coupon-online', policyId: 'e'.repeat(32), description: '', keepPayloads: true });
    expect(((await screen.findByDisplayValue('dk_secret_token')) as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByText(/shown only this once/)).toBeTruthy();
    expect(screen.getByTestId('deploy-token-validity').textContent).toBe('Never expires');
  });

  it("warns when the chosen policy does not beat the data's own decisions in its learned environment, in both languages", async () => {
    for (const [locale, words] of [['en-US', /does not exceed that of the data's own decisions \(-5\.600\)/], ['zh-CN', /未超过数据自身决策的回报（-5\.600）/]] as const) {
      const h = host(locale, [], { projectId, solutionId: 'd'.repeat(32) });
      h.mockCall('policy/list', {
        data: {
          rows: [
            { id: 'e'.repeat(32), name: 'no gain', state: 'successful', reward: -5.6, config: { behaviourReward: -5.6 } },
            { id: 'f'.repeat(32), name: 'gains', state: 'successful', reward: -4.25, config: { behaviourReward: -5.6 } },
            { id: 'a'.repeat(32), name: 'older', state: 'successful', reward: -7, config: {} },
          ],
          total: 3,
        },
      });
      const view = await renderPanel(list, { host: h });
      fireEvent.click(await screen.findByRole('button', { name: locale === 'en-US' ? 'Deploy a policy' : '部署策略' }));
      const select = (await screen.findByLabelText(/^(Policy|策略)/)) as HTMLSelectElement;
      // the list shows each policy's return in its learned environment
      await waitFor(() => expect(within(select).getByText('gains (-4.250)')).toBeTruthy());
      fireEvent.change(select, { target: { value: 'e'.repeat(32) } });
      expect((await screen.findByTestId('deploy-policy-behind')).textContent).toMatch(words);
      fireEvent.change(select, { target: { value: 'f'.repeat(32) } });
      expect(screen.queryByTestId('deploy-policy-behind')).toBeNull();
      // not measured (a policy trained before the job wrote it): no warning
      fireEvent.change(select, { target: { value: 'a'.repeat(32) } });
      expect(screen.queryByTestId('deploy-policy-behind')).toBeNull();
      view.unmount();
    }
  });

  it('gives the token a validity: a day must be chosen and lie ahead, 30 days is sent as a time', async () => {
    const h = host('en-US', [], { projectId, solutionId: 'd'.repeat(32), policyId: 'e'.repeat(32) });
    h.mockCall('policy/list', { data: { rows: [{ id: 'e'.repeat(32), name: 'coupon policy', state: 'successful', score: null }], total: 1 } });
    const in30 = new Date(Date.now() + 30 * 86_400_000).toISOString();
    h.mockCall('modeldeploy/create', { data: { ...item({ status: 'deploying', tokenExpiresAt: in30 }), accessToken: 'dk_secret_token' } });
    await renderPanel(list, { host: h });
    fireEvent.click(await screen.findByRole('button', { name: 'Deploy a policy' }));
    fireEvent.change(await screen.findByLabelText(/Service name/), { target: { value: 'coupon-online' } });
    const validity = screen.getByLabelText('Validity') as HTMLSelectElement;
    expect(within(validity).getAllByRole('option').map((o) => o.textContent)).toEqual(['Never expires', '30 days', '90 days', '1 year', 'Until a date']);
    fireEvent.change(validity, { target: { value: 'date' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deploy' }));
    expect(await screen.findByText('Choose an expiry date in the future, at most 10 years ahead')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Last valid day'), { target: { value: '2001-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deploy' }));
    expect(await screen.findByText('Choose an expiry date in the future, at most 10 years ahead')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'modeldeploy/create')).toBe(false);

    fireEvent.change(validity, { target: { value: 'days30' } });
    const before = Date.now();
    fireEvent.click(screen.getByRole('button', { name: 'Deploy' }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'modeldeploy/create')).toBe(true));
    const body = h.calls.find((c) => c.url === 'modeldeploy/create')!.body as { tokenExpiresAt: string };
    const sent = Date.parse(body.tokenExpiresAt) - before;
    expect(sent).toBeGreaterThanOrEqual(30 * 86_400_000 - 1000);
    expect(sent).toBeLessThanOrEqual(30 * 86_400_000 + 5000);
    expect((await screen.findByTestId('deploy-token-validity')).textContent).toMatch(/^Valid until /);
  });

  it('marks a service whose token has expired, in Chinese', async () => {
    await renderPanel(list, { host: host('zh-CN', [item({ tokenExpiresAt: '2026-11-01T10:00:00.000Z', tokenExpired: true })]) });
    const rows = await screen.findByTestId('deploy-rows');
    expect(within(rows).getByText('已过期')).toBeTruthy();
  });
});

describe('DeployDetailPanel', () => {
  afterEach(() => cleanup());

  it('shows the address, the fields with a call example, and the records', async () => {
    const detail: ModelServiceDetail = {
      ...item(),
      inputs: [
        { name: 'price', node: 'state', dataType: 'continuous', min: 0, max: 100, frames: 1 },
        { name: 'season', node: 'state', dataType: 'category', min: 1, max: 4, values: [1, 2, 3, 4], frames: 1 },
      ],
      outputs: [{ name: 'discount', node: 'action', dataType: 'continuous', min: 0, max: 0.5, frames: 1 }],
      totals: { calls: 3, failures: 1 },
    };
    const h = createTestHost({ plugins: [trainingsKitPlugin, deployPlugin], locale: 'en-US', location: { pathname: '/project/deploy-detail', search: { projectId, serviceId } } });
    h.mockCall('modeldeploy/queryDetail', { data: detail });
    h.mockCall('modeldeploy/queryMonitor', { data: { unit: 'day', buckets: [{ start: '2026-11-01T10:00:00.000Z', calls: 0, failures: 0, avgMs: null, maxMs: null }] } });
    h.mockCall('modeldeploy/queryBatchDecisionPage', {
      data: {
        rows: [
          {
            batchId: '2'.repeat(32),
            serviceId,
            fileId: '3'.repeat(32),
            fileName: 'orders.csv',
            delimiter: ';',
            state: 'success',
            progress: 1,
            rows: 3,
            failedRows: 1,
            resultSize: 120,
            downloadUrl: `/api/modeldeploy/downloadBatchDecision?batchId=${'2'.repeat(32)}`,
            error: null,
            createdAt: '2026-11-01T10:00:00.000Z',
            endedAt: '2026-11-01T10:00:01.000Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 10,
      },
    });
    h.mockCall('modeldeploy/queryModelServiceRecordsPage', {
      data: {
        rows: [
          {
            decisionId: '1'.repeat(32),
            startTime: '2026-11-01T10:00:00.000Z',
            endTime: '2026-11-01T10:00:00.002Z',
            durationMs: 1.5,
            requestIp: '127.0.0.1',
            result: 'success',
            rows: 1,
            errorCode: null,
            inputs: { price: 42.5, season: 3, stock: 120 },
            decisions: { discount: 0.25, level: 4 },
            outcome: { revenue: 17.25 },
            outcomeTime: '2026-11-01T11:00:00.000Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 20,
      },
    });
    await renderPanel(detailPanel, { host: h });
    expect((await screen.findByTestId('deploy-address')).textContent).toBe(detail.accessAddress);
    expect(screen.getByTestId('deploy-example').textContent).toContain(`"price":50,"season":1`);
    expect(await screen.findByText('No calls in this period')).toBeTruthy();
    const records = await screen.findByTestId('deploy-records');
    expect(within(records).getByText('127.0.0.1')).toBeTruthy();
    expect(within(records).getByText('Success')).toBeTruthy();
    const batches = await screen.findByTestId('deploy-batches');
    expect(within(batches).getByText('orders.csv')).toBeTruthy();
    expect(within(batches).getByText('3 (1)')).toBeTruthy();
    expect(within(batches).getByRole('button', { name: /Download result/ }).getAttribute('href')).toContain('downloadBatchDecision');

    // kept payloads: the outcome call example, a call's inputs, decisions and outcome, and a dataset made of the calls
    expect(screen.getByTestId('deploy-outcome-example').textContent).toContain(`${detail.accessAddress}/outcome`);
    fireEvent.click(within(records).getByRole('button', { name: 'Show inputs, decisions and outcome' }));
    const payload = await screen.findByTestId('record-payload');
    expect(payload.textContent).toContain('"stock": 120');
    expect(payload.textContent).toContain('"revenue": 17.25');
    h.mockCall('modeldeploy/createDatasetFromRecords', { data: { tableId: '9'.repeat(32) } });
    fireEvent.click(screen.getByRole('button', { name: 'Create dataset from calls' }));
    const submit = await screen.findByRole('button', { name: 'Create dataset' });
    fireEvent.click(submit);
    expect(await screen.findByText('Required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Dataset name/), { target: { value: 'coupon calls' } });
    fireEvent.click(screen.getByLabelText('Only calls with a reported outcome'));
    fireEvent.click(submit);
    await waitFor(() => expect(h.calls.find((c) => c.url === 'modeldeploy/createDatasetFromRecords')?.body).toEqual({ id: serviceId, name: 'coupon calls', withOutcomeOnly: true }));
    expect(await screen.findByRole('button', { name: 'Open dataset management' })).toBeTruthy();
    expect(screen.getByText('Token valid until').nextElementSibling!.textContent).toBe('Never expires');
  });

  const expiredHost = (locale: 'en-US' | 'zh-CN') => {
    const h = createTestHost({ plugins: [trainingsKitPlugin, deployPlugin], locale, location: { pathname: '/project/deploy-detail', search: { projectId, serviceId } } });
    const detail: ModelServiceDetail = { ...item({ tokenExpiresAt: '2026-11-01T10:00:00.000Z', tokenExpired: true }), inputs: null, outputs: null, totals: { calls: 0, failures: 0 } };
    h.mockCall('modeldeploy/queryDetail', { data: detail });
    h.mockCall('modeldeploy/queryMonitor', { data: { unit: 'day', buckets: [] } });
    h.mockCall('modeldeploy/queryBatchDecisionPage', { data: { rows: [], total: 0, page: 1, pageSize: 10 } });
    h.mockCall('modeldeploy/queryModelServiceRecordsPage', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
    return h;
  };

  it('shows an expired token with the hint to rotate, and rotates it with a new validity', async () => {
    const h = expiredHost('en-US');
    await renderPanel(detailPanel, { host: h });
    const expiry = await screen.findByTestId('deploy-token-expiry');
    expect(within(expiry).getByText('Expired')).toBeTruthy();
    expect(expiry.textContent).toContain('rotate it for a new one');
    expect(expiry.textContent).toContain(new Date('2026-11-01T10:00:00.000Z').toLocaleString('en-US'));

    const in90 = new Date(Date.now() + 90 * 86_400_000).toISOString();
    h.mockCall('modeldeploy/rotateToken', { data: { ...item({ tokenExpiresAt: in90 }), accessToken: 'dk_new_token' } });
    fireEvent.click(screen.getByTestId('deploy-rotate'));
    const validity = (await screen.findByLabelText('Validity')) as HTMLSelectElement;
    fireEvent.change(validity, { target: { value: 'date' } });
    const confirm = () => screen.getAllByRole('button', { name: 'Rotate token' }).find((b) => b !== screen.getByTestId('deploy-rotate'))!;
    fireEvent.click(confirm());
    expect(await screen.findByText('Choose an expiry date in the future, at most 10 years ahead')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'modeldeploy/rotateToken')).toBe(false);
    fireEvent.change(validity, { target: { value: 'days90' } });
    fireEvent.click(confirm());
    await waitFor(() => expect(h.calls.some((c) => c.url === 'modeldeploy/rotateToken')).toBe(true));
    const body = h.calls.find((c) => c.url === 'modeldeploy/rotateToken')!.body as { id: string; tokenExpiresAt: string };
    expect(body.id).toBe(serviceId);
    expect(Math.abs(Date.parse(body.tokenExpiresAt) - (Date.now() + 90 * 86_400_000))).toBeLessThan(10_000);
    expect(await screen.findByDisplayValue('dk_new_token')).toBeTruthy();
    expect(screen.getByTestId('deploy-token-validity').textContent).toMatch(/^Valid until /);
  });

  it('shows an expired token in Chinese', async () => {
    await renderPanel(detailPanel, { host: expiredHost('zh-CN') });
    const expiry = await screen.findByTestId('deploy-token-expiry');
    expect(within(expiry).getByText('已过期')).toBeTruthy();
    expect(expiry.textContent).toContain('请重新生成令牌');
    expect(screen.getByText('令牌有效期至')).toBeTruthy();
  });
  it('lists the policy updates from the service\'s calls in both languages (outcome, calls, both scores, why)', async () => {
    for (const [locale, title, swapped, kept] of [
      ['en-US', 'Policy updates from calls', 'Swapped', 'Kept'],
      ['zh-CN', '根据调用记录更新策略', '已切换', '保留'],
    ] as const) {
      const detail: ModelServiceDetail = { ...item(), inputs: [], outputs: [], totals: { calls: 3, failures: 0 } };
      const h = createTestHost({ plugins: [trainingsKitPlugin, deployPlugin], locale, location: { pathname: '/project/deploy-detail', search: { projectId, serviceId } } });
      h.mockCall('modeldeploy/queryDetail', { data: detail });
      h.mockCall('modeldeploy/queryMonitor', { data: { unit: 'day', buckets: [] } });
      h.mockCall('modeldeploy/queryBatchDecisionPage', { data: { rows: [], total: 0, page: 1, pageSize: 10 } });
      h.mockCall('modeldeploy/queryModelServiceRecordsPage', { data: { rows: [], total: 0, page: 1, pageSize: 10 } });
      const base = { serviceId, serviceName: 'svc', step: 'done' as const, datasetId: 'd'.repeat(32), environmentId: null, environmentJobId: null, policyBeforeId: null, policyAfterId: null, policyJobId: null, evaluateJobId: null, minGain: 0, createdAt: '2026-11-27T03:00:00.000Z', endedAt: '2026-11-27T03:05:00.000Z' };
      h.mockCall('modeldeploy/queryPolicyUpdates', {
        data: {
          rows: [
            { ...base, id: 'u2', state: 'kept', calls: 40, scoreBefore: -0.25, scoreAfter: -0.75, swapped: false, reason: 'the serving policy stays' },
            { ...base, id: 'u1', state: 'swapped', calls: 12, scoreBefore: -1.234567, scoreAfter: -0.5, swapped: true, reason: 'the service now serves it' },
          ],
          total: 2,
          page: 1,
          pageSize: 5,
        },
      });
      await renderPanel(detailPanel, { host: h });
      const section = await screen.findByTestId('deploy-policy-updates');
      expect(within(section).getByText(title)).toBeTruthy();
      const rows = await within(section).findAllByTestId('deploy-policy-update');
      expect(rows).toHaveLength(2);
      expect(within(rows[0]!).getByText(kept)).toBeTruthy();
      expect(rows[0]!.textContent).toContain('40');
      expect(within(rows[1]!).getByText(swapped)).toBeTruthy();
      expect(rows[1]!.textContent).toContain('-1.2346');
      expect(rows[1]!.textContent).toContain('the service now serves it');
      expect(h.calls.find((c) => c.url === 'modeldeploy/queryPolicyUpdates')?.body).toMatchObject({ id: serviceId, page: 1 });
      cleanup();
    }
  });
  it("records ticked on one service are not deleted from another shown next (each service's records start afresh)", async () => {
    const other = '7'.repeat(32);
    const detailOf = (id: string): ModelServiceDetail => ({ ...item({ id, serviceName: id === other ? 'theirs' : 'ours', accessAddress: `http://127.0.0.1:8080/api/decide/${id}` }), inputs: [], outputs: [], totals: { calls: 1, failures: 0 } });
    const record = (ip: string) => ({ decisionId: ip.replace(/\D/g, '').padEnd(32, '0'), startTime: '2026-11-01T10:00:00.000Z', endTime: '2026-11-01T10:00:00.002Z', durationMs: 1.5, requestIp: ip, result: 'success', rows: 1, errorCode: null, inputs: {}, decisions: {}, outcome: null, outcomeTime: null });
    const h = createTestHost({ plugins: [trainingsKitPlugin, deployPlugin], locale: 'en-US', location: { pathname: '/project/deploy-detail', search: { projectId, serviceId } } });
    h.mockCall('modeldeploy/queryDetail', (body) => ({ data: detailOf((body as { id: string }).id) }));
    h.mockCall('modeldeploy/queryMonitor', { data: { unit: 'day', buckets: [] } });
    h.mockCall('modeldeploy/queryBatchDecisionPage', { data: { rows: [], total: 0, page: 1, pageSize: 10 } });
    h.mockCall('modeldeploy/queryPolicyUpdates', { data: { rows: [], total: 0, page: 1, pageSize: 10 } });
    h.mockCall('modeldeploy/queryModelServiceRecordsPage', (body) => ({ data: { rows: [record((body as { id: string }).id === other ? '10.0.0.2' : '10.0.0.1')], total: 1, page: 1, pageSize: 20 } }));
    const go = (id: string) => act(() => h.services.get(navigationServiceRef).navigate('/project/deploy-detail', { search: { projectId, serviceId: id } }));
    const section = () => screen.getByTestId('deploy-records-section');
    const deleteButton = () => within(section()).getByRole('button', { name: 'Delete selected' }) as HTMLButtonElement;
    await renderPanel(detailPanel, { host: h });
    expect(await within(await screen.findByTestId('deploy-records-section')).findByText('10.0.0.1')).toBeTruthy();
    go(other);
    await waitFor(() => expect(within(section()).getByText('10.0.0.2')).toBeTruthy());
    fireEvent.click(within(section()).getByRole('checkbox', { name: 'Select record' }));
    expect(deleteButton().disabled).toBe(false);
    // back to the first service: its detail is known, so the panel shows it at once
    go(serviceId);
    await waitFor(() => expect(within(section()).getByText('10.0.0.1')).toBeTruthy());
    expect(screen.getByTestId('deploy-address').textContent).toContain(serviceId);
    expect(deleteButton().disabled).toBe(true);
  });
});
