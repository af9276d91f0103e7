/**
 * Shared fixture of the workbench's own tests (not exported by the package): the signed-in test
 * user, the session and language kept in local storage before each test, and a workbench
 * started at a path, rendered, and disposed after each test.
 *
 * @example
 * ```tsx
 * const fx = workbenchFixture({ defaults: { plugins: APP_PLUGINS, fetchFn: userFetch(testUser) } });
 * it('…', async () => {
 *   const w = await fx.start('/dashboard');
 * });
 * ```
 */
import { afterEach, beforeEach } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { createMemoryHistory } from '@tanstack/react-router';
import { MENU_CATALOGUE_PAGES, TOKEN_STORAGE_KEY, USER_ID_STORAGE_KEY, type Locale } from '@decisio/domain';
import { TEST_USER_PROFILE } from '@decisio/sdk-plugin/testing';
import { createWorkbench, WorkbenchRoot, type Workbench, type WorkbenchOptions } from '../host/workbench';
import { LOCALE_STORAGE_KEY } from '../i18n/i18n';

/** The test user's id and token, as the session keeps them. */
export const TEST_USER_ID = 'u1';
export const TEST_TOKEN = 'tok-1';

/** The api root the fixture's workbench calls. */
export const TEST_BASE_URL = 'http://localhost/api/';

/** The test user's profile as `user/getUser` answers it, without roles' menus (the SDK's test user). */
export const testUserProfile = { ...TEST_USER_PROFILE, userId: TEST_USER_ID };

/** The test user with every page of the menu catalogue: the side menu and the palette show what the menus hold. */
export const testUser = {
  ...testUserProfile,
  menus: MENU_CATALOGUE_PAGES.map((path) => ({ path, children: [] })),
  menuPaths: [...MENU_CATALOGUE_PAGES],
};

/** Keeps the test user's session in local storage (what a sign-in leaves there). */
export function signIn(storage: Storage = localStorage): void {
  storage.setItem(TOKEN_STORAGE_KEY, TEST_TOKEN);
  storage.setItem(USER_ID_STORAGE_KEY, TEST_USER_ID);
}

/** A `code: 0` envelope holding `data`. */
export function envelope(data: unknown): Response {
  return new Response(JSON.stringify({ code: 0, data, message: '' }), { headers: { 'content-type': 'application/json' } });
}

/** The call's url relative to {@link TEST_BASE_URL}, e.g. `user/getUser`. */
export function callOf(input: RequestInfo | URL): string {
  return (input as Request).url.replace(TEST_BASE_URL, '');
}

/** A fetch answering `user/getUser` with `user` and every other call with no data; `onCall` sees each call. */
export function userFetch(user: unknown, onCall?: (url: string) => void): typeof fetch {
  return async (input) => {
    const url = callOf(input);
    onCall?.(url);
    return envelope(url === 'user/getUser' ? user : null);
  };
}

/** Options of {@link workbenchFixture}. */
export interface WorkbenchFixtureOptions {
  /** Keep the test user's session before each test (default true). */
  signedIn?: boolean;
  /** The language kept before each test; `null` keeps none, so the workbench picks its own (default en-US). */
  locale?: Locale | null;
  /** What every `start` of the suite passes to `createWorkbench` (a test's own options win). */
  defaults?: Partial<WorkbenchOptions>;
  /** Runs before each test, after the storage is set up (e.g. to empty a suite's records). */
  reset?: () => void;
}

/** The fixture of a suite: `start` creates and renders a workbench, disposed after the test. */
export interface WorkbenchFixture {
  start(path: string, options?: Partial<WorkbenchOptions>): Promise<Workbench>;
  /** The workbench of the running test, if started. */
  current(): Workbench | undefined;
}

/**
 * Registers, in the calling suite (or file), a `beforeEach` that clears local storage and keeps
 * the language and the test user's session there, and an `afterEach` that unmounts and disposes
 * the workbench the test started.
 */
export function workbenchFixture(options: WorkbenchFixtureOptions = {}): WorkbenchFixture {
  const { signedIn = true, locale = 'en-US', defaults = {}, reset } = options;
  let wb: Workbench | undefined;
  beforeEach(() => {
    localStorage.clear();
    if (locale) localStorage.setItem(LOCALE_STORAGE_KEY, locale);
    if (signedIn) signIn();
    reset?.();
  });
  afterEach(() => {
    cleanup();
    wb?.dispose();
    wb = undefined;
  });
  return {
    async start(path, own = {}) {
      wb = await createWorkbench({
        plugins: [],
        notifications: { show: () => 'k', dismiss: () => {} },
        baseUrl: TEST_BASE_URL,
        fetchFn: async () => envelope(null),
        ...defaults,
        ...own,
        history: own.history ?? createMemoryHistory({ initialEntries: [path] }),
      });
      render(<WorkbenchRoot workbench={wb} />);
      return wb;
    },
    current: () => wb,
  };
}
