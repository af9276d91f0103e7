/**
 * `@decisio/sdk-plugin/testing`: a headless host for plugin tests (vitest + jsdom +
 * Testing Library). It gives a real store with the base api, a real i18next instance with the
 * plugin's bundles, in-memory workbench services, and a scripted server.
 *
 * @example
 * ```tsx
 * const host = createTestHost({ plugins: [accountPlugin], locale: 'en-US' });
 * host.mockCall('index/getPublicKey', { data: { keyId: 'k', spki, algorithm: 'RSA-OAEP-256' } });
 * await renderPanel(accountPlugin.routes[0], { host });
 * ```
 */
import { createElement, type ComponentType, type ReactElement } from 'react';
import { configureStore } from '@reduxjs/toolkit';
import { Provider } from 'react-redux';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { fireEvent, render, waitFor, type RenderResult } from '@testing-library/react';
import { codeName, DEFAULT_LOCALE, ErrorCode, LOCALES, type Locale } from '@decisio/domain';
import { baseApi, type ApiError, type ApiRequest, type SdkBaseQuery } from './api';
import { Emitter, type Disposable } from './lifecycle';
import { validateSetting, type PanelContribution, type PluginManifest, type RouteContribution, type SettingContribution } from './plugin';
import { ServicesProvider } from './react';
import {
  commandServiceRef,
  layoutServiceRef,
  localeServiceRef,
  navigationServiceRef,
  notificationServiceRef,
  sessionServiceRef,
  settingsServiceRef,
  templateCatalog,
  templateCatalogServiceRef,
  themeServiceRef,
  type AppLocation,
  type Notification,
  type ServiceAccessor,
  type ServiceRef,
  type SessionState,
  type ThemeName,
} from './services';

/** A signed-in test user's profile as `user/getUser` answers it (no menus): shared by the SDK's and the workbench's tests. */
export const TEST_USER_PROFILE = {
  userId: 'u1',
  username: 'alice_1',
  nickname: 'Alice',
  tenantId: 't1',
  avatarUrl: null,
  email: 'a@b.co',
  mobile: null,
  menuGroupId: null,
  roleList: [] as { id: string; code: string; name: string }[],
  isSystemRole: false,
  isStudent: false,
  isOperation: false,
  occupation: null,
  createdAt: '2026-01-01T00:00:00Z',
};

/** A scripted answer: an envelope (code 0 by default), `'timeout'`, `'network'`, or a function of the body. */
export type MockReply =
  | { code?: number; data?: unknown; message?: string; errors?: Record<string, string> }
  | 'timeout'
  | 'network';

/** Options of {@link createTestHost}. */
export interface TestHostOptions {
  /** Plugins whose locales, endpoints and commands are registered. */
  plugins?: readonly PluginManifest[];
  locale?: Locale;
  theme?: ThemeName;
  /** Start signed in. */
  session?: { token: string; userId: string };
  /** Start location. */
  location?: { pathname: string; search?: Record<string, string> };
}

/** The headless host. */
export interface TestHost {
  store: ReturnType<typeof createTestStore>;
  i18n: I18n;
  /** All services (the workbench's in-memory ones and those set with `provide`). */
  services: ServiceAccessor;
  /** Every call the code made, in order. */
  calls: { url: string; body: unknown }[];
  /** Every toast shown, in order. */
  toasts: Notification[];
  /** Every location navigated to, in order. */
  navigations: AppLocation[];
  /** Panels opened through the layout service. */
  openedPanels: string[];
  /** Scripts the answer of a call (`url` relative to `/api/`, e.g. `index/signIn`); a function may answer later (a promise). */
  mockCall(url: string, reply: MockReply | ((body: unknown) => MockReply | Promise<MockReply>)): void;
  /** Replaces or adds a service. */
  provide<T>(ref: ServiceRef<T>, impl: T): void;
  /** Current location. */
  location(): AppLocation;
  /**
   * The browser history so far, oldest first, as a browser keeps it: the start location, then one
   * entry per navigation, except that `replace` overwrites the current entry (and Back then skips
   * what was there); entries after the current one are dropped by a navigation.
   */
  history(): AppLocation[];
  /**
   * The browser's Back button: the previous history entry becomes the location (the screens
   * following the location hear it; `navigations` does not list it). False, and nothing moves,
   * at the first entry. Call it inside `act`.
   */
  back(): boolean;
  /** Current session. */
  session(): SessionState;
  /** Runs the `activate` of the plugins, in the given order. */
  activate(): Promise<void>;
  /** Runs a contributed command. */
  execute(commandId: string, ...args: unknown[]): Promise<unknown>;
  dispose(): void;
}

