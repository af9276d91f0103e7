import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { ErrorCode } from '@decisio/domain';
import { baseApi, type Notification } from '@decisio/sdk-plugin';
import { APP_PLUGINS } from '../main';
import { callOf, envelope, testUser, workbenchFixture } from '../testing/session';
import { MUST_CHANGE_PASSWORD_STORAGE_KEY } from './session-service';

const calls: string[] = [];
const toasts: Notification[] = [];
const CHANGE = '/user-center/security';

/** `user/getUser` answers `user()`; the calls a temporary password allows answer; every other one `passwordChangeRequired` while `blocked()`. */
function fetchFor(user: () => unknown, blocked: () => boolean): typeof fetch {
  return async (input) => {
    const url = callOf(input);
    calls.push(url);
    if (url === 'user/getUser') return envelope(user());
    if (!blocked() || url.startsWith('index/')) return envelope(null);
    return new Response(JSON.stringify({ code: ErrorCode.passwordChangeRequired, data: null, message: 'change it' }), { status: 403, headers: { 'content-type': 'application/json' } });
  };
}

describe('a temporary password', () => {
  const { start } = workbenchFixture({
    defaults: { plugins: APP_PLUGINS, notifications: { show: (n) => (toasts.push(n), 'k'), dismiss: () => {} } },
    reset: () => {
      calls.length = 0;
      toasts.length = 0;
    },
  });

  it('right after a sign-in that says so, takes the user to the password change and keeps them there', async () => {
    // What session.signIn keeps of a sign-in answer with mustChangePassword.
    localStorage.setItem(MUST_CHANGE_PASSWORD_STORAGE_KEY, '1');
    const w = await start('/dashboard', { fetchFn: fetchFor(() => ({ ...testUser, mustChangePassword: true }), () => true) });
    await waitFor(() => expect(w.router.state.location.pathname).toBe(CHANGE), { timeout: 10_000 });
    expect(await screen.findByTestId('password-must-change', {}, { timeout: 10_000 })).toBeTruthy();
    await act(() => w.navigation.navigate('/admin/users'));
    await waitFor(() => expect(w.router.state.location.pathname).toBe(CHANGE));
    // The dashboard never rendered: nothing it calls was made; the user is still signed in.
    expect(calls.filter((c) => c.startsWith('overview/'))).toEqual([]);
    expect(w.session.isSignedIn()).toBe(true);
  });

  it('on a passwordChangeRequired answer, says why, goes to the password change, and lets the user on once user/getUser says it changed', async () => {
    let must = true;
    const w = await start('/dashboard', { fetchFn: fetchFor(() => ({ ...testUser, mustChangePassword: must }), () => must) });
    await waitFor(() => expect(w.router.state.location.pathname).toBe(CHANGE), { timeout: 10_000 });
    expect(w.session.isSignedIn()).toBe(true);
    await waitFor(() => expect(toasts.map((t) => t.message)).toContain('An administrator set a temporary password for you: choose your own password to go on'));
    expect(toasts.map((t) => t.message)).not.toContain('Your session has ended, please sign in again');
    // Changed (the password change invalidates the user): the hold is lifted.
    must = false;
    await act(async () => void (await w.store.dispatch(baseApi.endpoints['core/getUser'].initiate(undefined, { forceRefetch: true }))));
    await act(() => w.navigation.navigate('/dashboard'));
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem(MUST_CHANGE_PASSWORD_STORAGE_KEY)).toBeNull();
  });
});
