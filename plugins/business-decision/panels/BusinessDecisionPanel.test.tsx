import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import type { BusinessDecision } from '@decisio/domain';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { businessDecisionPlugin } from '../index';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';

const business = businessDecisionPlugin.panels.find((p) => p.id === 'business-decision.list')!;
const projectId = 'a'.repeat(32);
const solutionId = 'b'.repeat(32);
const policyId = 'c'.repeat(32);
const datasetId = 'd'.repeat(32);

const run = (over: Partial<BusinessDecision> = {}): BusinessDecision => ({
  id: 'e'.repeat(32),
  projectId,
  solutionId,
  policyId,
  policyName: 'coupon policy',
  datasetId,
  datasetName: 'orders',
  state: 'success',
  progress: 1,
  rowsTotal: 4,
  rowsDone: 4,
  rowsFailed: 1,
  error: null,
  downloadUrl: `/api/businessDecision/download?id=${'e'.repeat(32)}`,
  createdAt: '2026-11-01T10:00:00.000Z',
  endedAt: '2026-11-01T10:00:01.000Z',
  ...over,
});

function host(locale: 'en-US' | 'zh-CN', rows: BusinessDecision[], pathname = '/project/business-decision') {
  const h = createTestHost({ plugins: [trainingsKitPlugin, businessDecisionPlugin], locale, location: { pathname, search: { projectId, solutionId } } });
  h.mockCall('businessDecision/list', { data: { rows, total: rows.length, page: 1, pageSize: 50 } });
  h.mockCall('policy/list', { data: { rows: [{ id: policyId, name: 'coupon policy', state: 'successful' }], total: 1 } });
  h.mockCall('table/list', { data: { rows: [{ tableId: datasetId, name: 'orders' }], total: 1, page: 1, pageSize: 100 } });
  return h;
}

