import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { userCentrePlugin } from '../index';

const INFO = {
  userId: 'u1', username: 'alice_1', nickname: null, avatarUrl: null, email: 'a@example.com', mobile: null, industry: null, occupation: 'other', organisation: null,
  university: null, major: null, campusEmail: null, isStudent: false, studentUntil: null, settings: { language: null, theme: null, emailNotifications: false },
  createdAt: '2026-11-01T00:00:00Z', lastSignInAt: null,
};

describe('SettingsPanel', () => {
  afterEach(() => cleanup());

  async function setup(impact: object, locale: 'en-US' | 'zh-CN' = 'en-US') {
    const host = createTestHost({ plugins: [userCentrePlugin], locale });
    host.mockCall('users/getUserInfo', { data: INFO });
    host.mockCall('user/getDeleteImpact', { data: { projects: 2, files: 3, connections: 1, runningTrainings: 0, runningServices: 0, ...impact } });
    host.mockCall('user/deleteUser', { data: { userId: 'u1', deletedProjects: 2 } });
    host.mockCall('user/editUserInfo', (body) => ({ data: { ...INFO, settings: (body as { settings: object }).settings } }));
    await renderPanel(userCentrePlugin.panels.find((p) => p.id === 'user-centre.settings')!, { host });
    return host;
  }

  it('states what deletion does and deletes only after the username is typed', async () => {
    const host = await setup({});
    expect((await screen.findByTestId('delete-impact')).textContent).toContain('Your 2 project(s) are deleted');
    const button = screen.getByTestId('delete-submit') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('delete-confirm'), { target: { value: 'alice_' } });
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('delete-confirm'), { target: { value: 'alice_1' } });
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(host.location().pathname).toBe('/'));
    expect(host.calls.find((c) => c.url === 'user/deleteUser')!.body).toEqual({ confirm: 'alice_1' });
    expect(host.session().token).toBeNull();
  });

  it('refuses while work runs, in Chinese too', async () => {
    await setup({ runningTrainings: 1, runningServices: 2 }, 'zh-CN');
    expect((await screen.findByTestId('delete-blocked')).textContent).toContain('1 个正在运行的训练和 2 个在线服务');
    fireEvent.change(screen.getByTestId('delete-confirm'), { target: { value: 'alice_1' } });
    expect((screen.getByTestId('delete-submit') as HTMLButtonElement).disabled).toBe(true);
  });

  it('saves the settings with the account', async () => {
    const host = await setup({});
    fireEvent.change(await screen.findByTestId('settings-theme'), { target: { value: 'dark' } });
    fireEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(host.calls.find((c) => c.url === 'user/editUserInfo')?.body).toEqual({ settings: { language: null, theme: 'dark', emailNotifications: false } }));
  });
});