function createTestStore(baseQuery: SdkBaseQuery) {
  return configureStore({
    reducer: { [baseApi.reducerPath]: baseApi.reducer },
    middleware: (gdm) => gdm({ thunk: { extraArgument: { baseQuery } }, serializableCheck: false }).concat(baseApi.middleware),
  });
}

/** Creates a headless host (see the module comment). */
export function createTestHost(options: TestHostOptions = {}): TestHost {
  const plugins = options.plugins ?? [];
  const calls: TestHost['calls'] = [];
  const toasts: Notification[] = [];
  const navigations: AppLocation[] = [];
  const openedPanels: string[] = [];
  const mocks = new Map<string, MockReply | ((body: unknown) => MockReply | Promise<MockReply>)>();
  const disposables: Disposable[] = [];

  const baseQuery: SdkBaseQuery = async (args) => {
    const req: ApiRequest = typeof args === 'string' ? { url: args } : args;
    const url = req.url.replace(/^\/+/, '');
    calls.push({ url, body: req.body });
    const m = mocks.get(url);
    const reply = typeof m === 'function' ? await m(req.body) : m;
    const fail = (e: Omit<ApiError, 'handled'>) => ({ error: { ...e, handled: false } as ApiError });
    if (reply === undefined) return fail({ kind: 'network', code: -1, message: `no mock for "${url}" (use host.mockCall)` });
    if (reply === 'timeout') return fail({ kind: 'timeout', code: ErrorCode.timeout, codeName: 'timeout', message: 'timeout' });
    if (reply === 'network') return fail({ kind: 'network', code: -1, message: 'network' });
    const code = reply.code ?? 0;
    if (code !== 0) {
      return fail({ kind: 'api', code, codeName: codeName(code), message: reply.message ?? codeName(code) ?? 'error', errors: reply.errors, status: 400 });
    }
    return { data: reply.data ?? null };
  };
  const store = createTestStore(baseQuery);

  const i18n = i18next.createInstance();
  void i18n.use(initReactI18next).init({
    lng: options.locale ?? DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    resources: {},
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
  });
  for (const p of plugins) {
    for (const l of LOCALES) if (p.locales?.[l]) i18n.addResourceBundle(l, p.id, p.locales[l], true, true);
    if (p.endpoints) baseApi.injectEndpoints({ endpoints: p.endpoints as never, overrideExisting: false });
  }

  // --- in-memory workbench services -------------------------------------------------------
  let sessionState: SessionState = { token: options.session?.token ?? null, userId: options.session?.userId ?? null };
  const sessionChanged = new Emitter<SessionState>();
  const session = {
    getState: () => sessionState,
    isSignedIn: () => !!sessionState.token,
    signIn: (s: { accessToken: string; userId: string }) => {
      sessionState = { token: s.accessToken, userId: s.userId };
      sessionChanged.fire(sessionState);
    },
    clear: () => {
      sessionState = { token: null, userId: null };
      store.dispatch(baseApi.util.resetApiState());
      sessionChanged.fire(sessionState);
    },
    onDidChange: sessionChanged.event,
  };
  let location: AppLocation = { pathname: options.location?.pathname ?? '/', search: options.location?.search ?? {} };
  const history: AppLocation[] = [location];
  let at = 0;
  const navigated = new Emitter<AppLocation>();
  const clean = (s?: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries(s ?? {}).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string>;
  const navigation = {
    getLocation: () => location,
    navigate: (to: string, o?: { search?: Record<string, string | undefined>; replace?: boolean }) => {
      location = { pathname: to, search: clean(o?.search) };
      if (!o?.replace) at += 1;
      history.splice(at, history.length - at, location);
      navigations.push(location);
      navigated.fire(location);
    },
    href: (to: string, search?: Record<string, string | undefined>) => {
      const q = new URLSearchParams(clean(search)).toString();
      return q ? `${to}?${q}` : to;
    },
    onDidNavigate: navigated.event,
  };
  const localeChanged = new Emitter<Locale>();
  const locale = {
    getLocale: () => (i18n.language === 'en-US' ? 'en-US' : 'zh-CN') as Locale,
    setLocale: (l: Locale) => {
      void i18n.changeLanguage(l);
      localeChanged.fire(l);
    },
    t: (key: string, params?: Record<string, unknown>) => i18n.t(key, params as never) as unknown as string,
    onDidChangeLocale: localeChanged.event,
  };
  let theme: ThemeName = options.theme ?? 'light';
  const themeChanged = new Emitter<ThemeName>();
  const themeService = {
    getTheme: () => theme,
    setTheme: (x: ThemeName) => {
      theme = x;
      themeChanged.fire(x);
    },
    onDidChangeTheme: themeChanged.event,
  };
  let toastSeq = 0;
  const notifications = {
    show: (n: Notification) => {
      toasts.push(n);
      return n.key ?? `t${++toastSeq}`;
    },
    dismiss: () => {},
  };
  const commandsList = plugins.flatMap((p) => p.commands ?? []);
  const registry = new Map<string, unknown>();
  const services: ServiceAccessor = {
    get<T>(ref: ServiceRef<T>): T {
      if (!registry.has(ref.id)) throw new Error(`service "${ref.id}" is not provided in the test host`);
      return registry.get(ref.id) as T;
    },
    getOptional<T>(ref: ServiceRef<T>): T | undefined {
      return registry.get(ref.id) as T | undefined;
    },
  };
  const commands = {
    execute: async (id: string, ...args: unknown[]) => {
      const c = commandsList.find((x) => x.id === id);
      if (!c) throw new Error(`unknown command "${id}"`);
      return c.run({ services, dispatch: store.dispatch }, ...args);
    },
    isEnabled: (id: string) => commandsList.some((x) => x.id === id),
  };
  const layoutChanged = new Emitter<void>();
  const layout = {
    openPanel: (id: string) => void openedPanels.push(id),
    resetLayout: () => {},
    onDidLayoutChange: layoutChanged.event,
  };
  const settingsList: SettingContribution[] = plugins.flatMap((p) => [...(p.settings ?? [])]);
  const settingValues = new Map<string, unknown>();
  const settingChanged = new Emitter<{ id: string; value: unknown }>();
  const settings = {
    get: <T>(id: string): T => {
      const s = settingsList.find((x) => x.id === id);
      if (!s) throw new Error(`unknown setting "${id}"`);
      return (settingValues.has(id) ? settingValues.get(id) : s.default) as T;
    },
    set: (id: string, value: unknown) => {
      const s = settingsList.find((x) => x.id === id);
      if (!s) throw new Error(`unknown setting "${id}"`);
      const r = validateSetting(s, value);
      if (!r.ok) throw new Error(`setting "${id}": ${r.message}`);
      settingValues.set(id, r.value);
      settingChanged.fire({ id, value });
    },
    onDidChangeSetting: settingChanged.event,
  };
  registry.set(sessionServiceRef.id, session);
  registry.set(navigationServiceRef.id, navigation);
  registry.set(localeServiceRef.id, locale);
  registry.set(themeServiceRef.id, themeService);
  registry.set(notificationServiceRef.id, notifications);
  registry.set(commandServiceRef.id, commands);
  registry.set(layoutServiceRef.id, layout);
  registry.set(settingsServiceRef.id, settings);
  registry.set(templateCatalogServiceRef.id, templateCatalog(plugins.flatMap((p) => (p.templates ?? []).map((t) => ({ ...t, pluginId: p.id })))));

  return {
    store,
    i18n,
    services,
    calls,
    toasts,
    navigations,
    openedPanels,
    mockCall: (url, reply) => void mocks.set(url.replace(/^\/+/, ''), reply),
    provide: (ref, impl) => void registry.set(ref.id, impl),
    location: () => location,
    history: () => history.slice(),
    back: () => {
      if (at === 0) return false;
      at -= 1;
      location = history[at]!;
      navigated.fire(location);
      return true;
    },
    session: () => sessionState,
    activate: async () => {
      for (const p of plugins) {
        if (!p.activate) continue;
        const r = await p.activate({
          pluginId: p.id,
          services,
          provide: (ref, impl) => void registry.set(ref.id, impl),
          subscribe: (d) => void disposables.push(d),
          dispatch: store.dispatch,
          t: (key, params) => locale.t(`${p.id}:${key}`, params),
        });
        if (r) disposables.push(r);
      }
    },
    execute: (id, ...args) => commands.execute(id, ...args),
    dispose: () => {
      for (const d of disposables.reverse()) d.dispose();
      store.dispatch(baseApi.util.resetApiState());
    },
  };
}

/**
 * A call held back until the test lets it go: a mocked reply awaits `wait`, the test checks what
 * the screen shows meanwhile (the loading state, never the previous record's data), then calls
 * `release()`.
 */
export function heldBack(): { wait: Promise<void>; release(): void } {
  let release = () => {};
  // The executor runs at once: `release` is already the promise's resolve here.
  const wait = new Promise<void>((resolve) => (release = resolve));
  return { wait, release };
}

/**
 * Clicks a button whose call a test holds back (`heldBack`), as a browser would see it: the
 * button has the focus, turns busy (Blueprint's `loading` disables it), and the browser drops the
 * focus to the page, which jsdom does not do by itself. The test then lets the call go and
 * checks where the focus comes back (`BusyButton`, `useFocusBackWhenDone`).
 */
export async function pressBusy(button: HTMLButtonElement): Promise<void> {
  button.focus();
  fireEvent.click(button);
  await waitFor(() => {
    if (!button.disabled) throw new Error(`pressBusy: '${button.textContent ?? ''}' did not turn busy`);
  });
  button.blur();
  if (document.activeElement !== document.body) throw new Error('pressBusy: the focus did not drop to the page');
}

/** Wraps an element in the providers a panel expects (store, i18n, services). */
export function withHost(host: TestHost, element: ReactElement): ReactElement {
  const services = createElement(ServicesProvider, { services: host.services, children: element });
  const i18n = createElement(I18nextProvider, { i18n: host.i18n, children: services });
  return createElement(Provider, { store: host.store, children: i18n });
}

/** What {@link renderPanel} renders: a component, or a panel/route contribution (loaded first). */
export type Renderable = ComponentType<Record<string, unknown>> | PanelContribution | RouteContribution;

/**
 * Renders a panel (or a route's page) inside a test host. Contributions are loaded through
 * their `load()` first, exactly as the workbench does.
 * @returns Testing Library's result plus the host.
 */
export async function renderPanel(
  what: Renderable,
  options: { host?: TestHost; props?: Record<string, unknown> } & TestHostOptions = {},
): Promise<RenderResult & { host: TestHost }> {
  const host = options.host ?? createTestHost(options);
  let Component: ComponentType<Record<string, unknown>>;
  if (typeof what === 'function') Component = what;
  else if ('load' in what && what.load) Component = (await what.load()) as ComponentType<Record<string, unknown>>;
  else throw new Error('renderPanel: a route with panels has no single component; render its panels');
  const props = { panelId: 'id' in what ? (what as PanelContribution).id : 'test', ...options.props };
  const result = render(withHost(host, createElement(Component, props)));
  return Object.assign(result, { host });
}

/**
 * A stand-in for the browser's `EventSource` a test drives by hand (`vi.stubGlobal('EventSource',
 * ScriptedEventSource)`): every stream opened is in `ScriptedEventSource.all` (clear it after each
 * test); `emit('open')`, `emit('state', view)`, `emit('error')` deliver an event to its listeners.
 */
export class ScriptedEventSource {
  static all: ScriptedEventSource[] = [];
  readonly listeners = new Map<string, Array<(e: { data?: string }) => void>>();
  closed = false;
  constructor(readonly url: string) {
    ScriptedEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: { data?: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  /** Delivers an event (`data` is sent as JSON). */
  emit(type: string, data?: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn(data === undefined ? {} : { data: JSON.stringify(data) });
  }
  close() {
    this.closed = true;
  }
}
