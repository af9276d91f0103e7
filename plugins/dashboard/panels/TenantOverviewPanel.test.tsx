import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
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
