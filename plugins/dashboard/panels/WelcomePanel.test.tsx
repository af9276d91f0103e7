import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { dashboardPlugin } from '../index';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./WelcomePanel', async (orig) => (loaded.push('WelcomePanel'), orig()));

const user = {
  userId: 'u1',
  username: 'alice_1',
  nickname: 'Alice',
  tenantId: 't1',
  avatarUrl: null,
  email: 'a@b.co',
  mobile: null,
  menuGroupId: null,
  roleList: [],
  isSystemRole: false,
  isStudent: false,
  isOperation: false,
  occupation: null,
  createdAt: '2026-01-01T00:00:00Z',
};

describe('WelcomePanel', () => {
  afterEach(() => cleanup());

  it('is not loaded by importing the manifest', () => {
    expect(dashboardPlugin.panels[0]!.id).toBe('dashboard.welcome');
    expect(loaded).toEqual([]);
  });

  it('greets the user by name from user/getUser and shows the empty state', async () => {
    const host = createTestHost({ plugins: [dashboardPlugin], locale: 'en-US', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { data: user });
    await renderPanel(dashboardPlugin.panels[0]!, { host });
    await waitFor(() => expect(screen.getByTestId('welcome-greeting').textContent).toBe('Welcome, Alice'));
    expect(screen.getByText('No projects yet')).toBeTruthy();
    expect(host.calls.map((c) => c.url)).toEqual(['user/getUser']);
  });

  it('offers a retry when the user cannot be loaded', async () => {
    const host = createTestHost({ plugins: [dashboardPlugin], locale: 'zh-CN', session: { token: 't', userId: 'u1' } });
    host.mockCall('user/getUser', { code: 1000, message: 'failed' });
    await renderPanel(dashboardPlugin.panels[0]!, { host });
    expect(await screen.findByText('无法加载用户信息')).toBeTruthy();
  });
});
