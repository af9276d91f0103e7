import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import type { AnalysisReport, AnalysisReportView, Page, ReportComparison } from '@decisio/domain';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { reportsPlugin } from '../index';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { validateReportForm } from './ReportPanel';

const panel = reportsPlugin.panels.find((p) => p.id === 'reports.list')!;
const projectId = 'a'.repeat(32);
const solutionId = 'b'.repeat(32);
const decA = 'c'.repeat(32);
const decB = 'd'.repeat(32);

const page = (rows: AnalysisReport[]): Page<AnalysisReport> => ({ rows, total: rows.length, page: 1, pageSize: 20 });
const report: AnalysisReport = {
  id: 'e'.repeat(32),
  projectId,
  solutionId,
  name: 'week 1',
  type: 'coupon',
  status: 'finished',
  remark: '',
  decisionAId: decA,
  decisionBId: decB,
  decisionAName: 'dec-a',
  decisionBName: 'dec-b',
  realRevenue: '1000.5',
  realOrders: '42',
  realCost: '10',
  error: null,
  creatorId: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

/** A finished report's view: decision a's total reward `total` (2 unless given), b's 3. */
const viewOf = (r: AnalysisReport, { total = 2, comparison = null }: { total?: number; comparison?: ReportComparison | null } = {}): AnalysisReportView => ({
  report: r,
  terms: 'coupon',
  real: { revenue: '1000.5', orders: '42', cost: '10' },
  decisions: {
    a: { id: decA, name: 'dec-a', policyId: null, horizon: 4, totalReward: total, meanRewardPerStep: 0.5, behaviourReward: 1, upliftOverBehaviour: 1, score: 2 },
    b: { id: decB, name: 'dec-b', policyId: null, horizon: 4, totalReward: 3, meanRewardPerStep: 0.75, behaviourReward: 1, upliftOverBehaviour: 2, score: 3 },
  },
  difference: { totalReward: 1, meanRewardPerStep: 0.25, behaviourReward: 0, upliftOverBehaviour: 1 },
  comparison,
  analysedAt: '2026-11-01T10:00:01.000Z',
});

function host(locale: 'en-US' | 'zh-CN', rows: AnalysisReport[]) {
  const h = createTestHost({ plugins: [trainingsKitPlugin, reportsPlugin], locale, location: { pathname: '/project/report', search: { projectId, solutionId } } });
  h.mockCall('report/getAnalysisReportList', { data: page(rows) });
  h.mockCall('decision/list', {
    data: {
      rows: [
        { id: decA, name: 'dec-a', state: 'successful' },
        { id: decB, name: 'dec-b', state: 'successful' },
        { id: 'f'.repeat(32), name: 'dec-running', state: 'processing' },
      ],
      total: 3,
    },
  });
  return h;
}

describe('ReportPanel', () => {
  afterEach(() => cleanup());

  it('asks for a project first, saying it is for its analysis reports, in both languages', async () => {
    for (const [locale, title, description] of [
      ['en-US', 'No project chosen', 'Open a project to see its analysis reports.'],
      ['zh-CN', '未选择项目', '请先打开一个项目查看其分析报告。'],
    ] as const) {
      const h = createTestHost({ plugins: [trainingsKitPlugin, reportsPlugin], locale, location: { pathname: '/project/report', search: {} } });
      await renderPanel(panel, { host: h });
      expect(await screen.findByText(title)).toBeTruthy();
      expect(screen.getByText(description)).toBeTruthy();
      expect(h.calls.some((c) => c.url === 'report/getAnalysisReportList')).toBe(false);
      cleanup();
    }
  });

  it('shows the empty state in both languages', async () => {
    await renderPanel(panel, { host: host('en-US', []) });
    expect(await screen.findByText('No analysis reports yet')).toBeTruthy();
    cleanup();
    await renderPanel(panel, { host: host('zh-CN', []) });
    expect(await screen.findByText('还没有分析报告')).toBeTruthy();
  });

  it("another project's list never shows the previous project's reports while its own load", async () => {
    const other = '9'.repeat(32);
    const gate = heldBack();
    const h = host('en-US', [report]);
    h.mockCall('report/getAnalysisReportList', async (body) => {
      if ((body as { projectId: string }).projectId !== other) return { data: page([report]) };
      await gate.wait;
      return { data: page([{ ...report, id: '8'.repeat(32), projectId: other, name: 'theirs' }]) };
    });
    await renderPanel(panel, { host: h });
    expect(await within(await screen.findByTestId('report-rows')).findByText('week 1')).toBeTruthy();
    act(() => h.services.get(navigationServiceRef).navigate('/project/report', { search: { projectId: other } }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'report/getAnalysisReportList' && (c.body as { projectId: string }).projectId === other)).toBe(true));
    expect(screen.queryByText('week 1')).toBeNull();
    gate.release();
    expect(await screen.findByText('theirs')).toBeTruthy();
  });

  it('lists reports with their status', async () => {
    await renderPanel(panel, { host: host('en-US', [report]) });
    const rows = await screen.findByTestId('report-rows');
    expect(within(rows).getByText('week 1')).toBeTruthy();
    expect(within(rows).getByText('Finished')).toBeTruthy();
    expect(within(rows).getByText('dec-a / dec-b')).toBeTruthy();
  });

  it('validates the create dialog before calling the server, then creates', async () => {
    const h = host('en-US', []);
    h.mockCall('report/createAnalysisReport', { data: { ...report, status: 'created' } });
    await renderPanel(panel, { host: h });
    fireEvent.click((await screen.findAllByRole('button', { name: 'New report' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findAllByText('Required')).toHaveLength(6);

    await waitFor(() => expect(within(dialog).getAllByRole('option', { name: 'dec-a' })).toHaveLength(2));
    expect(within(dialog).queryByRole('option', { name: 'dec-running' })).toBeNull();
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'week 1' } });
    fireEvent.change(within(dialog).getByLabelText(/^Decision A/), { target: { value: decA } });
    fireEvent.change(within(dialog).getByLabelText(/^Decision B/), { target: { value: decA } });
    fireEvent.change(within(dialog).getByLabelText(/^Real revenue/), { target: { value: '1234567890123456' } });
    fireEvent.change(within(dialog).getByLabelText(/^Real orders/), { target: { value: '42' } });
    fireEvent.change(within(dialog).getByLabelText(/^Real cost/), { target: { value: '1.234' } });
    expect(within(dialog).getByText('Choose two different decisions')).toBeTruthy();
    expect(within(dialog).getAllByText('A number with up to 15 integer digits and 2 decimals')).toHaveLength(2);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(h.calls.some((c) => c.url === 'report/createAnalysisReport')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText(/^Decision B/), { target: { value: decB } });
    fireEvent.change(within(dialog).getByLabelText(/^Real revenue/), { target: { value: '123456789012345.67' } });
    fireEvent.change(within(dialog).getByLabelText(/^Real cost/), { target: { value: '10' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'report/createAnalysisReport')).toBe(true));
    expect(h.calls.find((c) => c.url === 'report/createAnalysisReport')!.body).toEqual({
      solutionId,
      name: 'week 1',
      type: 'coupon',
      remark: '',
      decisionAId: decA,
      decisionBId: decB,
      realRevenue: '123456789012345.67',
      realOrders: '42',
      realCost: '10',
    });
  });

  it('shows the create dialog messages in Chinese', async () => {
    await renderPanel(panel, { host: host('zh-CN', []) });
    fireEvent.click((await screen.findAllByRole('button', { name: '新建报告' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '创建' }));
    expect(await within(dialog).findAllByText('必填')).toHaveLength(6);
  });

  it("opens another report with its own name and figures only, never the previously viewed one's", async () => {
    const second: AnalysisReport = { ...report, id: 'f'.repeat(32), name: 'the second' };
    const h = host('en-US', [report, second]);
    const gate = heldBack();
    h.mockCall('report/getAnalysisReportView', async (body) => {
      if ((body as { id: string }).id !== second.id) return { data: viewOf(report) };
      await gate.wait;
      return { data: viewOf(second, { total: 7 }) };
    });
    await renderPanel(panel, { host: h });
    fireEvent.click((await screen.findAllByRole('button', { name: 'View' }))[0]!);
    await screen.findByTestId('report-figures');
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' })[0]!);
    fireEvent.click(screen.getAllByRole('button', { name: 'View' })[1]!);
    await waitFor(() => expect(h.calls.some((c) => c.url === 'report/getAnalysisReportView' && (c.body as { id: string }).id === second.id)).toBe(true));
    expect(screen.queryByTestId('report-figures')).toBeNull();
    gate.release();
    const figures = await screen.findByTestId('report-figures');
    expect(within(figures).getByText('Total reward per episode').closest('tr')!.textContent).toContain('7');
  });

  it("closes the report view with Blueprint's animation: the view stays, with its figures, until it has faded", async () => {
    const h = host('en-US', [report]);
    h.mockCall('report/getAnalysisReportView', { data: viewOf(report) });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByRole('button', { name: 'View' }));
    await screen.findByTestId('report-figures');
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' })[0]!);
    // A remount would drop it at once.
    expect(screen.getByTestId('report-figures')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('report-figures')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'View' }));
    expect(await screen.findByTestId('report-figures')).toBeTruthy();
  });

  it('shows the measured figures of a finished report with the scenario terms', async () => {
    const h = host('en-US', [report]);
    const view = viewOf(report);
    h.mockCall('report/getAnalysisReportView', { data: view });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByRole('button', { name: 'View' }));
    const figures = await screen.findByTestId('report-figures');
    const total = within(figures).getByText('Total reward per episode').closest('tr')!;
    expect(within(total).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Total reward per episode', '2', '3', '1']);
    expect(screen.getByText('Coupon cost')).toBeTruthy();
    expect(screen.getByText('1000.5')).toBeTruthy();
    // Decisions run before deductions kept their tallies: said, not invented.
    expect(screen.getByTestId('report-no-comparison').textContent).toContain('run them again');
  });

  const comparison: ReportComparison = {
    sameData: true,
    rewards: { a: { decided: 0.5, behaviour: 0.25, logged: 0.4, changeOverLogged: 0.25 }, b: { decided: 0.75, behaviour: 0.25, logged: 0.4, changeOverLogged: 0.875 } },
    fields: [
      { node: 'decision', field: 'price', a: 10, b: 12, logged: 9.5 },
      { node: 'sales', field: 'units_sold', a: 18, b: 15, logged: 20 },
    ],
    measures: {
      scenario: 'coupon',
      rows: [
        { key: 'revenue', a: 180, b: 180, logged: 190, changeA: -10 / 190, changeB: -10 / 190 },
        { key: 'couponCost', a: 72, b: 30, logged: 90, changeA: -0.2, changeB: -2 / 3 },
        { key: 'redemption', a: 0.9, b: 0.5, logged: 1, changeA: -0.1, changeB: -0.5 },
      ],
    },
    measuresMissing: false,
    realTotals: [
      { total: 'revenue', real: '1000.5', measure: 'revenue', projectedA: 947.84, projectedB: 947.84 },
      { total: 'cost', real: '10', measure: 'couponCost', projectedA: 8, projectedB: 3.33 },
    ],
  };
  const finishedView = (comparison: ReportComparison | null): AnalysisReportView => viewOf(report, { comparison });

  it('compares both decisions with the logged data, shows the coupon measures and the projected real totals, in both languages', async () => {
    for (const [locale, view, logged, couponCost, projected] of [
      ['en-US', 'View', 'Logged data', 'Coupon cost ((full price − price) × units sold)', 'Real totals projected'],
      ['zh-CN', '查看', '记录数据', '优惠券成本（（原价 − 价格）× 销量）', '实际总额推算'],
    ] as const) {
      const h = host(locale, [report]);
      h.mockCall('report/getAnalysisReportView', { data: finishedView(comparison) });
      await renderPanel(panel, { host: h });
      fireEvent.click(await screen.findByRole('button', { name: view }));
      const rewards = await screen.findByTestId('report-compare-rewards');
      expect(within(rewards).getByText(logged)).toBeTruthy();
      const perStep = within(rewards).getAllByRole('row')[1]!;
      const cells = within(perStep).getAllByRole('cell').map((c) => c.textContent);
      expect(cells.slice(1, 4)).toEqual(['0.5', '0.75', '0.4']);
      expect(cells[4]).toMatch(/^\+25(\.0)?\s?%$/);
      expect(cells[5]).toMatch(/^\+87\.5\s?%$/);
      const coupon = within(screen.getByTestId('report-measures')).getByTestId('report-measure-couponCost');
      expect(within(coupon).getAllByRole('cell').map((c) => c.textContent).slice(0, 4)).toEqual([couponCost, '72', '30', '90']);
      expect(within(coupon).getAllByRole('cell')[4]!.textContent).toMatch(/^-20(\.0)?\s?%$|^−20(\.0)?\s?%$/);
      expect(screen.getByText(projected)).toBeTruthy();
      const cost = screen.getByTestId('report-real-cost');
      expect(within(cost).getAllByRole('cell').map((c) => c.textContent).slice(1)).toEqual(['10', '8', '3.33']);
      const fields = screen.getByTestId('report-fields');
      expect(within(fields).getByText('decision · price')).toBeTruthy();
      cleanup();
    }
  });

  it('says when the graph lacks the scenario\'s nodes and when the decisions started from different data', async () => {
    const h = host('en-US', [report]);
    h.mockCall('report/getAnalysisReportView', { data: finishedView({ ...comparison, sameData: false, measures: null, measuresMissing: true, realTotals: [] }) });
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByRole('button', { name: 'View' }));
    expect((await screen.findByTestId('report-measures-missing')).textContent).toContain('Coupon');
    expect(screen.queryByTestId('report-measures')).toBeNull();
    expect(screen.queryByTestId('report-real-projected')).toBeNull();
    expect(screen.getByText(/started from different initial datasets/)).toBeTruthy();
  });

  it('checks the report rules', () => {
    const ok = { name: 'n', type: 'general' as const, remark: '', decisionAId: decA, decisionBId: decB, realRevenue: '0', realOrders: '999999999999999.99', realCost: '1.5' };
    expect(validateReportForm(ok)).toEqual({});
    expect(validateReportForm({ ...ok, realCost: '-1' })).toEqual({ realCost: 'amount' });
    expect(validateReportForm({ ...ok, realOrders: '1000000000000000' })).toEqual({ realOrders: 'amount' });
  });
});
