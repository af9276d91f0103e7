import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { ModelServiceDetail, ModelServiceItem } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { deployPlugin } from '../index';

const list = deployPlugin.panels.find((p) => p.id === 'deploy.list')!;
const detailPanel = deployPlugin.panels.find((p) => p.id === 'deploy.detail')!;
const projectId = 'a'.repeat(32);
const serviceId = 'c'.repeat(32);
const REASON = { 'en-US': 'You can only view this project: ask its owner for the edit right to change it.', 'zh-CN': '你只能查看此项目：如需修改，请向项目所有者申请编辑权限。' } as const;

const item = (over: Partial<ModelServiceItem> = {}): ModelServiceItem => ({
  id: serviceId, serviceName: 'coupon-online', description: '', projectId, solutionId: 'd'.repeat(32), policyId: 'e'.repeat(32), policyName: 'p', status: 'running', failureReason: null,
  accessAddress: `http://127.0.0.1:8080/api/decide/${serviceId}`, accessTokenHint: 'wxyz', tokenExpiresAt: null, tokenExpired: false, keepPayloads: true, createdBy: 'b'.repeat(32),
  createdAt: '2026-11-01T10:00:00.000Z', updatedAt: '2026-11-01T10:00:00.000Z', ...over,
});

function host(locale: 'en-US' | 'zh-CN', right: 'view' | 'edit', pathname: string) {
  const h = createTestHost({ plugins: [trainingsKitPlugin, deployPlugin], locale, location: { pathname, search: { projectId, serviceId } } });
  h.mockCall('project/getProject', { data: { projectId, name: 'P', locked: false, right } });
  return h;
}
const settled = (h: ReturnType<typeof host>) => waitFor(() => expect(h.calls.some((c) => c.url === 'project/getProject')).toBe(true)).then(() => new Promise((r) => setTimeout(r, 20)));
const state = (b: HTMLElement) => [(b as HTMLButtonElement).disabled, b.getAttribute('title')];

describe('deploy and the project right', () => {
  afterEach(() => cleanup());

  it('the list: a view collaborator gets Deploy a policy, Start, Stop and Delete disabled with the reason (both languages); an editor gets them', async () => {
    for (const [locale, right] of [['en-US', 'view'], ['zh-CN', 'view'], ['en-US', 'edit']] as const) {
      const h = host(locale, right, '/project/deploy');
      h.mockCall('modeldeploy/queryPage', { data: { rows: [item(), item({ id: 'f'.repeat(32), serviceName: 'idle', status: 'waiting' })], total: 2, page: 1, pageSize: 20 } });
      await renderPanel(list, { host: h });
      const rows = within(await screen.findByTestId('deploy-rows')).getAllByRole('row');
      await settled(h);
      const en = locale === 'en-US';
      const create = screen.getByTestId('deploy-create');
      const stop = within(rows[0]!).getByRole('button', { name: en ? 'Stop' : '停止' });
      const start = within(rows[1]!).getByRole('button', { name: en ? 'Start' : '启动' });
      const remove = within(rows[1]!).getByRole('button', { name: en ? 'Delete' : '删除' });
      const expected = right === 'view' ? [true, REASON[locale]] : [false, null];
      await waitFor(() => expect([create, stop, start, remove].map(state)).toEqual([expected, expected, expected, expected]));
      cleanup();
    }
  });

  it("a service's page: a view collaborator may look, not start it, renew its token, change what it keeps, make a dataset, delete calls or start a batch; an editor may", async () => {
    for (const right of ['view', 'edit'] as const) {
      const h = host('en-US', right, '/project/deploy-detail');
      const detail: ModelServiceDetail = { ...item({ status: 'waiting' }), inputs: null, outputs: null, totals: { calls: 0, failures: 0 } };
      h.mockCall('modeldeploy/queryDetail', { data: detail });
      h.mockCall('modeldeploy/queryMonitor', { data: { unit: 'day', buckets: [] } });
      h.mockCall('modeldeploy/queryBatchDecisionPage', { data: { rows: [], total: 0, page: 1, pageSize: 10 } });
      h.mockCall('modeldeploy/queryModelServiceRecordsPage', { data: { rows: [], total: 0, page: 1, pageSize: 20 } });
      await renderPanel(detailPanel, { host: h });
      await screen.findByTestId('deploy-address');
      await settled(h);
      const buttons = [screen.getByRole('button', { name: 'Start' }), screen.getByTestId('deploy-rotate'), screen.getByRole('button', { name: 'Create dataset from calls' })];
      const keep = screen.getByRole('checkbox', { name: 'Kept' }) as HTMLInputElement;
      if (right === 'view') {
        await waitFor(() => expect(buttons.map(state)).toEqual(buttons.map(() => [true, REASON['en-US']])));
        expect(keep.disabled).toBe(true);
        // Already disabled for want of a choice: the reason says why they stay so.
        expect(screen.getByRole('button', { name: 'Delete selected' }).getAttribute('title')).toBe(REASON['en-US']);
        expect(screen.getByRole('button', { name: 'Decide the file' }).getAttribute('title')).toBe(REASON['en-US']);
      } else {
        expect(buttons.map(state)).toEqual(buttons.map(() => [false, null]));
        expect(keep.disabled).toBe(false);
        expect(screen.getByRole('button', { name: 'Delete selected' }).getAttribute('title')).toBeNull();
      }
      cleanup();
    }
  });
});
