import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Notification } from '@decisio/sdk-plugin';
import { APP_PLUGINS } from './main';
import { testUser, userFetch, workbenchFixture } from './testing/session';

const calls: string[] = [];
const toasts: Notification[] = [];

describe('the app', () => {
  const { start } = workbenchFixture({
    defaults: {
      plugins: APP_PLUGINS,
      notifications: { show: (n) => (toasts.push(n), 'k'), dismiss: () => {} },
      fetchFn: userFetch(testUser, (url) => calls.push(url)),
    },
    reset: () => {
      calls.length = 0;
      toasts.length = 0;
    },
  });

  it('shows the console with the welcome panel, switches language and theme, and signs out from the user menu', async () => {
    const w = await start('/');
    await waitFor(() => expect(screen.getByTestId('welcome-greeting').textContent).toBe('Welcome, Alice'), { timeout: 10_000 });
    expect(screen.getByTestId('side-menu-dashboard.home').textContent).toContain('Dashboard');
    expect(screen.getByTestId('panel-dashboard.welcome')).toBeTruthy();

    fireEvent.change(screen.getByTestId('language-switch'), { target: { value: 'zh-CN' } });
    await waitFor(() => expect(screen.getByTestId('welcome-greeting').textContent).toBe('欢迎，Alice'));
    expect(localStorage.getItem('decisio.locale')).toBe('zh-CN');

    fireEvent.click(screen.getByTestId('theme-switch'));
    expect(document.body.classList.contains('bp6-dark')).toBe(true);

    fireEvent.click(screen.getByTestId('user-menu'));
    expect(await screen.findByTestId('user-menu-reset-layout')).toBeTruthy();
    fireEvent.click(await screen.findByTestId('user-menu-account.signOut'));
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/sdk'));
    expect(calls).toContain('user/signOut');
    expect(w.session.getState()).toEqual({ token: null, userId: null });
    expect(await screen.findByTestId('sdk-landing')).toBeTruthy();
  });

  it('generates the settings form from zod schemas and applies a change', async () => {
    await start('/dashboard');
    expect(await screen.findByTestId('welcome-steps', {}, { timeout: 10_000 })).toBeTruthy();
    fireEvent.click(screen.getByTestId('user-menu'));
    fireEvent.click(await screen.findByTestId('user-menu-settings'));
    fireEvent.click(await screen.findByLabelText('Show the modelling steps on the dashboard'));
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(screen.queryByTestId('welcome-steps')).toBeNull());
    expect(toasts.map((t) => t.message)).toContain('Settings saved');
  });

  it('runs a command from the palette (Mod+Shift+P)', async () => {
    const w = await start('/dashboard');
    await screen.findByTestId('welcome-panel', {}, { timeout: 10_000 });
    fireEvent.keyDown(window, { key: 'P', ctrlKey: true, shiftKey: true });
    fireEvent.change(await screen.findByTestId('command-palette-input'), { target: { value: 'sign' } });
    fireEvent.keyDown(screen.getByTestId('command-palette-input'), { key: 'Enter' });
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/sdk'));
  });
});
