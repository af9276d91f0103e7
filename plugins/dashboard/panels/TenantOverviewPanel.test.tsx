import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { createTestHost, renderPanel, ScriptedEventSource } from '@decisio/sdk-plugin/testing';
import type { OverviewResource } from '@decisio/domain';
import { dashboardPlugin } from '../index';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./TenantOverviewPanel', async (orig) => (loaded.push('TenantOverviewPanel'), orig()));

const panel = dashboardPlugin.panels.find((p) => p.id === 'dashboard.overview')!;
const tenantOnly: OverviewResource = { scope: 'tenant', tenant: { runningJobs: 2, waitingJobs: 1, gpuJobs: 0, storage: { totalBytes: 1024 ** 3, usedBytes: 512 * 1024 ** 2 } }, host: null };
const withHost: OverviewResource = {
  ...tenantOnly,
  scope: 'host',
  host: { workers: 2, cores: 24, memory: 64 * 1024 ** 3, slots: 22, runningJobs: 5, gpus: 1, gpuAdapters: ['NVIDIA H100'] },
};
const overall = { environments: 3, policies: 2, parameterSearches: 1, deductions: 4, running: 2, successful: 6, failed: 1 };
const stats = { trainings: 7, durations: { '1h': 5, '6h': 2, '12h': 0, '24h': 0, over24h: 0 }, scores: { '60': 1, '70': 2, '80': 3, '90': 1, '100': 0 } };
const running = {
  rows: [{ id: 'p1', code: 'PT-AAAA1111', name: 'policy a', kind: 'policy', state: 'processing', progress: 0.4, startTime: '2026-11-27T10:00:00.000Z' }],
  total: 1,
};

function host(locale: 'en-US' | 'zh-CN', resource: OverviewResource | { code: number; message: string }, rows = running) {
  const h = createTestHost({ plugins: [dashboardPlugin], locale, session: { token: 't', userId: 'u1' } });
  h.mockCall('overview/getResource', 'code' in resource ? resource : { data: resource });
  h.mockCall('overview/getOverall', { data: overall });
  h.mockCall('overview/getStatistics', { data: stats });
  h.mockCall('overview/getTrainingList', { data: rows });
  return h;
}

describe('TenantOverviewPanel', () => {
  afterEach(() => cleanup());

  it('is not loaded by importing the manifest, and is a tab of the /dashboard layout', () => {
    expect(loaded).toEqual([]);
    expect(dashboardPlugin.routes[0]!.panels).toEqual(['dashboard.overview', { panel: 'dashboard.welcome', direction: 'within' }, { panel: 'projects.activity', direction: 'right', size: 380 }]);
  });

  it("shows a user the tenant's resources, the training overview and the running trainings, without host figures", async () => {
    const h = host('en-US', tenantOnly);
    await renderPanel(panel, { host: h });
    expect((await screen.findByTestId('overview-running-jobs')).textContent).toContain('2');
    expect(screen.getByTestId('overview-storage').textContent).toBe('512 MB of 1.00 GB used');
    expect(screen.queryByTestId('overview-host')).toBeNull();
    expect(within(screen.getByTestId('overview-overall')).getByText('Environments')).toBeTruthy();
    const row = await screen.findByTestId('overview-running-row');
    expect(within(row).getByText('Running')).toBeTruthy();
    expect(within(row).getByText('Policy')).toBeTruthy();
    expect(h.calls.find((c) => c.url === 'overview/getTrainingList')?.body).toEqual({ limit: 100, running: true });
  });

  it('adds the platform figures for a system administrator, in Chinese', async () => {
    await renderPanel(panel, { host: host('zh-CN', withHost, { rows: [], total: 0 }) });
    const card = await screen.findByTestId('overview-host');
    expect(within(card).getByText('整个平台（系统管理员）')).toBeTruthy();
    expect(screen.getByTestId('overview-cores').textContent).toContain('24');
    expect(within(card).getByText('NVIDIA H100')).toBeTruthy();
    expect(within(card).getByText('5 / 22')).toBeTruthy();
    expect(await screen.findByText('没有运行中的训练')).toBeTruthy();
  });

  it('says when the overview cannot be loaded', async () => {
    await renderPanel(panel, { host: host('en-US', { code: 1002, message: 'boom' }) });
    expect(await screen.findByText('The overview could not be loaded')).toBeTruthy();
  });
});

