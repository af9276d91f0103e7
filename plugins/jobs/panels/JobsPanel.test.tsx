import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import type { JobReportField, ScheduleItem, ScheduleRunItem } from '@decisio/domain';
import { canReadJobs, jobsPlugin } from '../index';
import { historyPollMs } from './HistorySection';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./JobsPanel', async (orig) => (loaded.push('JobsPanel'), orig()));

const panel = jobsPlugin.panels.find((p) => p.id === 'jobs.list')!;
const admin = { userId: 'u1', username: 'admin_1', nickname: null, tenantId: 't1', roleList: [], isSystemRole: true, isStudent: false, isOperation: false, permissions: ['*'], menus: [] };
const tenantAdmin = { ...admin, isSystemRole: false, permissions: ['jobs:read', 'jobs:write'] };

const sweep: ScheduleItem = {
  id: 'a'.repeat(32),
  tenantId: 't1',
  name: 'Nightly sweep',
  cron: '0 3 * * *',
  timezone: 'UTC',
  kind: 'uploads.sweep',
  params: { olderThanHours: 168 },
  description: '',
  status: 'running',
  hostWide: true,
  nextRunAt: '2026-11-28T03:00:00.000Z',
  lastRunAt: '2026-11-27T03:00:00.000Z',
  createdBy: 'u1',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};
/** A report key as a server job kind declares it. */
const field = (key: string, format: JobReportField['format'], en: string, zh: string): JobReportField => ({ key, format, label: { 'en-US': en, 'zh-CN': zh } });
const sweepFields = [field('stale', 'count', 'Stale uploads', '过期上传'), field('aborted', 'count', 'Aborted', '已中止'), field('freedBytes', 'bytes', 'Space freed', '释放空间')];
const run: ScheduleRunItem = {
  id: 'r1',
  scheduleId: sweep.id,
  scheduleName: sweep.name,
  kind: 'uploads.sweep',
  trigger: 'cron',
  firedAt: '2026-11-27T03:00:00.000Z',
  jobId: 'b'.repeat(32),
  state: 'successful',
  metrics: { aborted: 2, freedBytes: 4096 },
  reportFields: sweepFields,
  error: null,
  startedAt: '2026-11-27T03:00:00.100Z',
  endedAt: '2026-11-27T03:00:00.300Z',
};
const emptyPage = { data: { rows: [], total: 0, page: 1, pageSize: 20 } };

