/**
 * The front-end routes the specification names (platform §2, workflow §2), as listed in
 * `docs/spec-calls.json` (the spec itself is kept outside the repository), against the real
 * plugins of the app:
 * 1. every route is contributed by some plugin (a `$param` segment matches one segment, e.g.
 *    `/template-center/industry/$industry` serves `/template-center/industry/coupon`), or built
 *    into the router (`/`); a public route of the spec is public, a signed-in one is not;
 * 2. signed in, each signed-in route opens on its own path (or, for a redirect, on its target)
 *    without the not-found page, and any other path shows it;
 * 3. signed out, each public route opens without sign-in, and a signed-in route sends the
 *    visitor to `/` (which leads to `/sdk`);
 * 4. each screen the spec names without a path (`screens`) is on a contributed route, in the
 *    panel given, and that route opens like the others.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { APP_PLUGINS } from '../main';
import type { Workbench } from '../host/workbench';
import { signIn, testUser, userFetch, workbenchFixture } from '../testing/session';

interface SpecRoute {
  path: string;
  spec: string[];
  public?: boolean;
  redirect?: string;
  signedInRedirect?: string;
  builtIn?: boolean;
  status: 'supported' | 'not supported';
  reason?: string;
}

/** A screen the spec names without a path, and where the product shows it. */
interface SpecScreen {
  screen: string;
  spec: string[];
  route: string;
  panel?: string;
  status: 'supported' | 'not supported';
  reason?: string;
}

const LIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/spec-calls.json');
const specList = JSON.parse(fs.readFileSync(LIST, 'utf8')) as { routes: SpecRoute[]; screens: SpecScreen[] };
const specRoutes = specList.routes;
const supported = specRoutes.filter((r) => r.status === 'supported');
const screens = specList.screens.filter((s) => s.status === 'supported');

const contributed = APP_PLUGINS.flatMap((p) => (p.routes ?? []).map((r) => ({ ...r, pluginId: p.id })));
const patternOf = (p: string) => new RegExp(`^${p.replace(/\$[A-Za-z]+/g, '[^/]+')}$`);
/** The contribution serving `path`: its own path first, else a `$param` pattern. */
const contributionOf = (p: string) => contributed.find((r) => r.path === p) ?? contributed.find((r) => r.path.includes('$') && patternOf(r.path).test(p));

/** The routes of the screens that the spec's own route list does not hold, public or not. */
const screenRoutes = (isPublic: boolean) =>
  [...new Set(screens.map((x) => x.route))].filter((p) => !specRoutes.some((r) => r.path === p) && Boolean(contributionOf(p)?.public) === isPublic);

/** Navigates to `to` and waits until the router settles on `expected`. */
async function open(w: Workbench, to: string, expected: string) {
  await w.router.navigate({ to: to as never, search: { projectId: 'P1', solutionId: 'S1' } as never });
  await waitFor(() => expect(w.router.state.location.pathname, to).toBe(expected), { timeout: 10_000 });
  await waitFor(() => expect(w.router.state.status, to).toBe('idle'));
  expect(screen.queryByTestId('not-found'), to).toBeNull();
}

describe('the spec routes (docs/spec-calls.json)', () => {
  // signed out by default: the signed-in test signs in itself
  const { start } = workbenchFixture({ signedIn: false, defaults: { plugins: APP_PLUGINS, fetchFn: userFetch(testUser) } });

  it('lists each route once with its spec section; every supported one is contributed, public exactly where the spec says; every screen has its route and panel', () => {
    expect(specRoutes.length).toBeGreaterThan(50);
    const paths = specRoutes.map((r) => r.path);
    expect(paths.length - new Set(paths).size).toBe(0);
    const wrong: string[] = [];
    for (const r of specRoutes) {
      expect(r.spec.length, r.path).toBeGreaterThan(0);
      for (const s of r.spec) expect(s, r.path).toMatch(/^(platform|workflow) §2 /);
      if (r.status === 'not supported') {
        expect(r.reason, r.path).toBeTruthy();
        continue;
      }
      expect(r.status, r.path).toBe('supported');
      if (r.builtIn) continue;
      const c = contributionOf(r.path);
      if (!c) wrong.push(`${r.path}: no plugin contributes it`);
      else if (Boolean(c.public) !== Boolean(r.public)) wrong.push(`${r.path}: public ${String(Boolean(c.public))} in ${c.pluginId}, the spec says ${String(Boolean(r.public))}`);
    }
    expect(wrong).toEqual([]);
    // Each screen named without a path is shown on a contributed route, in the panel given.
    const screenWrong: string[] = [];
    expect(specList.screens.length).toBeGreaterThan(40);
    for (const x of specList.screens) {
      expect(x.spec.length, x.screen).toBeGreaterThan(0);
      for (const s of x.spec) expect(s, x.screen).toMatch(/^(platform|workflow) §2 /);
      if (x.status === 'not supported') {
        expect(x.reason, x.screen).toBeTruthy();
        continue;
      }
      const c = contributionOf(x.route);
      if (!c) screenWrong.push(`${x.screen}: ${x.route} is not contributed`);
      else if (x.panel && !(c.panels ?? []).some((p) => (typeof p === 'string' ? p : p.panel) === x.panel)) screenWrong.push(`${x.screen}: ${x.route} has no panel ${x.panel}`);
    }
    expect(screenWrong).toEqual([]);
    // The only built-in route is the root, which the router itself redirects.
    expect(specRoutes.filter((r) => r.builtIn).map((r) => r.path)).toEqual(['/']);
  });

  it('signed in, opens every signed-in route of the spec and of its screens (redirects followed), none shows "Page not found"', async () => {
    signIn();
    const w = await start('/dashboard');
    await screen.findByTestId('side-menu', {}, { timeout: 10_000 });
    for (const r of supported.filter((x) => !x.public)) await open(w, r.path, r.redirect ?? r.path);
    for (const p of screenRoutes(false)) await open(w, p, p);
    // The root leads a signed-in user to the dashboard.
    const root = specRoutes.find((r) => r.path === '/')!;
    await open(w, '/', root.signedInRedirect!);
    // Any other path, and an unknown path under /project, shows the not-found page (platform §2).
    for (const unknown of ['/no-such-page', '/project/no-such-page']) {
      await w.router.navigate({ to: unknown as never });
      await waitFor(() => expect(w.router.state.location.pathname).toBe(unknown));
      expect(await screen.findByTestId('not-found'), unknown).toBeTruthy();
    }
  }, 120_000);

  it('signed out, opens every public route of the spec (and of its screens) and sends a signed-in route to / and then /sdk', async () => {
    const w = await start('/sdk');
    await waitFor(() => expect(w.router.state.location.pathname).toBe('/sdk'));
    for (const r of supported.filter((x) => x.public)) await open(w, r.path, r.redirect ?? r.path);
    for (const p of screenRoutes(true)) await open(w, p, p);
    for (const r of supported.filter((x) => !x.public)) await open(w, r.path, specRoutes.find((x) => x.path === '/')!.redirect!);
  }, 120_000);
});