describe('TenantOverviewPanel live', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    ScriptedEventSource.all = [];
  });

  const job = (n: string) => n.repeat(32);
  const row = (id: string, state: string, progress: number) => ({ id, code: `PT-${id}`, name: `training ${id}`, kind: 'policy', state, progress, startTime: '2026-11-27T10:00:00.000Z', jobId: job(id) });
  const view = (id: string, state: string, progress: number, final = false) => ({ jobId: job(id), id: job(id), kind: 'policy', name: id, state, final, progress, metrics: {}, error: null });
  const count = (h: ReturnType<typeof host>, url: string) => h.calls.filter((c) => c.url === url).length;

  it('follows the running trainings: a state event reads the list again, no 5 s polling while the streams are open', async () => {
    vi.stubGlobal('EventSource', ScriptedEventSource);
    // Fake timers from the start (a poll set before would run on a real timer).
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const h = host('en-US', tenantOnly, { rows: [row('a', 'processing', 0.2), row('b', 'waiting', 0)], total: 2 });
    await renderPanel(panel, { host: h });
    await waitFor(() => expect(ScriptedEventSource.all.map((e) => e.url)).toEqual([`/api/job/events?jobId=${job('a')}`, `/api/job/events?jobId=${job('b')}`]));
    const [a, b] = ScriptedEventSource.all as [ScriptedEventSource, ScriptedEventSource];
    a.emit('open');
    b.emit('open');
    // (the fallback poll set while the streams were connecting runs once more, then 30 s apart)
    await vi.advanceTimersByTimeAsync(6000);
    const [l0, r0, o0] = [count(h, 'overview/getTrainingList'), count(h, 'overview/getResource'), count(h, 'overview/getOverall')];
    // Both streams open: nothing is polled every 5 s.
    await vi.advanceTimersByTimeAsync(20_000);
    expect([count(h, 'overview/getTrainingList'), count(h, 'overview/getResource')]).toEqual([l0, r0]);
    // Progress comes with the events; the same state reads nothing again.
    a.emit('state', view('a', 'processing', 0.7));
    await waitFor(() => expect(within(screen.getAllByTestId('overview-running-row')[0]!).getByLabelText('70%')).toBeTruthy());
    expect(count(h, 'overview/getTrainingList')).toBe(l0);
    // A new state: the list and the job counts are read again; a final one the overview too.
    h.mockCall('overview/getTrainingList', { data: { rows: [row('b', 'waiting', 0)], total: 1 } });
    a.emit('state', view('a', 'successful', 1, true));
    await waitFor(() => expect(screen.getAllByTestId('overview-running-row')).toHaveLength(1));
    expect(count(h, 'overview/getTrainingList')).toBe(l0 + 1);
    expect(count(h, 'overview/getResource')).toBe(r0 + 1);
    expect(count(h, 'overview/getOverall')).toBe(o0 + 1);
    expect(a.closed).toBe(true);
  });

  it('polls the running trainings every 5 s while one is not followed live, and the measurements every 30 s', async () => {
    vi.stubGlobal('EventSource', ScriptedEventSource);
    // Fake timers from the start (a poll set before would run on a real timer).
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const h = host('en-US', tenantOnly, { rows: [row('a', 'processing', 0.2), row('b', 'processing', 0.3), row('c', 'waiting', 0)], total: 3 });
    await renderPanel(panel, { host: h });
    // Two are followed (each is a stream); the third makes the list poll.
    await waitFor(() => expect(ScriptedEventSource.all).toHaveLength(2));
    for (const s of ScriptedEventSource.all) s.emit('open');
    await vi.advanceTimersByTimeAsync(100);
    const [l0, r0] = [count(h, 'overview/getTrainingList'), count(h, 'overview/getResource')];
    await vi.advanceTimersByTimeAsync(11_000);
    expect(count(h, 'overview/getTrainingList')).toBeGreaterThanOrEqual(l0 + 2);
    expect(count(h, 'overview/getResource')).toBe(r0);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(count(h, 'overview/getResource')).toBe(r0 + 1);
  });
});
