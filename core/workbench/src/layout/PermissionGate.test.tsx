import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { routeSegment } from '@decisio/domain';
import type { Notification } from '@decisio/sdk-plugin';
import { APP_PLUGINS } from '../main';
import { LOCALE_STORAGE_KEY } from '../i18n/i18n';
import { callOf, envelope, testUser, userFetch, workbenchFixture } from '../testing/session';

const calls: string[] = [];
const toasts: Notification[] = [];

/** An ordinary user: the user role's permissions, not the admin area's. */
const member = { ...testUser, permissions: ['dashboard:use', 'projects:use', 'datasets:use'] };

/** Each admin, jobs, logs and outbox page, and the call segment whose permission it needs. */
const GATED: [path: string, segment: string][] = [
  ['/admin/users', 'users'],
  ['/admin/roles', 'roles'],
  ['/admin/menus', 'menus'],
  ['/admin/orgs', 'orgs'],
  ['/admin/tenants', 'tenant'],
  ['/job', 'jobs'],
  ['/system-log', 'logs'],
  ['/user-center/outbox', 'outbox'],
];

describe('panels a user lacks the permission of', () => {
  const { start } = workbenchFixture({
    defaults: { plugins: APP_PLUGINS, notifications: { show: (n) => (toasts.push(n), 'k'), dismiss: () => {} } },
    reset: () => {
      calls.length = 0;
      toasts.length = 0;
    },
  });

  it.each(GATED)('%s: shows the refusal state, calls nothing of it and keeps the user signed in', async (path, segment) => {
    const w = await start(path, { fetchFn: userFetch(member, (url) => calls.push(url)) });
    const refusal = await screen.findByTestId('panel-no-permission', {}, { timeout: 10_000 });
    expect(refusal.textContent).toBe('You have no right to open this page');
    expect(calls.filter((c) => routeSegment(c) === segment)).toEqual([]);
    expect(w.session.isSignedIn()).toBe(true);
    expect(w.router.state.location.pathname).toBe(path);
    expect(toasts).toEqual([]);
  });

  it('says it in Chinese too', async () => {
    localStorage.setItem(LOCALE_STORAGE_KEY, 'zh-CN');
    await start('/admin/users', { fetchFn: userFetch(member, (url) => calls.push(url)) });
    expect((await screen.findByTestId('panel-no-permission', {}, { timeout: 10_000 })).textContent).toBe('你没有访问此页面的权限');
  });

  it('gives an administrator (every permission) the panel, which calls the server', async () => {
    await start('/admin/users', { fetchFn: userFetch({ ...testUser, permissions: ['*'] }, (url) => calls.push(url)) });
    await waitFor(() => expect(calls).toContain('users/getUserList'), { timeout: 10_000 });
    expect(screen.queryByTestId('panel-no-permission')).toBeNull();
  });

  /** A fetch whose `user/getUser` fails (HTTP 500) until `answer.user` is set; `calls` sees each call. */
  const failingUser = (answer: { user?: unknown }): typeof fetch => async (input) => {
    const url = callOf(input);
    calls.push(url);
    if (url !== 'user/getUser') return envelope(null);
    return answer.user ? envelope(answer.user) : new Response('boom', { status: 500 });
  };

  it.each([
    ['en-US', 'Your account could not be loaded, so this page cannot be opened yet', 'Retry'],
    ['zh-CN', '无法加载您的账户信息，暂时无法打开此页面', '重试'],
  ])('%s: says the user could not be loaded, not that the right is lacking, and Retry opens the page', async (locale, message, retry) => {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
    const answer: { user?: unknown } = {};
    await start('/admin/users', { fetchFn: failingUser(answer) });
    const failed = await screen.findByTestId('panel-user-failed', {}, { timeout: 10_000 });
    expect(failed.textContent).toContain(message);
    expect(screen.queryByTestId('panel-no-permission')).toBeNull();
    expect(calls).not.toContain('users/getUserList');
    const button = screen.getByTestId('panel-user-retry');
    expect(button.textContent).toBe(retry);
    answer.user = { ...testUser, permissions: ['*'] };
    fireEvent.click(button);
    await waitFor(() => expect(calls).toContain('users/getUserList'), { timeout: 10_000 });
    expect(screen.queryByTestId('panel-user-failed')).toBeNull();
    expect(screen.queryByTestId('panel-no-permission')).toBeNull();
  });
});
