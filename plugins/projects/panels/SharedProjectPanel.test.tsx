import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { navigationServiceRef } from '@decisio/sdk-plugin';
import type { SharedModuleView, SharedProject } from '@decisio/domain';
import { createTestHost, heldBack, renderPanel } from '@decisio/sdk-plugin/testing';
import { trainingsKitPlugin } from '@decisio/sdk-plugin/trainings/plugin';
import { projectsPlugin } from '../index';

const route = projectsPlugin.routes.find((r) => r.path === '/shared-project')!;
const token = 'f'.repeat(32);
const shared: SharedProject = {
  project: {
    projectId: 'a'.repeat(32),
    name: 'Pricing',
    colour: 'blue',
    industryTemplate: null,
    info: null,
    imageVersion: null,
    locked: false,
    ownerId: 'b'.repeat(32),
    ownerName: 'alice',
    right: 'view',
    solutionCount: 1,
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
  },
  readOnly: true,
  modules: ['simulator', 'workbench'],
  solutions: [],
};
const simulators: SharedModuleView = {
  module: 'simulator',
  solutions: [{ solutionId: 'c'.repeat(32), name: 'Baseline', items: [{ id: 'd'.repeat(32), name: 'env-a', state: 'successful', algorithm: 'bc', score: 61.5, createdAt: '2026-11-02T10:00:00.000Z' }] }],
};
const graph: SharedModuleView = {
  module: 'workbench',
  solutions: [{ solutionId: 'c'.repeat(32), name: 'Baseline', items: [], graph: { nodes: [{ name: 'obs', role: 'state' }, { name: 'action', role: 'agent' }], edges: 2 } }],
};

describe('SharedProjectPanel', () => {
  afterEach(() => cleanup());

  it('shows each shared module read-only in its tab, in both languages', async () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const host = createTestHost({ plugins: [projectsPlugin], locale, session: { token: 't', userId: 'e'.repeat(32) }, location: { pathname: '/shared-project', search: { token } } });
      host.mockCall('project/getSharedProject', { data: shared });
      host.mockCall('project/getSharedModule', (body) => ({ data: (body as { module: string }).module === 'workbench' ? graph : simulators }));
      await renderPanel(route, { host });
      const table = await screen.findByTestId('shared-module-simulator');
      expect(within(table).getByText('env-a')).toBeTruthy();
      expect(within(table).getByText('61.5')).toBeTruthy();
      expect(within(table).getByText(locale === 'en-US' ? 'Score' : '评分')).toBeTruthy();
      fireEvent.click(screen.getAllByRole('tab')[1]!);
      const nodes = await screen.findByTestId('shared-module-workbench');
      expect(within(nodes).getByText('action')).toBeTruthy();
      expect(host.calls.filter((c) => c.url === 'project/getSharedModule').map((c) => (c.body as { module: string }).module)).toEqual(['simulator', 'workbench']);
      cleanup();
    }
  });

  it('shows the states and algorithms by their names in the interface language, not the raw values', async () => {
    const services: SharedModuleView = {
      module: 'deploy',
      solutions: [{ solutionId: 'c'.repeat(32), name: 'Baseline', items: [{ id: 'f'.repeat(32), name: 'svc-a', state: 'waiting', algorithm: null, score: null, createdAt: '2026-11-02T10:00:00.000Z' }] }],
    };
    const expected = {
      'en-US': { simulator: ['Successful', 'Behaviour cloning (BC)'], deploy: 'Waiting to start' },
      'zh-CN': { simulator: ['成功', '行为克隆（BC）'], deploy: '待启动' },
    } as const;
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const host = createTestHost({ plugins: [trainingsKitPlugin, projectsPlugin], locale, session: { token: 't', userId: 'e'.repeat(32) }, location: { pathname: '/shared-project', search: { token } } });
      host.mockCall('project/getSharedProject', { data: { ...shared, modules: ['simulator', 'deploy'] } });
      host.mockCall('project/getSharedModule', (body) => ({ data: (body as { module: string }).module === 'deploy' ? services : simulators }));
      await renderPanel(route, { host });
      const table = await screen.findByTestId('shared-module-simulator');
      const row = within(table).getByText('env-a').closest('tr')!;
      expect(Array.from(row.querySelectorAll('td')).map((td) => td.textContent).slice(1, 3)).toEqual(expected[locale].simulator);
      fireEvent.click(screen.getAllByRole('tab')[1]!);
      const deploy = await screen.findByTestId('shared-module-deploy');
      expect(within(deploy).getByText('svc-a').closest('tr')!.querySelectorAll('td')[1]!.textContent).toBe(expected[locale].deploy);
      cleanup();
    }
  });

  it("shows another link's project only once it is answered, never the previous link's under it, and opens it on its first tab", async () => {
    const other = '9'.repeat(32);
    const theirs: SharedProject = { ...shared, project: { ...shared.project, projectId: '8'.repeat(32), name: 'Logistics', ownerName: 'bob' } };
    const host = createTestHost({ plugins: [projectsPlugin], locale: 'en-US', session: { token: 't', userId: 'e'.repeat(32) }, location: { pathname: '/shared-project', search: { token } } });
    const gate = heldBack();
    host.mockCall('project/getSharedProject', async (body) => {
      if ((body as { token: string }).token !== other) return { data: shared };
      await gate.wait;
      return { data: theirs };
    });
    host.mockCall('project/getSharedModule', (body) => ({ data: (body as { module: string }).module === 'workbench' ? graph : simulators }));
    await renderPanel(route, { host });
    await screen.findByTestId('shared-module-simulator');
    fireEvent.click(screen.getAllByRole('tab')[1]!);
    await screen.findByTestId('shared-module-workbench');
    act(() => host.services.get(navigationServiceRef).navigate('/shared-project', { search: { token: other } }));
    await waitFor(() => expect(host.calls.some((c) => c.url === 'project/getSharedProject' && (c.body as { token: string }).token === other)).toBe(true));
    expect(screen.queryByText('Pricing')).toBeNull();
    expect(screen.queryByTestId('shared-project')).toBeNull();
    gate.release();
    expect(await screen.findByText('Logistics')).toBeTruthy();
    expect(screen.getAllByRole('tab')[0]!.getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByTestId('shared-module-simulator')).toBeTruthy();
  });
});
