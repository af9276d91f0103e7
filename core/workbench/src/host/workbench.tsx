/**
 * Composition root of the browser workbench: creates the services, the store, i18n, the
 * plugin host and the router, then activates the plugins. `createWorkbench` is also what
 * component tests use (with a memory history and a fake `fetch`).
 */
import { lazy, StrictMode, Suspense, useCallback, useEffect } from 'react';
import { Provider } from 'react-redux';
import { I18nextProvider } from 'react-i18next';
import { OverlaysProvider, Spinner } from '@blueprintjs/core';
import { lazyRouteComponent, RouterProvider, type RouterHistory } from '@tanstack/react-router';
import type { i18n as I18n } from 'i18next';
import {
  baseApi,
  commandServiceRef,
  layoutServiceRef,
  localeServiceRef,
  navigationServiceRef,
  notificationServiceRef,
  ServicesProvider,
  sessionServiceRef,
  settingsServiceRef,
  templateCatalog,
  templateCatalogServiceRef,
  themeServiceRef,
  DisposableStore,
  toDisposable,
  unsavedChanges,
  type NotificationService,
  type PluginManifest,
  type RouteContribution,
  type ServiceAccessor,
  type WhenContext,
} from '@decisio/sdk-plugin';
import { createHostBaseQuery } from '../api/base-query';
import { ToastNotificationService } from '../api/notifications';
import { watchUserIdInOtherTabs } from '../guards/cross-tab';
import { SessionServiceImpl } from '../guards/session-service';
import { addPluginLocales, createI18n, LocaleServiceImpl, readStoredLocale } from '../i18n/i18n';
import { LayoutServiceImpl } from '../layout/layout-service';
import { buildRouter, type WorkbenchRouter } from '../router/build-router';
import { RouterNavigationService } from '../router/navigation-service';
import { guardUnsavedChanges } from '../router/unsaved-guard';
import { NotFoundPage } from '../shell/NotFoundPage';
import { RootLayout } from '../shell/RootLayout';
import { commandAllowed } from '../shell/command-gate';
import { createWorkbenchStore, type WorkbenchStore } from '../store/store';
import { readStoredTheme, ThemeServiceImpl } from '../theme/theme-service';
import { CommandServiceImpl } from './commands';
import { PluginHost, type Owned } from './plugin-host';
import { SettingsServiceImpl } from './settings';
import { WorkbenchContext, useWorkbench } from './workbench-context';
import { useLocale, useSession, useTheme } from '@decisio/sdk-plugin';

/** Options of {@link createWorkbench}. */
export interface WorkbenchOptions {
  plugins: readonly PluginManifest[];
  /** Router history; browser history by default. */
  history?: RouterHistory;
  /** Api root; `/api/` by default. */
  baseUrl?: string;
  fetchFn?: typeof fetch;
  /** Toasts; Blueprint `OverlayToaster` by default. */
  notifications?: NotificationService;
  /** Reload on a cross-tab user change; `location.reload` by default. */
  reload?: () => void;
}

/** A running workbench. */
export interface Workbench {
  host: PluginHost;
  router: WorkbenchRouter;
  store: WorkbenchStore;
  i18n: I18n;
  services: ServiceAccessor;
  session: SessionServiceImpl;
  locale: LocaleServiceImpl;
  theme: ThemeServiceImpl;
  layout: LayoutServiceImpl;
  settings: SettingsServiceImpl;
  commands: CommandServiceImpl;
  navigation: RouterNavigationService;
  notifications: NotificationService;
  /** Facts for `when` predicates. */
  whenContext(): WhenContext;
  dispose(): void;
}

/**
 * Builds and starts a workbench.
 * @throws PluginHostError when the plugins cannot be ordered or one fails to activate.
 */
