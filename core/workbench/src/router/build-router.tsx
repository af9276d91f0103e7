/**
 * The route tree, assembled from plugin route contributions (spec platform §2):
 *
 * - `/` goes to `/dashboard` when signed in and to `/sdk` otherwise;
 * - public routes (`public: true`) need no sign-in;
 * - every other route is behind the auth guard, which sends a signed-out user to `/`;
 * - unknown paths, and unknown paths under `/project/`, show the not-found page.
 *
 * Routes with `chrome: 'console'` (the default for non-public ones) render inside the console
 * shell; routes with `panels` render a dock layout.
 */
import type { ReactNode } from 'react';
import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
  type AnyRoute,
  type RouterHistory,
} from '@tanstack/react-router';
import type { RouteContribution, SessionService } from '@decisio/sdk-plugin';
import type { Owned } from '../host/plugin-host';
import { parseSearch, stringifySearch } from './navigation-service';

declare module '@tanstack/router-core' {
  interface StaticDataRouteOption {
    /** Namespaced translation key of the page title (`<pluginId>:<key>`). */
    titleKey?: string;
  }
}

/** Where `/` sends a signed-out user. */
export const SIGNED_OUT_HOME = '/sdk';
/** Where `/` sends a signed-in user. */
export const SIGNED_IN_HOME = '/dashboard';

/** What the router needs from the workbench. */
export interface RouterDeps {
  routes: readonly Owned<RouteContribution>[];
  session: Pick<SessionService, 'isSignedIn'> & { mustChangePassword?(): boolean };
  /** Root component; must render `<Outlet />`. */
  Root: () => ReactNode;
  /** The console shell; must render `<Outlet />`. */
  ConsoleShell: () => ReactNode;
  NotFound: () => ReactNode;
  /** Renders the dock layout of a route with `panels`. */
  renderDock(route: Owned<RouteContribution>): ReactNode;
  history?: RouterHistory;
}

/** Builds the router. @throws Error when two routes share a path. */
export function buildRouter(deps: RouterDeps) {
  const { session } = deps;
  const root = createRootRoute({ component: deps.Root, notFoundComponent: deps.NotFound });

  const index = createRoute({
    getParentRoute: () => root,
    path: '/',
    beforeLoad: () => {
      throw redirect({ to: session.isSignedIn() ? SIGNED_IN_HOME : SIGNED_OUT_HOME, replace: true });
    },
  });

  // A user who must change their password first is kept on the password-change page.
  const passwordChangePath = deps.routes.find((r) => r.passwordChange)?.path;
  const guard = ({ location }: { location: { pathname: string } }) => {
    if (!session.isSignedIn()) throw redirect({ to: '/', replace: true });
    if (passwordChangePath && location.pathname !== passwordChangePath && session.mustChangePassword?.()) {
      throw redirect({ to: passwordChangePath, replace: true });
    }
  };
  const bare = createRoute({ getParentRoute: () => root, id: 'bare', component: Outlet });
  const publicConsole = createRoute({ getParentRoute: () => root, id: 'public-console', component: deps.ConsoleShell });
  const privateBare = createRoute({ getParentRoute: () => root, id: 'private-bare', beforeLoad: guard, component: Outlet });
  const console = createRoute({ getParentRoute: () => root, id: 'console', beforeLoad: guard, component: deps.ConsoleShell });

  const children: Record<'bare' | 'publicConsole' | 'privateBare' | 'console', AnyRoute[]> = {
    bare: [],
    publicConsole: [],
    privateBare: [],
    console: [],
  };
  const seen = new Set<string>();
  for (const r of deps.routes) {
    if (seen.has(r.path)) throw new Error(`route "${r.path}" is contributed twice`);
    seen.add(r.path);
    const chrome = r.chrome ?? (r.public ? 'bare' : 'console');
    const slot = r.public ? (chrome === 'bare' ? 'bare' : 'publicConsole') : chrome === 'bare' ? 'privateBare' : 'console';
    const parent = { bare, publicConsole, privateBare, console }[slot];
    const load = r.load;
    const component = load
      ? lazyRouteComponent(async () => ({ default: await load() }))
      : function DockRoute() {
          return <>{deps.renderDock(r)}</>;
        };
    children[slot].push(
      createRoute({
        getParentRoute: () => parent,
        path: r.path,
        component: component as never,
        staticData: { titleKey: `${r.pluginId}:${r.titleKey}` },
      }),
    );
  }
  // Unknown paths under /project show the not-found page inside the console.
  if (!seen.has('/project/$')) {
    children.console.push(createRoute({ getParentRoute: () => console, path: '/project/$', component: deps.NotFound }));
  }

  const tree = root.addChildren([
    index,
    bare.addChildren(children.bare),
    publicConsole.addChildren(children.publicConsole),
    privateBare.addChildren(children.privateBare),
    console.addChildren(children.console),
  ]);
  return createRouter({
    routeTree: tree,
    history: deps.history,
    defaultNotFoundComponent: deps.NotFound,
    parseSearch,
    stringifySearch,
    defaultPreload: false,
  });
}

/** The router type. */
export type WorkbenchRouter = ReturnType<typeof buildRouter>;
