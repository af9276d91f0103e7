/**
 * The user's roles decide the side menu and the command palette with the real plugins: before the
 * user's menus are known the side menu shows a loading state and never an entry (no flash of
 * the pages the roles hide), after a failed load a retry button; the palette shows a command only
 * when the user may reach the page it opens and holds the permissions it needs, and a keybinding
 * runs its command only then (else the key is swallowed: the browser does not print on Ctrl+P).
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MENU_CATALOGUE_PAGES } from '@decisio/domain';
import { APP_PLUGINS } from '../main';
import type { Workbench } from '../host/workbench';
import { callOf, envelope, testUserProfile, workbenchFixture } from '../testing/session';
import { paletteItems } from './CommandPalette';

const base = { ...testUserProfile, roleList: [{ id: 'r1', code: 'user', name: 'User' }], menuPaths: [...MENU_CATALOGUE_PAGES] };
const node = (path: string) => ({ path, children: [] });
/** A member: the dashboard and the projects (the project area comes with them). */
const member = { ...base, permissions: ['dashboard:use', 'projects:use'], menus: [node('/dashboard'), node('/all-project')] };
/** A system administrator: every menu, every permission. */
const admin = { ...base, isSystemRole: true, roleList: [{ id: 'r0', code: 'admin', name: 'Admin' }], permissions: ['*'], menus: [{ path: null, children: MENU_CATALOGUE_PAGES.map(node) }] };

// a signed-in English session, and the workbench of each test disposed after it
const fx = workbenchFixture({ defaults: { plugins: APP_PLUGINS } });

/** Starts the app; `getUser` answers what `answer` resolves to (an error status for a number). */
function start(path: string, answer: () => Promise<unknown>) {
  return fx.start(path, {
    fetchFn: async (input) => {
      if (callOf(input) !== 'user/getUser') return envelope(null);
      const data = await answer();
      if (typeof data === 'number') return new Response('boom', { status: data });
      return envelope(data);
    },
  });
}

/** Records every side-menu entry ever put in the page, however briefly. */
function watchEntries(): { seen: Set<string>; stop: () => void } {
  const seen = new Set<string>();
  const look = (el: Element) => {
    for (const e of [el, ...el.querySelectorAll('[data-testid^="side-menu-"]')]) {
      const id = e.getAttribute('data-testid');
      if (id?.startsWith('side-menu-') && id.includes('.')) seen.add(id.slice('side-menu-'.length));
    }
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n instanceof Element) look(n);
  });
  observer.observe(document.body, { childList: true, subtree: true });
  look(document.body);
  return { seen, stop: () => observer.disconnect() };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const paletteIds = (w: Workbench) => paletteItems(w).map((x) => x.id);

describe('the side menu follows the user’s menus', () => {
  it('shows a loading state and no entry before the menus load, then only the entries the roles allow', async () => {
    const watch = watchEntries();
    const user = deferred<unknown>();
    const w = await start('/dashboard', () => user.promise);
    const loading = await screen.findByTestId('side-menu-loading', {}, { timeout: 10_000 });
    expect(loading.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByTestId('side-menu')).toBeNull();
    // The palette offers no gated command meanwhile; the ungated ones stay.
    const early = paletteIds(w);
    expect(early).not.toContain('admin.open-users');
    expect(early).not.toContain('projects.quickOpen');
    expect(early.some((id) => id.startsWith('menu:'))).toBe(false);
    expect(early).toContain('account.signOut');
    expect(early).toContain('user-centre.open-info');
    expect(watch.seen.size).toBe(0);

    user.resolve(member);
    const menu = await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('side-menu-loading')).toBeNull();
    const ids = [...menu.querySelectorAll('[data-testid^="side-menu-"]')].map((e) => e.getAttribute('data-testid')!.slice('side-menu-'.length));
    expect(ids).toContain('dashboard.home');
    expect(ids).toContain('projects.all');
    watch.stop();
    // An entry the member's roles hide was never in the page, not even for a moment.
    for (const id of ['admin.menu-users', 'admin.menu-roles', 'support.menu', 'ssh-terminal.menu', 'sdk-licence.menu', 'templates.menu', 'feedback-control.menu']) {
      expect(watch.seen.has(id), id).toBe(false);
      expect(ids, id).not.toContain(id);
    }
    expect([...watch.seen].sort()).toEqual([...ids].sort());
  });

  it('shows a retry button, never the unfiltered entries, when the menus fail to load', async () => {
    const watch = watchEntries();
    let answer: unknown = 500;
    await start('/dashboard', async () => answer);
    const failed = await screen.findByTestId('side-menu-error', {}, { timeout: 10_000 });
    expect(failed.textContent).toContain('The menu could not be loaded');
    expect(screen.queryByTestId('side-menu')).toBeNull();
    expect(watch.seen.size).toBe(0);
    answer = member;
    fireEvent.click(screen.getByTestId('side-menu-retry'));
    const menu = await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    expect(menu.querySelector('[data-testid="side-menu-dashboard.home"]')).toBeTruthy();
    watch.stop();
    expect(watch.seen.has('admin.menu-users')).toBe(false);
  });
});

