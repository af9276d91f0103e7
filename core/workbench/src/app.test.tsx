import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { MENU_CATALOGUE_PAGES } from '@decisio/domain';
import type { Notification } from '@decisio/sdk-plugin';
import { APP_PLUGINS } from './main';
import { createWorkbench, WorkbenchRoot, type Workbench } from './host/workbench';

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
  // Every page of the menu catalogue: the side menu and the palette show what the menus hold.
  menus: MENU_CATALOGUE_PAGES.map((path) => ({ path, children: [] })),
  menuPaths: [...MENU_CATALOGUE_PAGES],
};

let wb: Workbench | undefined;
const calls: string[] = [];
const toasts: Notification[] = [];

async function start(path: string) {
  wb = await createWorkbench({
    plugins: APP_PLUGINS,
    history: createMemoryHistory({ initialEntries: [path] }),
    notifications: { show: (n) => (toasts.push(n), 'k'), dismiss: () => {} },
    baseUrl: 'http://localhost/api/',
    fetchFn: async (input) => {
      const url = (input as Request).url.replace('http://localhost/api/', '');
      calls.push(url);
      const data = url === 'user/getUser' ? user : null;
      return new Response(JSON.stringify({ code: 0, data, message: '' }), { headers: { 'content-type': 'application/json' } });
    },
  });
  render(<WorkbenchRoot workbench={wb} />);
  return wb;
}

describe('the app', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('decisio.locale', 'en-US');
    localStorage.setItem('token', 'tok-1');
    localStorage.setItem('userId', 'u1');
    calls.length = 0;
    toasts.length = 0;
  });
  afterEach(() => {
    cleanup();
    wb?.dispose();
    wb = undefined;
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
