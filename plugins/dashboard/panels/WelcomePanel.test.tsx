import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel, TEST_USER_PROFILE } from '@decisio/sdk-plugin/testing';
import { dashboardPlugin } from '../index';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./WelcomePanel', async (orig) => (loaded.push('WelcomePanel'), orig()));

const user = TEST_USER_PROFILE;

const TEMPLATES = [
  { id: 'electric', name: { 'zh-CN': '冷库温控（电力）', 'en-US': 'Cold room power control (electric)' }, description: { 'zh-CN': '冷库', 'en-US': 'A cold room' } },
  { id: 'coupon', name: { 'zh-CN': '定价与补货（优惠券）', 'en-US': 'Pricing and ordering (coupon)' }, description: { 'zh-CN': '门店', 'en-US': 'A store' } },
];

describe('WelcomePanel', () => {
  afterEach(() => cleanup());

  it('is not loaded by importing the manifest', () => {
    expect(dashboardPlugin.panels[0]!.id).toBe('dashboard.welcome');
    expect(loaded).toEqual([]);
  });

  it('greets the user by name from user/getUser and offers the templates of the guided first run', async () => {
    const host = createTestHost({ plugins: [dashboardPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: user });
    host.mockCall('template/getTemplateList', { data: TEMPLATES });
    await renderPanel(dashboardPlugin.panels[0]!, { host });
    await waitFor(() => expect(screen.getByTestId('welcome-greeting').textContent).toBe('Welcome, Alice'));
    expect(screen.getByText('Guided first run')).toBeTruthy();
    expect(await screen.findByText('Cold room power control (electric)')).toBeTruthy();
    expect(screen.getByText('Pricing and ordering (coupon)')).toBeTruthy();
    expect(host.calls.map((c) => c.url).sort()).toEqual(['template/getTemplateList', 'user/getUser']);
  });

  it('creates a template project and opens its data access with the guide on', async () => {
    const host = createTestHost({ plugins: [dashboardPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: user });
    host.mockCall('template/getTemplateList', { data: TEMPLATES });
    host.mockCall('template/createProject', (body) => ({ data: { project: { projectId: 'P9' }, templateId: (body as { templateId: string }).templateId, solutionId: 'S9', datasetId: 'D9', objectiveId: 'O9' } }));
    await renderPanel(dashboardPlugin.panels[0]!, { host });
    expect(await screen.findByText('定价与补货（优惠券）')).toBeTruthy();
    fireEvent.click(screen.getByTestId('guided-start-coupon'));
    await waitFor(() => expect(host.location()).toEqual({ pathname: '/workflow/table-correlation', search: { projectId: 'P9', solutionId: 'S9', guide: 'true' } }));
    expect(host.calls.find((c) => c.url === 'template/createProject')!.body).toEqual({ templateId: 'coupon' });
  });

  it('says why a template project could not be created', async () => {
    const host = createTestHost({ plugins: [dashboardPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: user });
    host.mockCall('template/getTemplateList', { data: TEMPLATES });
    host.mockCall('template/createProject', { code: 6001, message: 'Insufficient storage space' });
    await renderPanel(dashboardPlugin.panels[0]!, { host });
    fireEvent.click(await screen.findByTestId('guided-start-electric'));
    expect((await screen.findByTestId('guided-error')).textContent).toContain('Insufficient storage space');
    expect(host.location().pathname).not.toBe('/workflow/table-correlation');
  });

  it('offers a retry when the user cannot be loaded', async () => {
    const host = createTestHost({ plugins: [dashboardPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { code: 1000, message: 'failed' });
    await renderPanel(dashboardPlugin.panels[0]!, { host });
    expect(await screen.findByText('无法加载用户信息')).toBeTruthy();
  });
});