describe('the side menu follows the permissions of the pages’ panels', () => {
  const entriesOf = (menu: HTMLElement) => [...menu.querySelectorAll('[data-testid^="side-menu-"]')].map((e) => e.getAttribute('data-testid')!.slice('side-menu-'.length));

  it('hides /job and /system-log from a system role without jobs:read and logs:read, in the menu and the palette', async () => {
    // a system role whose permissions leave out the jobs' and the logs' (its menus hold every page)
    const operator = { ...admin, permissions: ['users:read', 'dashboard:use'] };
    const w = await start('/dashboard', async () => operator);
    const ids = entriesOf(await screen.findByTestId('side-menu', {}, { timeout: 10_000 }));
    expect(ids).toContain('admin.menu-users');
    expect(ids).not.toContain('admin.menu-roles');
    expect(ids).not.toContain('jobs.menu');
    expect(ids).not.toContain('logs.menu');
    const palette = paletteIds(w);
    expect(palette).toContain('menu:admin.menu-users');
    for (const id of ['menu:jobs.menu', 'menu:logs.menu', 'menu:admin.menu-roles', 'jobs.open', 'logs.open', 'admin.open-roles']) expect(palette, id).not.toContain(id);
  });

  it('shows them to a system role holding the permission of each', async () => {
    const w = await start('/dashboard', async () => ({ ...admin, permissions: ['jobs:read', 'logs:read'] }));
    const ids = entriesOf(await screen.findByTestId('side-menu', {}, { timeout: 10_000 }));
    expect(ids).toContain('jobs.menu');
    expect(ids).toContain('logs.menu');
    expect(ids).not.toContain('admin.menu-users');
    for (const id of ['menu:jobs.menu', 'menu:logs.menu', 'jobs.open', 'logs.open']) expect(paletteIds(w), id).toContain(id);
  });
});

describe('the command palette follows the user’s menus and permissions', () => {
  it('hides the admin commands from a member, in the list and in a search', async () => {
    const w = await start('/dashboard', async () => member);
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    const ids = paletteIds(w);
    for (const id of ['admin.open-users', 'admin.open-roles', 'admin.open-menus', 'admin.open-orgs', 'admin.open-tenants', 'user-centre.open-outbox']) expect(ids, id).not.toContain(id);
    // What the member may reach stays, and so do the commands no role decides.
    for (const id of ['projects.quickOpen', 'deploy.open-deploy', 'workflow.open-environment', 'market.open', 'user-centre.open-info', 'account.signOut', 'menu:dashboard.home']) expect(ids, id).toContain(id);
    fireEvent.keyDown(window, { key: 'F1' });
    fireEvent.change(await screen.findByTestId('command-palette-input'), { target: { value: 'users' } });
    await waitFor(() => expect(screen.getByTestId('command-palette-input').getAttribute('value')).toBe('users'));
    expect(screen.queryByTestId('command-admin.open-users')).toBeNull();
  });

  it('shows the admin commands to an administrator', async () => {
    const w = await start('/dashboard', async () => admin);
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    const ids = paletteIds(w);
    for (const id of ['admin.open-users', 'admin.open-roles', 'admin.open-menus', 'admin.open-orgs', 'admin.open-tenants', 'user-centre.open-outbox', 'templates.open-centre', 'ssh-terminal.open']) expect(ids, id).toContain(id);
    fireEvent.keyDown(window, { key: 'F1' });
    fireEvent.change(await screen.findByTestId('command-palette-input'), { target: { value: 'users' } });
    expect(await screen.findByTestId('command-admin.open-users')).toBeTruthy();
  });

  it('runs a keybinding only for a command the palette shows: Ctrl+P (quick open) needs the projects menu', async () => {
    // fireEvent gives false when the default was prevented.
    const ctrlP = () => fireEvent.keyDown(window, { key: 'p', ctrlKey: true });
    // Not before the user's menus are known, nor for a user without the projects menu; the key is
    // the workbench's all the same, so the browser's print dialog does not open either.
    const user = deferred<unknown>();
    const w = await start('/dashboard', () => user.promise);
    await screen.findByTestId('side-menu-loading', {}, { timeout: 10_000 });
    expect(ctrlP(), 'prevented').toBe(false);
    user.resolve({ ...base, permissions: ['dashboard:use'], menus: [node('/dashboard')] });
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    expect(paletteIds(w)).not.toContain('projects.quickOpen');
    expect(ctrlP(), 'prevented').toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(w.router.state.location.pathname).toBe('/dashboard');
  });

  it('runs Ctrl+P (quick open) for a member, who holds the projects menu', async () => {
    const w = await start('/dashboard', async () => member);
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    expect(paletteIds(w)).toContain('projects.quickOpen');
    expect(fireEvent.keyDown(window, { key: 'p', ctrlKey: true }), 'prevented').toBe(false);
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/all-project'));
  });

  it('hides a command that opens a page the user cannot reach', async () => {
    const w = await start('/dashboard', async () => member);
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    const ids = paletteIds(w);
    // The page itself, a page under a catalogue page, a page of a side-menu entry's area.
    for (const id of ['templates.open-centre', 'template-coupon.open', 'storehouse.open', 'feedback-control.open-model', 'ssh-terminal.open', 'support.open', 'messages.open', 'hyperparameters.open']) {
      expect(ids, id).not.toContain(id);
    }
  });
});
