/**
 * Typed service references and the services the workbench itself provides to every plugin.
 *
 * A service is an interface + a ref made with {@link createServiceRef} + an implementation a
 * plugin hands over with `ctx.provide(ref, impl)` in its `activate`. Other plugins name the
 * ref in `requires` (or `optional`) and read it with `ctx.services.get(ref)` or, in React,
 * `useService(ref)`. The host orders plugins so that providers activate before consumers.
 */
import type { CurrentUser, Locale } from '@decisio/domain';
import type { Disposable, Event } from './lifecycle';
import type { TemplateContribution } from './plugin';

/**
 * A typed, named handle on a service. Ids are namespaced and stable: `<plugin>.<service>`.
 * The type parameter exists only at compile time.
 */
export interface ServiceRef<T> {
  /** Stable namespaced id, e.g. `projects.repository`. */
  readonly id: string;
  /** Phantom field carrying the service type; never set at run time. */
  readonly __service?: T;
}

/**
 * Creates a {@link ServiceRef}. Create each ref once, in the module that defines the service
 * interface, and export both.
 *
 * @throws Error when `id` is not of the form `<namespace>.<name>`.
 */
export function createServiceRef<T>(id: string): ServiceRef<T> {
  if (!/^[a-z][a-zA-Z0-9-]*(\.[a-zA-Z0-9-]+)+$/.test(id)) {
    throw new Error(`service ref id "${id}" must be namespaced like "<plugin>.<service>"`);
  }
  return Object.freeze({ id }) as ServiceRef<T>;
}

/** Reads services. Handed to `activate(ctx)` as `ctx.services` and to command handlers. */
export interface ServiceAccessor {
  /**
   * Returns the implementation of `ref`.
   * @throws Error when nothing provides it (declare it in `requires` so the host checks early).
   */
  get<T>(ref: ServiceRef<T>): T;
  /** Returns the implementation of `ref`, or `undefined` when no plugin provides it. */
  getOptional<T>(ref: ServiceRef<T>): T | undefined;
}

// ---------------------------------------------------------------------------------------------
// Services provided by the workbench (always present; no need to list them in `requires`).
// ---------------------------------------------------------------------------------------------

/** What the session service knows about the signed-in user. */
export interface SessionState {
  /** Token kept in local storage (sent as `Authorization`), or `null` when signed out or expired. */
  token: string | null;
  /** User id from local storage `userId`, or `null`. */
  userId: string | null;
}

/**
 * The signed-in session: token + `userId` in local storage (spec platform §7). The server's
 * `token` cookie is HttpOnly: it authenticates what the browser fetches by itself (event
 * streams, downloads) and no script reads it. Provided by the workbench.
 */
export interface SessionService {
  /** Current state; cheap, read it as often as needed. */
  getState(): SessionState;
  /** `true` when an unexpired token is kept. */
  isSignedIn(): boolean;
  /**
   * Stores a new session after `index/signIn` (the server has set the cookie): keeps the token
   * (expiring at `expiresAt`, ISO date) and `userId` in local storage, and whether the password
   * must be changed first (`mustChangePassword`: the workbench then keeps the user on the
   * password-change page); fires {@link SessionService.onDidChange}.
   */
  signIn(session: { accessToken: string; userId: string; expiresAt?: string; mustChangePassword?: boolean }): void;
  /** Clears local storage and the api cache; fires {@link SessionService.onDidChange}. */
  clear(): void;
  /** Fires after every change of the session (sign-in, sign-out, expiry). */
  readonly onDidChange: Event<SessionState>;
}

/** Toast intents, mapped onto Blueprint's. */
export type NotificationIntent = 'none' | 'primary' | 'success' | 'warning' | 'danger';

/** One toast. Shown for `LIMITS.notificationMs` (3 s) unless `timeoutMs` says otherwise. */
export interface Notification {
  /** Already translated text. */
  message: string;
  intent?: NotificationIntent;
  /** Blueprint icon name. */
  icon?: string;
  timeoutMs?: number;
  /** Toasts with the same key replace each other instead of stacking. */
  key?: string;
}

/** Toasts (Blueprint `OverlayToaster`). Provided by the workbench. */
export interface NotificationService {
  /** Shows a toast; returns its key. */
  show(notification: Notification): string;
  /** Hides a toast by key. */
  dismiss(key: string): void;
}

/** A location inside the app: path and query parameters. */
export interface AppLocation {
  pathname: string;
  /** Query parameters as strings. */
  search: Record<string, string>;
}

/** Moves between routes. Provided by the workbench (TanStack Router underneath). */
export interface NavigationService {
  /** Current location. */
  getLocation(): AppLocation;
  /** Goes to `to` (an app path such as `/dashboard`) with optional query parameters. */
  navigate(to: string, options?: { search?: Record<string, string | undefined>; replace?: boolean }): void;
  /** Builds the href of an app path with query parameters (for `<a href>`). */
  href(to: string, search?: Record<string, string | undefined>): string;
  /** Fires after every navigation. */
  readonly onDidNavigate: Event<AppLocation>;
}

/** The interface language. Provided by the workbench (i18next underneath). */
export interface LocaleService {
  getLocale(): Locale;
  /** Switches language; the choice is kept in local storage. */
  setLocale(locale: Locale): void;
  /** Translates a namespaced key `ns:key.path` (or a key of the `workbench` namespace). */
  t(key: string, params?: Record<string, unknown>): string;
  readonly onDidChangeLocale: Event<Locale>;
}

/** Light or dark. */
export type ThemeName = 'light' | 'dark';

/** Blueprint light/dark themes (`bp6-dark` on `<body>`). Provided by the workbench. */
export interface ThemeService {
  getTheme(): ThemeName;
  /** Switches theme; the choice is kept in local storage. */
  setTheme(theme: ThemeName): void;
  readonly onDidChangeTheme: Event<ThemeName>;
}