export async function createWorkbench(options: WorkbenchOptions): Promise<Workbench> {
  const disposables = new DisposableStore();
  const i18n = createI18n(readStoredLocale());
  const locale = new LocaleServiceImpl(i18n);
  const theme = new ThemeServiceImpl(readStoredTheme());
  const notifications = options.notifications ?? new ToastNotificationService();
  const navigation = disposables.add(new RouterNavigationService());
  const layout = new LayoutServiceImpl();
  let store: WorkbenchStore;
  const session = new SessionServiceImpl(localStorage, () => store?.dispatch(baseApi.util.resetApiState()));
  store = createWorkbenchStore({
    baseQuery: createHostBaseQuery({
      baseUrl: options.baseUrl,
      fetchFn: options.fetchFn,
      getToken: () => session.getState().token,
      getUserId: () => session.getState().userId,
      getLanguage: () => locale.getLocale(),
      t: (k) => locale.t(k),
      toast: (message, intent, key) => void notifications.show({ message, intent, key }),
      signOut: () => {
        // Once: clearing resets the api cache, and the pages still open refetch, signed out; their
        // refusals must not clear (and reset, and refetch) again until the navigation removed them.
        const dropped = session.isSignedIn();
        if (dropped) session.clear();
        navigation.leave('/');
        return dropped;
      },
      passwordChangeRequired: () => requirePasswordChange(),
    }),
  });

  let host: PluginHost;
  const whenContext = (): WhenContext => {
    const loc = navigation.getLocation();
    const user = baseApi.endpoints['core/getUser'].select()(store.getState()).data;
    return {
      signedIn: session.isSignedIn(),
      locale: locale.getLocale(),
      theme: theme.getTheme(),
      pathname: loc.pathname,
      search: loc.search,
      user: user
        ? { isSystemRole: user.isSystemRole, isStudent: user.isStudent, isOperation: user.isOperation, roles: user.roleList.map((r) => r.code), permissions: user.permissions }
        : undefined,
    };
  };
  // The palette's gate (the user's menus and permissions, and those of the panels of the page a
  // command opens) for the palette and the keybindings alike.
  const commands = new CommandServiceImpl(
    () => host.commands,
    whenContext,
    () => ({ services: host.services, dispatch: store.dispatch }),
    (c) => commandAllowed(baseApi.endpoints['core/getUser'].select()(store.getState()).data, c, host.menuItems, host),
  );
  const settings = new SettingsServiceImpl(() => host.settings, () => session.getState().userId);

  host = new PluginHost({
    hostServices: new Map<string, unknown>([
      [sessionServiceRef.id, session],
      [notificationServiceRef.id, notifications],
      [navigationServiceRef.id, navigation],
      [localeServiceRef.id, locale],
      [themeServiceRef.id, theme],
      [commandServiceRef.id, commands],
      [layoutServiceRef.id, layout],
      [settingsServiceRef.id, settings],
      // The plugins' template contributions, read after `register` below.
      [templateCatalogServiceRef.id, templateCatalog(options.plugins.flatMap((p) => (p.templates ?? []).map((t) => ({ ...t, pluginId: p.id }))))],
    ]),
    dispatch: store.dispatch,
    registerLocales: (ns, bundles) => addPluginLocales(i18n, ns, bundles),
    injectEndpoints: (_id, builder) => void baseApi.injectEndpoints({ endpoints: builder as never, overrideExisting: false }),
    translate: (ns, key, params) => locale.t(`${ns}:${key}`, params),
  });
  host.register(options.plugins);

  // A temporary password (an administrator's add user or reset): the user goes to the
  // password-change page (the route marked `passwordChange`) and the router keeps them there
  // until `user/getUser` says the password was changed.
  const passwordChangePath = host.routes.find((r) => r.passwordChange)?.path;
  function requirePasswordChange(): void {
    session.setMustChangePassword(true);
    if (passwordChangePath && navigation.getLocation().pathname !== passwordChangePath) navigation.leave(passwordChangePath, { replace: true });
  }
  let seenUser: unknown;
  disposables.add(
    toDisposable(
      store.subscribe(() => {
        const user = baseApi.endpoints['core/getUser'].select()(store.getState()).data;
        if (user === seenUser) return;
        seenUser = user;
        if (!user || user.mustChangePassword === undefined || !session.isSignedIn()) return;
        if (user.mustChangePassword) requirePasswordChange();
        else session.setMustChangePassword(false);
      }),
    ),
  );

  const router = buildRouter({
    routes: host.routes,
    session,
    history: options.history,
    Root: RootLayout,
    // The console chrome (menus, popovers, dialogs) loads with the first console route.
    ConsoleShell: lazyRouteComponent(() => import('../shell/ConsoleShell'), 'ConsoleShell') as unknown as () => null,
    NotFound: NotFoundPage,
    renderDock: (route) => <DockRoute route={route} />,
  });
  navigation.attach(router);
  // A page with unsaved edits asks before any navigation leaves it.
  disposables.add(guardUnsavedChanges(router.history, unsavedChanges));

  await host.activate();
  disposables.add(host);
  if (typeof window !== 'undefined') {
    disposables.add(watchUserIdInOtherTabs(window, options.reload ?? (() => window.location.reload())));
    disposables.add(commands.bindKeys(window, /Mac|iPhone|iPad/.test(navigator.platform)));
  }
  // When the session ends (sign-out here, or a sign-out code), leave guarded pages.
  disposables.add(
    session.onDidChange((s) => {
      if (!s.token) {
        const path = navigation.getLocation().pathname;
        const route = host.routes.find((r) => r.path === path);
        if (!route?.public) navigation.leave('/');
      }
    }),
  );
  disposables.add(toDisposable(() => store.dispatch(baseApi.util.resetApiState())));

  return {
    host,
    router,
    store,
    i18n,
    services: host.services,
    session,
    locale,
    theme,
    layout,
    settings,
    commands,
    navigation,
    notifications,
    whenContext,
    dispose: () => disposables.dispose(),
  };
}

// dockview loads with the first route that shows a dock layout, not with the shell.
const DockLayout = lazy(() => import('../layout/DockLayout').then((m) => ({ default: m.DockLayout })));

/** The dock layout of a route with `panels`, wired to the workbench's services. */
function DockRoute(props: { route: Owned<RouteContribution> }) {
  const wb = useWorkbench();
  const session = useSession();
  const theme = useTheme();
  const locale = useLocale();
  const translate = useCallback((k: string) => wb.locale.t(k), [wb, locale]);
  useEffect(() => () => wb.layout.setController(null), [wb]);
  return (
    <Suspense fallback={<Spinner className="dc-boot" />}>
    <DockLayout
      layoutId={props.route.path}
      defaultPanels={props.route.panels ?? []}
      panels={wb.host.panels}
      userId={session.userId}
      theme={theme}
      translate={translate}
      onController={(c) => wb.layout.setController(c)}
      onDidLayoutChange={() => wb.layout.notifyChange()}
    />
    </Suspense>
  );
}

/** Renders a started workbench: providers and the router. */
export function WorkbenchRoot(props: { workbench: Workbench; strict?: boolean }) {
  const wb = props.workbench;
  const tree = (
    <WorkbenchContext.Provider value={wb}>
      <Provider store={wb.store}>
        <I18nextProvider i18n={wb.i18n}>
          <ServicesProvider services={wb.services}>
            <OverlaysProvider>
              <RouterProvider router={wb.router} />
            </OverlaysProvider>
          </ServicesProvider>
        </I18nextProvider>
      </Provider>
    </WorkbenchContext.Provider>
  );
  return props.strict ? <StrictMode>{tree}</StrictMode> : tree;
}