describe('JobsPanel', () => {
  afterEach(() => cleanup());

  it('is not loaded by importing the manifest; the menu entry needs the jobs permission', () => {
    expect(loaded).toEqual([]);
    const base = { signedIn: true, locale: 'en-US' as const, theme: 'light' as const, pathname: '/', search: {} };
    expect(canReadJobs({ ...base, user: { isSystemRole: true, isStudent: false, isOperation: false, roles: [] } })).toBe(true);
    expect(canReadJobs({ ...base, user: { isSystemRole: false, isStudent: false, isOperation: false, roles: ['user'] } })).toBe(false);
  });

  it('shows the empty state in both languages', async () => {
    for (const [locale, title] of [['en-US', 'No scheduled jobs yet'], ['zh-CN', '还没有定时任务']] as const) {
      const host = createTestHost({ plugins: [jobsPlugin], locale, session: { token: 't', userId: 'u1' } });
      host.mockCall('user/getUser', { data: admin });
      host.mockCall('jobs/page', emptyPage);
      host.mockCall('jobs/history', emptyPage);
      await renderPanel(panel, { host });
      expect(await screen.findByText(title)).toBeTruthy();
      cleanup();
    }
  });

  it('creates a job, showing the next run times or the reason the expression is refused', async () => {
    const host = createTestHost({ plugins: [jobsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: admin });
    host.mockCall('jobs/page', emptyPage);
    host.mockCall('jobs/history', emptyPage);
    host.mockCall('jobs/check', (body) =>
      (body as { cron: string }).cron === 'bad' ? { code: 1031, message: 'The cron expression is not valid', errors: { cron: 'Validation error, cannot resolve alias "bad"' } } : { data: { cron: (body as { cron: string }).cron, timezone: 'UTC', next: ['2026-11-28T03:00:00.000Z', '2026-11-29T03:00:00.000Z', '2026-11-30T03:00:00.000Z', '2026-12-01T03:00:00.000Z', '2026-12-02T03:00:00.000Z'] } },
    );
    host.mockCall('jobs/saveOrUpdate', (body) => ({ data: { ...sweep, ...(body as object) } }));
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('jobs-create'));
    fireEvent.change(screen.getByTestId('job-timezone'), { target: { value: 'UTC' } });
    await waitFor(() => expect(within(screen.getByTestId('job-next-runs')).getAllByRole('listitem')).toHaveLength(5));
    fireEvent.change(screen.getByTestId('job-cron'), { target: { value: 'bad' } });
    expect(await within(screen.getByTestId('job-next-runs')).findByText('Validation error, cannot resolve alias "bad"')).toBeTruthy();
    fireEvent.change(screen.getByTestId('job-cron'), { target: { value: '*/5 * * * *' } });
    fireEvent.change(screen.getByTestId('job-name'), { target: { value: 'Sweep' } });
    fireEvent.change(screen.getByTestId('job-kind'), { target: { value: 'logs.retention' } });
    fireEvent.click(screen.getByTestId('job-save'));
    await waitFor(() =>
      expect(host.calls.find((c) => c.url === 'jobs/saveOrUpdate')?.body).toEqual({ name: 'Sweep', kind: 'logs.retention', cron: '*/5 * * * *', timezone: 'UTC', description: '', params: {} }),
    );
    await waitFor(() => expect(host.toasts.map((n) => n.message)).toContain('Scheduled job saved'));
  });

  it('gives the focus back to the New job button once the job is saved, cancelled or closed with Escape (the panel shows the dialog only while open)', async () => {
    const host = createTestHost({ plugins: [jobsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: admin });
    host.mockCall('jobs/page', emptyPage);
    host.mockCall('jobs/history', emptyPage);
    host.mockCall('jobs/check', (body) => ({ data: { cron: (body as { cron: string }).cron, timezone: 'UTC', next: [] } }));
    host.mockCall('jobs/saveOrUpdate', (body) => ({ data: { ...sweep, ...(body as object) } }));
    await renderPanel(panel, { host });
    const opener = await screen.findByTestId('jobs-create');
    const open = async () => {
      // A browser focuses a clicked button (jsdom does not: done here).
      opener.focus();
      fireEvent.click(opener);
      await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('job-name')));
    };
    await open();
    fireEvent.change(screen.getByTestId('job-name'), { target: { value: 'Sweep' } });
    fireEvent.click(screen.getByTestId('job-save'));
    await waitFor(() => expect(screen.queryByTestId('job-form')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('job-form')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    await open();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('job-form')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('refreshes a dataset imported from a data connection: only successful imports are offered, the choice is required', async () => {
    const host = createTestHost({ plugins: [jobsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: admin });
    host.mockCall('jobs/page', emptyPage);
    host.mockCall('jobs/history', emptyPage);
    host.mockCall('jobs/check', (body) => ({ data: { cron: (body as { cron: string }).cron, timezone: 'UTC', next: [] } }));
    const imp = { connectionId: 'c1', connectionName: 'Shop DB', type: 'business', projectId: null, rowsCopied: 2, rowsExpected: 2, errorCode: null, error: null, createdAt: '2026-11-01T10:00:00.000Z', endedAt: '2026-11-01T10:01:00.000Z' };
    host.mockCall('metadata/getImportList', {
      data: {
        rows: [
          { ...imp, tableId: 'i1', name: 'sales', source: { table: 'sales', schema: 'shop' }, state: 'successful', datasetId: 'd'.repeat(32) },
          { ...imp, tableId: 'i2', name: 'broken', source: { sql: 'select 1' }, state: 'failed', datasetId: null },
        ],
        total: 2,
        page: 1,
        pageSize: 100,
      },
    });
    host.mockCall('jobs/saveOrUpdate', (body) => ({ data: { ...sweep, ...(body as object) } }));
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('jobs-create'));
    fireEvent.change(screen.getByTestId('job-name'), { target: { value: 'Refresh' } });
    fireEvent.change(screen.getByTestId('job-timezone'), { target: { value: 'UTC' } });
    fireEvent.change(screen.getByTestId('job-kind'), { target: { value: 'datasets.refresh' } });
    expect(screen.getByText(/replaces its rows/)).toBeTruthy();
    const select = (await screen.findByTestId('job-dataset')) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Choose a dataset…', 'sales (Shop DB: shop.sales)']);
    fireEvent.click(screen.getByTestId('job-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(host.calls.some((c) => c.url === 'jobs/saveOrUpdate')).toBe(false);
    fireEvent.change(select, { target: { value: 'd'.repeat(32) } });
    fireEvent.click(screen.getByTestId('job-save'));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'jobs/saveOrUpdate')?.body).toMatchObject({ name: 'Refresh', kind: 'datasets.refresh', params: { datasetId: 'd'.repeat(32) } }));
  });

  it('says when no dataset was imported from a data connection yet', async () => {
    const host = createTestHost({ plugins: [jobsPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: admin });
    host.mockCall('jobs/page', emptyPage);
    host.mockCall('jobs/history', emptyPage);
    host.mockCall('jobs/check', (body) => ({ data: { cron: (body as { cron: string }).cron, timezone: 'UTC', next: [] } }));
    host.mockCall('metadata/getImportList', { data: { rows: [], total: 0, page: 1, pageSize: 100 } });
    await renderPanel(panel, { host });
    fireEvent.click(await screen.findByTestId('jobs-create'));
    fireEvent.change(screen.getByTestId('job-kind'), { target: { value: 'datasets.refresh' } });
    expect((await screen.findByTestId('job-no-dataset')).textContent).toContain('你还没有从数据连接导入的数据集');
  });

  it("reads a run's report as its kind declares it: label in the page's language, value formatted; a key it did not declare shows raw", async () => {
    const fields = [field('elapsed', 'seconds', 'Time taken', '用时'), field('kept', 'days', 'Kept for', '保留'), field('written', 'bytes', 'Written', '写入'), field('checked', 'count', 'Rows checked', '检查行数'), field('retried', 'flag', 'Retried', '已重试')];
    const metrics = { elapsed: 1234.5, kept: 30, written: 1536 * 1024, checked: 12345, retried: 1, myWidgets: 12345 };
    for (const [locale, text] of [
      ['en-US', 'Time taken: 1,234.5 s, Kept for: 30 days, Written: 1.50 MB, Rows checked: 12,345, Retried: yes, myWidgets: 12345'],
      ['zh-CN', '用时：1,234.5 秒；保留：30 天；写入：1.50 MB；检查行数：12,345；已重试：是；myWidgets: 12345'],
    ] as const) {
      const host = createTestHost({ plugins: [jobsPlugin], locale, session: { token: 't', userId: 'u1' } });
      host.mockCall('user/getUser', { data: admin });
      host.mockCall('jobs/page', { data: { rows: [sweep], total: 1, page: 1, pageSize: 20 } });
      host.mockCall('jobs/history', { data: { rows: [{ ...run, kind: 'backups.compact', metrics, reportFields: fields }], total: 1, page: 1, pageSize: 10 } });
      await renderPanel(panel, { host });
      const history = await screen.findByTestId('job-run');
      expect(within(history).getByText(text)).toBeTruthy();
      cleanup();
    }
  });

  it('lists jobs with their history; runs once, pauses, and hides actions on host-wide kinds from tenant administrators', async () => {
    const host = createTestHost({ plugins: [jobsPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: admin });
    host.mockCall('jobs/page', { data: { rows: [sweep], total: 1, page: 1, pageSize: 20 } });
    host.mockCall('jobs/history', { data: { rows: [run], total: 1, page: 1, pageSize: 10 } });
    host.mockCall('jobs/trigger', { data: { ...run, trigger: 'manual', state: 'waiting' } });
    host.mockCall('jobs/pause', { data: { ...sweep, status: 'paused' } });
    await renderPanel(panel, { host });
    const row = await screen.findByTestId('job-row');
    expect(within(row).getByText('清理过期上传')).toBeTruthy();
    expect(within(row).getByText('运行中')).toBeTruthy();
    const history = await screen.findByTestId('job-run');
    expect(within(history).getByText('成功')).toBeTruthy();
    expect(within(history).getByText('已中止：2；释放空间：4.00 KB')).toBeTruthy();
    fireEvent.click(within(row).getByText('执行一次'));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'jobs/trigger')?.body).toEqual({ id: sweep.id }));
    expect(await screen.findByText('“Nightly sweep”的任务历史')).toBeTruthy();
    fireEvent.click(within(row).getByText('暂停'));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'jobs/pause')?.body).toEqual({ id: sweep.id }));
    cleanup();

    const other = createTestHost({ plugins: [jobsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    other.mockCall('user/getUser', { data: tenantAdmin });
    other.mockCall('jobs/page', { data: { rows: [sweep], total: 1, page: 1, pageSize: 20 } });
    other.mockCall('jobs/history', emptyPage);
    await renderPanel(panel, { host: other });
    const theirs = await screen.findByTestId('job-row');
    expect(within(theirs).getByText('History')).toBeTruthy();
    expect(within(theirs).queryByText('Run once')).toBeNull();
    expect(within(theirs).queryByText('Delete')).toBeNull();
  });
  it("a schedule's history lists none of the other jobs' runs while its own load", async () => {
    const retention: ScheduleItem = { ...sweep, id: 'c'.repeat(32), name: 'Log retention', kind: 'logs.retention', hostWide: false };
    const ownRun: ScheduleRunItem = { ...run, id: 'r2', scheduleId: retention.id, scheduleName: retention.name, kind: 'logs.retention', metrics: { deleted: 3 }, reportFields: [field('deleted', 'count', 'Rows deleted', '删除行数'), field('days', 'days', 'Older than', '早于')] };
    const gate = heldBack();
    const host = createTestHost({ plugins: [jobsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: admin });
    host.mockCall('jobs/page', { data: { rows: [sweep, retention], total: 2, page: 1, pageSize: 20 } });
    host.mockCall('jobs/history', async (body) => {
      if ((body as { id?: string }).id !== retention.id) return { data: { rows: [run], total: 1, page: 1, pageSize: 10 } };
      await gate.wait;
      return { data: { rows: [ownRun], total: 1, page: 1, pageSize: 10 } };
    });
    await renderPanel(panel, { host });
    // Every run first: the sweep's.
    expect(within(await screen.findByTestId('job-run')).getByText('Nightly sweep')).toBeTruthy();
    const row = screen.getAllByTestId('job-row').find((r) => r.textContent?.includes('Log retention'))!;
    fireEvent.click(within(row).getByText('History'));
    expect(await screen.findByText('Job history of "Log retention"')).toBeTruthy();
    await waitFor(() => expect(host.calls.some((c) => c.url === 'jobs/history' && (c.body as { id?: string }).id === retention.id)).toBe(true));
    expect(screen.queryAllByTestId('job-run')).toEqual([]);
    gate.release();
    const own = await screen.findByTestId('job-run');
    expect(within(own).getByText('Rows deleted: 3')).toBeTruthy();
    expect(screen.getAllByTestId('job-run').map((r) => r.textContent)).toEqual([expect.not.stringContaining('Nightly sweep')]);
  });

  it('shows why a dataset refresh run was skipped, in both languages', async () => {
    const reason = `another refresh of dataset ${'d'.repeat(32)} is running (job j9, since 2026-11-27T02:59:00.000Z): this run is skipped`;
    const skippedRun: ScheduleRunItem = { ...run, id: 'r0', kind: 'datasets.refresh', metrics: { skipped: 1 }, reportFields: [field('rowsBefore', 'count', 'Rows before', '刷新前行数'), field('rowsAfter', 'count', 'Rows after', '刷新后行数'), field('skipped', 'flag', 'Skipped', '已跳过')], skippedReason: reason };
    for (const [locale, text] of [['en-US', `Skipped: ${reason}`], ['zh-CN', `已跳过：${reason}`]] as const) {
      const host = createTestHost({ plugins: [jobsPlugin], locale, session: { token: 't', userId: 'u1' } });
      host.mockCall('user/getUser', { data: tenantAdmin });
      host.mockCall('jobs/page', emptyPage);
      host.mockCall('jobs/history', { data: { rows: [skippedRun, run], total: 2, page: 1, pageSize: 10 } });
      await renderPanel(panel, { host });
      const [first, second] = await screen.findAllByTestId('job-run');
      expect(within(first!).getByTestId('job-run-skipped').textContent).toBe(text);
      // The reason says it was skipped: the report does not repeat it (nor show the raw key).
      expect(first!.textContent).not.toMatch(/skipped: 1|Skipped: yes|已跳过：是/);
      // A run that did its work says nothing of the kind.
      expect(within(second!).queryByTestId('job-run-skipped')).toBeNull();
      cleanup();
    }
  });

  it('retrains a service from its calls: a project then one of its services, the loop settings; the history shows the loop report in both languages', async () => {
    const host = createTestHost({ plugins: [jobsPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: tenantAdmin });
    host.mockCall('jobs/page', emptyPage);
    const loopRun: ScheduleRunItem = {
      ...run,
      kind: 'policies.update',
      metrics: { started: 1, skipped: 0 },
      report: {
        id: 'l1',
        serviceId: 's'.repeat(32),
        serviceName: 'coupon',
        state: 'swapped',
        step: 'done',
        datasetId: 'e'.repeat(32),
        calls: 42,
        environmentId: 'v1',
        environmentJobId: 'j1',
        policyBeforeId: 'p1',
        policyAfterId: 'p2',
        policyJobId: 'j2',
        evaluateJobId: 'j3',
        scoreBefore: -1.234567,
        scoreAfter: -0.5,
        minGain: 0,
        swapped: true,
        reason: 'the retrained copy scores better',
        createdAt: '2026-11-27T03:00:00.000Z',
        endedAt: '2026-11-27T03:10:00.000Z',
      },
    };
    host.mockCall('jobs/history', { data: { rows: [loopRun], total: 1, page: 1, pageSize: 10 } });
    host.mockCall('jobs/check', (body) => ({ data: { cron: (body as { cron: string }).cron, timezone: 'UTC', next: [] } }));
    host.mockCall('project/getProjectList', { data: { rows: [{ projectId: 'p'.repeat(32), name: 'Coupons' }, { projectId: 'q'.repeat(32), name: 'Pricing' }], total: 2, page: 1, pageSize: 100 } });
    const gate = heldBack();
    host.mockCall('modeldeploy/queryPage', async (body) => {
      if ((body as { projectId: string }).projectId === 'p'.repeat(32)) return { data: { rows: [{ id: 's'.repeat(32), serviceName: 'coupon', status: 'running' }], total: 1, page: 1, pageSize: 100 } };
      await gate.wait;
      return { data: { rows: [{ id: 't'.repeat(32), serviceName: 'pricing', status: 'running' }], total: 1, page: 1, pageSize: 100 } };
    });
    host.mockCall('jobs/saveOrUpdate', (body) => ({ data: { ...sweep, ...(body as object) } }));
    await renderPanel(panel, { host });
    const loop = await screen.findByTestId('job-run-loop');
    expect(within(loop).getByText('Swapped: the service now serves the retrained copy')).toBeTruthy();
    expect(loop.textContent).toContain('42 calls (dataset eeeeeeee)');
    expect(loop.textContent).toContain('score -1.2346 → -0.5');

    fireEvent.click(await screen.findByTestId('jobs-create'));
    fireEvent.change(screen.getByTestId('job-name'), { target: { value: 'Retrain' } });
    fireEvent.change(screen.getByTestId('job-kind'), { target: { value: 'policies.update' } });
    expect(screen.getByText(/serves the copy only if it scores better/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('job-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(host.calls.some((c) => c.url === 'jobs/saveOrUpdate')).toBe(false);
    fireEvent.change(await screen.findByTestId('job-project'), { target: { value: 'p'.repeat(32) } });
    const service = (await screen.findByTestId('job-service')) as HTMLSelectElement;
    expect([...service.options].map((o) => o.textContent)).toEqual(['Choose a service…', 'coupon (running)']);
    await waitFor(() => expect(host.calls.find((c) => c.url === 'modeldeploy/queryPage')?.body).toMatchObject({ projectId: 'p'.repeat(32) }));
    // Another project: none of the first project's services is offered while its own load.
    fireEvent.change(screen.getByTestId('job-project'), { target: { value: 'q'.repeat(32) } });
    await waitFor(() => expect(host.calls.some((c) => c.url === 'modeldeploy/queryPage' && (c.body as { projectId: string }).projectId === 'q'.repeat(32))).toBe(true));
    expect(screen.queryByTestId('job-service')).toBeNull();
    gate.release();
    await waitFor(() => expect([...(screen.getByTestId('job-service') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Choose a service…', 'pricing (running)']));
    fireEvent.change(screen.getByTestId('job-project'), { target: { value: 'p'.repeat(32) } });
    await waitFor(() => expect([...(screen.getByTestId('job-service') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Choose a service…', 'coupon (running)']));
    fireEvent.change(screen.getByTestId('job-service'), { target: { value: 's'.repeat(32) } });
    fireEvent.click(screen.getByTestId('job-outcome-only'));
    fireEvent.click(screen.getByTestId('job-save'));
    await waitFor(() =>
      expect(host.calls.find((c) => c.url === 'jobs/saveOrUpdate')?.body).toMatchObject({ name: 'Retrain', kind: 'policies.update', params: { serviceId: 's'.repeat(32), windowDays: 30, withOutcomeOnly: false, epochs: 2, minGain: 0 } }),
    );
    cleanup();

    const zh = createTestHost({ plugins: [jobsPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
    zh.mockCall('user/getUser', { data: tenantAdmin });
    zh.mockCall('jobs/page', emptyPage);
    zh.mockCall('jobs/history', { data: { rows: [{ ...loopRun, report: { ...loopRun.report!, state: 'kept', swapped: false } }], total: 1, page: 1, pageSize: 10 } });
    await renderPanel(panel, { host: zh });
    expect(within(await screen.findByTestId('job-run-loop')).getByText('保留：继续使用原策略')).toBeTruthy();
  });
});

describe('historyPollMs', () => {
  const now = Date.parse('2026-11-28T03:00:00.000Z');
  const at = (ms: number) => new Date(now + ms).toISOString();
  it('reads fast while a run is unfinished or the shown job is due, else every 10 s', () => {
    expect(historyPollMs(null, true, now)).toBe(1500);
    expect(historyPollMs(null, false, now)).toBe(10_000);
    // A new job (never fired) due in 3 s, and one that fired a moment ago: its run is on its way.
    expect(historyPollMs({ status: 'waiting', nextRunAt: at(3000) }, false, now)).toBe(1500);
    expect(historyPollMs({ status: 'running', nextRunAt: at(-4000) }, false, now)).toBe(1500);
    // A nightly job, and a paused one, are read every 10 s.
    expect(historyPollMs({ status: 'running', nextRunAt: at(6 * 3600_000) }, false, now)).toBe(10_000);
    expect(historyPollMs({ status: 'paused', nextRunAt: at(3000) }, false, now)).toBe(10_000);
    expect(historyPollMs({ status: 'running', nextRunAt: null }, false, now)).toBe(10_000);
  });
});