/** Runs contributed commands by id. Provided by the workbench. */
export interface CommandService {
  /**
   * Runs a command by id.
   * @throws Error for an unknown id; rejects with the handler's error.
   */
  execute(id: string, ...args: unknown[]): Promise<unknown>;
  /** `true` when a command with this id is registered and its `when` predicate holds. */
  isEnabled(id: string): boolean;
}

/** The dock layout of the current route. Provided by the workbench. */
export interface LayoutService {
  /** Opens (or focuses) a contributed panel in the current dock layout. */
  openPanel(panelId: string, options?: { params?: Record<string, unknown>; floating?: boolean }): void;
  /** Drops the saved layout of the current route and rebuilds the default one. */
  resetLayout(): void;
  /** Fires when the layout changes (panel moved, added, closed, resized). */
  readonly onDidLayoutChange: Event<void>;
}

/** Values of contributed settings, validated by their zod schemas. Provided by the workbench. */
export interface SettingsService {
  /** Current value of a setting (its default when never set). @throws Error for an unknown id. */
  get<T = unknown>(id: string): T;
  /** Validates and stores a value. @throws Error when the schema rejects it. */
  set(id: string, value: unknown): void;
  readonly onDidChangeSetting: Event<{ id: string; value: unknown }>;
}

/** Provided by the workbench: the signed-in session. */
export const sessionServiceRef = createServiceRef<SessionService>('workbench.session');
/** Provided by the workbench: toasts. */
export const notificationServiceRef = createServiceRef<NotificationService>('workbench.notifications');
/** Provided by the workbench: navigation. */
export const navigationServiceRef = createServiceRef<NavigationService>('workbench.navigation');
/** Provided by the workbench: language. */
export const localeServiceRef = createServiceRef<LocaleService>('workbench.locale');
/** Provided by the workbench: theme. */
export const themeServiceRef = createServiceRef<ThemeService>('workbench.theme');
/** Provided by the workbench: commands. */
export const commandServiceRef = createServiceRef<CommandService>('workbench.commands');
/** Provided by the workbench: the dock layout. */
export const layoutServiceRef = createServiceRef<LayoutService>('workbench.layout');
/** Provided by the workbench: settings. */
export const settingsServiceRef = createServiceRef<SettingsService>('workbench.settings');

/** A template contribution with the id of the plugin that made it. */
export type OwnedTemplateContribution = TemplateContribution & { readonly pluginId: string };

/** The template contributions of every plugin (`templates` of the manifests), read-only. */
export interface TemplateCatalogService {
  /** Every contribution, in plugin order. */
  list(): readonly OwnedTemplateContribution[];
  /** The contribution for a server template id (`templateId`), if a plugin made one. */
  forTemplate(templateId: string): OwnedTemplateContribution | undefined;
}
/** Provided by the workbench: the plugins' template contributions (the template centre reads them). */
export const templateCatalogServiceRef = createServiceRef<TemplateCatalogService>('workbench.templates');

/** A {@link TemplateCatalogService} over a list of contributions. */
export function templateCatalog(list: readonly OwnedTemplateContribution[]): TemplateCatalogService {
  return { list: () => list, forTemplate: (id) => list.find((t) => t.templateId === id) };
}

/** Ids of the services every host provides before any plugin activates. */
export const WORKBENCH_SERVICE_IDS: readonly string[] = [
  templateCatalogServiceRef.id,
  sessionServiceRef.id,
  notificationServiceRef.id,
  navigationServiceRef.id,
  localeServiceRef.id,
  themeServiceRef.id,
  commandServiceRef.id,
  layoutServiceRef.id,
  settingsServiceRef.id,
];

/** The user as returned by `user/getUser`: the domain's {@link CurrentUser} plus menus. */
export type WorkbenchUser = CurrentUser & {
  /** Permissions of the user's roles (`user/getUser`). */
  permissions?: string[];
  /** The menu tree the user's roles allow (`user/getUser`). */
  menus?: { path: string | null; children: unknown[] }[];
  /** Every page path of the menu catalogue. */
  menuPaths?: string[];
};

/**
 * Whether a side-menu entry decided by the catalogue page `key` (`menuKeyOf(entry)` of
 * `@decisio/domain`: its `menu`, `to` or first `activeOn`, the project area by the projects menu)
 * shows for `user`: only when the user's menus (their roles' menus) hold that page. An entry that
 * names no page is hidden. Before the user is known (still loading, or the call failed) nothing
 * is allowed: the shell shows a loading or retry state then, never the unfiltered entries; a user
 * without menus sees none.
 */
export function menuAllows(user: WorkbenchUser | undefined, key: string | undefined): boolean {
  if (!user?.menus || !key) return false;
  const walk = (nodes: readonly { path: string | null; children: unknown[] }[]): boolean =>
    nodes.some((n) => n.path === key || walk(n.children as { path: string | null; children: unknown[] }[]));
  return walk(user.menus);
}

/**
 * Whether `user` holds one of `needs` (`'*'` holds every one). No `needs` (undefined, `null` as in
 * `ROUTE_PERMISSIONS`, or empty) is no gate; otherwise a user not known yet holds none.
 */
export function permissionsAllow(user: Pick<WorkbenchUser, 'permissions'> | undefined, needs: readonly string[] | null | undefined): boolean {
  if (!needs || needs.length === 0) return true;
  const held = user?.permissions ?? [];
  return held.includes('*') || needs.some((p) => held.includes(p));
}

/** Helper kept for plugins that hold several disposables keyed by id. */
export type DisposableMap = Map<string, Disposable>;
