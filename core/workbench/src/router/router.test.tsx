import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { baseApi, definePlugin, type Notification } from '@decisio/sdk-plugin';
import { signIn, workbenchFixture } from '../testing/session';

const page = (testId: string) => async () => () => <div data-testid={testId} />;

const demo = definePlugin({
  id: 'demo',
  locales: { 'zh-CN': { t: '演示' }, 'en-US': { t: 'Demo' } },
  routes: [
    { path: '/sdk', titleKey: 't', public: true, load: page('page-sdk') },
    { path: '/sign-in', titleKey: 't', public: true, load: page('page-sign-in') },
    { path: '/dashboard', titleKey: 't', load: page('page-dashboard') },
    { path: '/project/workbench', titleKey: 't', load: page('page-project-workbench') },
  ],
});

const toasts: Notification[] = [];

describe('router', () => {
  // signed out and no language kept: a test signs in itself
  const { start } = workbenchFixture({
    signedIn: false,
    locale: null,
    defaults: { plugins: [demo], notifications: { show: (n) => (toasts.push(n), 'k'), dismiss: () => {} } },
    reset: () => (toasts.length = 0),
  });

  it('sends / to /sdk when signed out', async () => {
    const w = await start('/');
    expect(await screen.findByTestId('page-sdk')).toBeTruthy();
    expect(w.router.state.location.pathname).toBe('/sdk');
  });

  it('sends / to /dashboard when signed in', async () => {
    signIn();
    const w = await start('/');
    expect(await screen.findByTestId('page-dashboard')).toBeTruthy();
    expect(w.router.state.location.pathname).toBe('/dashboard');
  });

  it('guards private routes: a signed-out user goes to / and then /sdk', async () => {
    const w = await start('/dashboard');
    expect(await screen.findByTestId('page-sdk')).toBeTruthy();
    expect(w.router.state.location.pathname).toBe('/sdk');
  });

  it('serves public routes without a session', async () => {
    await start('/sign-in');
    expect(await screen.findByTestId('page-sign-in')).toBeTruthy();
  });

  it('shows the not-found page for unknown paths', async () => {
    await start('/no/such/page');
    expect(await screen.findByTestId('not-found')).toBeTruthy();
  });

  it('shows the not-found page for unknown /project paths and serves known ones', async () => {
    signIn();
    const w = await start('/project/nope');
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    await act(() => w.router.navigate({ to: '/project/workbench' }));
    expect(await screen.findByTestId('page-project-workbench')).toBeTruthy();
  });

  it('keeps query parameters as strings', async () => {
    signIn();
    const w = await start('/project/workbench?projectId=007&guide=true');
    await screen.findByTestId('page-project-workbench');
    expect(w.navigation.getLocation().search).toEqual({ projectId: '007', guide: 'true' });
    expect(await screen.findByTestId('guide-overlay')).toBeTruthy();
  });

  it('signs out on a sign-out code: toast, cleared session, back to /', async () => {
    signIn();
    const fetchFn = vi.fn(async () => new Response(JSON.stringify({ code: 1004, data: null, message: 'expired' }), { status: 401 }));
    const w = await start('/dashboard', { fetchFn: fetchFn as unknown as typeof fetch });
    await screen.findByTestId('page-dashboard');
    await act(async () => {
      await w.store.dispatch(baseApi.endpoints['core/getUser'].initiate());
    });
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/sdk'));
    expect(w.session.getState()).toEqual({ token: null, userId: null });
    expect(toasts.map((t) => t.key)).toContain('sign-out');
  });

  it('reloads when the user id changes in another tab', async () => {
    const reload = vi.fn();
    await start('/sdk', { reload });
    await screen.findByTestId('page-sdk');
    window.dispatchEvent(new StorageEvent('storage', { key: 'userId', oldValue: null, newValue: 'u2' }));
    expect(reload).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new StorageEvent('storage', { key: 'decisio.theme', oldValue: 'light', newValue: 'dark' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('shows the offline graphic when the browser is offline', async () => {
    await start('/sdk');
    await screen.findByTestId('page-sdk');
    const spy = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(await screen.findByTestId('offline-overlay')).toBeTruthy();
    spy.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(screen.queryByTestId('offline-overlay')).toBeNull());
    spy.mockRestore();
  });
});