describe('BusinessDecisionPanel', () => {
  afterEach(() => cleanup());

  it('asks for a project first, saying what the page is for, in both languages', async () => {
    for (const [locale, title, description] of [
      ['en-US', 'No project chosen', 'Open a project to decide its business data with a trained policy.'],
      ['zh-CN', '未选择项目', '请先打开一个项目，再用训练好的策略对其业务数据做决策。'],
    ] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, businessDecisionPlugin], locale, location: { pathname: '/project/business-decision', search: {} } });
      await renderPanel(business, { host: h });
      expect(await screen.findByText(title)).toBeTruthy();
      expect(screen.getByText(description)).toBeTruthy();
      cleanup();
    }
  });

  it('shows the empty state in both languages', async () => {
    await renderPanel(business, { host: host('en-US', []) });
    expect(await screen.findByText('No business decision yet')).toBeTruthy();
    cleanup();
    await renderPanel(business, { host: host('zh-CN', []) });
    expect(await screen.findByText('还没有业务决策')).toBeTruthy();
  });

  it('requires a policy and a dataset, then starts the run; a finished run can be downloaded', async () => {
    const h = host('en-US', [run()]);
    h.mockCall('businessDecision/create', { data: run({ state: 'running', progress: 0, downloadUrl: null }) });
    await renderPanel(business, { host: h });
    fireEvent.click(await screen.findByRole('button', { name: 'Decide' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    await waitFor(() => expect(screen.getByRole('option', { name: 'coupon policy' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText(/^Policy/), { target: { value: policyId } });
    await waitFor(() => expect(screen.getAllByRole('option', { name: 'orders' }).length).toBeGreaterThan(0));
    fireEvent.change(screen.getByLabelText(/^Business dataset/), { target: { value: datasetId } });
    fireEvent.click(screen.getByRole('button', { name: 'Decide' }));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'businessDecision/create')?.body).toEqual({ policyId, datasetId }));
    const rows = await screen.findByTestId('business-rows');
    expect(within(rows).getByText('Done')).toBeTruthy();
    expect(within(rows).getByRole('button', { name: 'Download' }).getAttribute('href')).toBe(run().downloadUrl);
    // a measured policy that gains over the data's own decisions: no warning
    expect(screen.queryByTestId('business-policy-behind')).toBeNull();
  });

  it("starts afresh in another project: the previous project's policy and dataset are not sent", async () => {
    const h = host('en-US', []);
    // The other project has a solution with no policy and no dataset of its own.
    const empty = { data: { rows: [], total: 0, page: 1, pageSize: 100 } };
    h.mockCall('policy/list', (body) => ((body as { solutionId?: string }).solutionId === solutionId ? { data: { rows: [{ id: policyId, name: 'coupon policy', state: 'successful' }], total: 1 } } : empty));
    h.mockCall('table/list', (body) => ((body as { projectId?: string }).projectId === projectId ? { data: { rows: [{ tableId: datasetId, name: 'orders' }], total: 1, page: 1, pageSize: 100 } } : empty));
    await renderPanel(business, { host: h });
    await waitFor(() => expect(screen.getByRole('option', { name: 'coupon policy' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText(/^Policy/), { target: { value: policyId } });
    await waitFor(() => expect(screen.getAllByRole('option', { name: 'orders' }).length).toBeGreaterThan(0));
    fireEvent.change(screen.getByLabelText(/^Business dataset/), { target: { value: datasetId } });
    act(() => h.services.get(navigationServiceRef).navigate('/project/business-decision', { search: { projectId: 'f'.repeat(32), solutionId: 'f'.repeat(32) } }));
    await waitFor(() => expect((screen.getByLabelText(/^Policy/) as HTMLSelectElement).value).toBe(''));
    expect((screen.getByLabelText(/^Business dataset/) as HTMLSelectElement).value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Decide' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    expect(h.calls.some((c) => c.url === 'businessDecision/create')).toBe(false);
  });

  it("uses only the project's own solutions: one picked in another project is not used in this one, nor offered while this one's load", async () => {
    const [otherProject, ours, theirs] = ['f'.repeat(32), '1'.repeat(32), '2'.repeat(32)];
    const gate = heldBack();
    const h = createTestHost({ plugins: [trainingsKitPlugin, businessDecisionPlugin], locale: 'en-US', location: { pathname: '/project/business-decision', search: { projectId } } });
    h.mockCall('businessDecision/list', { data: { rows: [], total: 0, page: 1, pageSize: 50 } });
    h.mockCall('table/list', { data: { rows: [], total: 0, page: 1, pageSize: 100 } });
    h.mockCall('policy/list', (body) => ({ data: { rows: [{ id: (body as { solutionId: string }).solutionId.slice(0, 1).repeat(32), name: `policy of ${(body as { solutionId: string }).solutionId.slice(0, 1)}`, state: 'successful' }], total: 1 } }));
    h.mockCall('solution/getSolutionList', async (body) => {
      if ((body as { projectId: string }).projectId === projectId) return { data: [{ solutionId, name: 'first' }, { solutionId: ours, name: 'second' }] };
      await gate.wait;
      return { data: [{ solutionId: theirs, name: 'theirs' }] };
    });
    const policiesAsked = () => h.calls.filter((c) => c.url === 'policy/list').map((c) => (c.body as { solutionId: string }).solutionId);
    await renderPanel(business, { host: h });
    await waitFor(() => expect(screen.getByRole('option', { name: 'second' })).toBeTruthy());
    fireEvent.change(screen.getByLabelText('Solution'), { target: { value: ours } });
    await waitFor(() => expect(policiesAsked()).toContain(ours));

    act(() => h.services.get(navigationServiceRef).navigate('/project/business-decision', { search: { projectId: otherProject } }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'solution/getSolutionList' && (c.body as { projectId: string }).projectId === otherProject)).toBe(true));
    const before = policiesAsked().length;
    expect(screen.queryByRole('option', { name: 'second' })).toBeNull();
    gate.release();
    await waitFor(() => expect((screen.getByLabelText('Solution') as HTMLSelectElement).value).toBe(theirs));
    await waitFor(() => expect(screen.getByRole('option', { name: 'policy of 2' })).toBeTruthy());
    expect(policiesAsked().slice(before)).toEqual([theirs]);
  });

  it("warns when the chosen policy does not beat the data's own decisions in its learned environment, in both languages", async () => {
    for (const [locale, words] of [['en-US', /does not exceed that of the data's own decisions \(-5\.600\)/], ['zh-CN', /未超过数据自身决策的回报（-5\.600）/]] as const) {
      const h = host(locale, []);
      h.mockCall('policy/list', { data: { rows: [{ id: policyId, name: 'coupon policy', state: 'successful', reward: -5.7, config: { behaviourReward: -5.6 } }], total: 1 } });
      const view = await renderPanel(business, { host: h });
      await waitFor(() => expect(screen.getByRole('option', { name: 'coupon policy' })).toBeTruthy());
      expect(screen.queryByTestId('business-policy-behind')).toBeNull();
      fireEvent.change(screen.getByLabelText(/^(Policy|策略)/), { target: { value: policyId } });
      expect((await screen.findByTestId('business-policy-behind')).textContent).toMatch(words);
      view.unmount();
    }
  });
});
