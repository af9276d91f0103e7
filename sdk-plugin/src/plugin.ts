/**
 * The plugin manifest and its contribution points. A manifest is plain data plus an optional
 * `activate`; everything heavy (panels, editors) sits behind `import()` loaders so that
 * importing a manifest costs almost nothing.
 */
import type { ComponentType } from 'react';
import type { $ZodType, output } from 'zod/v4/core';
import type { Dispatch } from '@reduxjs/toolkit';
import type { Locale, TemplateItem } from '@decisio/domain';
import type { Disposable } from './lifecycle';
import type { ServiceAccessor, ServiceRef, ThemeName } from './services';
import type { PluginEndpointBuilder } from './api';

/** Facts a `when` predicate can look at. */
export interface WhenContext {
  signedIn: boolean;
  locale: Locale;
  theme: ThemeName;
  /** Current path, e.g. `/dashboard`. */
  pathname: string;
  /** Current query parameters. */
  search: Record<string, string>;
  /** Role flags of the signed-in user, when known. */
  user?: {
    isSystemRole: boolean;
    isStudent: boolean;
    isOperation: boolean;
    roles: string[];
    /** Permissions of the user's roles (`'*'`: every one), when known. */
    permissions?: string[];
  };
}

/** Decides whether a command, menu item or keybinding is available right now. */
export type WhenPredicate = (ctx: WhenContext) => boolean;

/** Props every panel component receives. */
export interface PanelProps {
  /** Id of the dock panel instance (equals the contribution id for single-instance panels). */
  panelId: string;
  /** Parameters given when the panel was opened. */
  params?: Record<string, unknown>;
}

/** A loader of a component behind `import()`, e.g. `() => import('./panels/SignInPanel').then((m) => m.SignInPanel)`. */
export type ComponentLoader<P = object> = () => Promise<ComponentType<P>>;

/** Where a panel of a route's default layout goes, relative to the panel before it. */
export interface DefaultPanelPlacement {
  /** Panel contribution id. */
  panel: string;
  /** Relative to the previous panel: split `right`/`below`/..., or `within` (same tab group). */
  direction?: 'right' | 'left' | 'above' | 'below' | 'within';
  /** Open it in a floating group. */
  floating?: boolean;
  /** Initial width (for `left`/`right`) or height (for `above`/`below`) in px. */
  size?: number;
}

/**
 * A route of the app. Exactly one of `load` (a full-page component) or `panels` (a dock
 * layout built from panel contributions, saved per user) must be given.
 */
export interface RouteContribution {
  /** Absolute path, e.g. `/sign-in`, `/project/workbench`. Unique across plugins. */
  path: string;
  /** Translation key of the page title (`<pluginId>:...` or a key of the plugin's namespace). */
  titleKey: string;
  /** `true` for routes reachable without signing in (no auth guard). Default `false`. */
  public?: boolean;
  /**
   * `console` (header + side menu) or `bare` (the page alone). Default: `bare` for public
   * routes, `console` for the others.
   */
  chrome?: 'console' | 'bare';
  /** Full-page component loader. */
  load?: ComponentLoader;
  /** Default dock layout of this route (panel ids or placements). */
  panels?: readonly (string | DefaultPanelPlacement)[];
  /**
   * The page where a user changes their password. A user whose password an administrator set
   * (`mustChangePassword` of the sign-in answer or of `user/getUser`, or any `passwordChangeRequired`
   * answer) is taken there and kept there until the password is changed. One route at most.
   */
  passwordChange?: boolean;
}

/** A dockable panel. */
export interface PanelContribution {
  /** Namespaced id `<pluginId>.<name>`. */
  id: string;
  titleKey: string;
  /** Blueprint icon name. */
  icon?: string;
  load: ComponentLoader<PanelProps>;
  /**
   * Permissions of which the user needs at least one to open the panel (`'*'` holds every one),
   * e.g. the permission of the calls it makes (`ROUTE_PERMISSIONS` of `@decisio/domain`). The
   * workbench checks them before the panel loads: a user who holds none sees "You have no right
   * to open this page" and the panel neither renders nor calls the server (a refused call,
   * `userNotPermission`, would sign the user out). Default: no gate.
   */
  permissions?: readonly string[];
}

/**
 * Something a plugin floats over the pages (a step guide, a tour, a status card). The workbench
 * renders it inside its own React tree (same store, services, translations and theme) in the
 * root layout's overlay area, over every route. Its code loads with `import()` the first time
 * `when` holds; it is unmounted while `when` does not hold, so keep lasting state elsewhere
 * (local storage, the store).
 */
export interface OverlayContribution {
  /** Namespaced id `<pluginId>.<name>`. */
  id: string;
  /** The overlay component (it positions itself, e.g. `position: fixed`). */
  load: ComponentLoader;
  /**
   * Whether it shows now; looked at again on every navigation and on session, locale and
   * theme changes. Default: always.
   */
  when?: WhenPredicate;
  /**
   * `guide`: this overlay is the guide overlay (spec platform §2, query parameter `guide`)
   * wherever `when` holds, and the workbench's generic guide note gives way to it there.
   */
  kind?: 'guide';
}

/**
 * Something a plugin shows in the console header, before the language and theme switches (an
 * unread-messages bell, a status light). Its code loads with `import()` the first time `when`
 * holds; it renders in the workbench's tree (store, services, translations, theme) and keeps to
 * the header's height. A failing item disappears instead of taking the header down.
 */
export interface HeaderItemContribution {
  /** Namespaced id `<pluginId>.<name>`. */
  id: string;
  load: ComponentLoader;
  /** Whether it shows now (looked at on navigation and session, locale, theme changes). Default: always. */
  when?: WhenPredicate;
  /** Order among header items (lower first). Default 100. */
  order?: number;
}

/** A menu entry: navigates to `to` or runs `command`. */
export interface MenuItemContribution {
  /** Namespaced id `<pluginId>.<name>`. */
  id: string;
  titleKey: string;
  /** `side`: the console's side menu; `user`: the header's user menu. */
  location: 'side' | 'user';
  icon?: string;
  /** App path to go to. */
  to?: string;
  /** Command id to run. */
  command?: string;
  /**
   * The page of the menu catalogue whose role right decides this entry (`MENU_CATALOGUE_PAGES`
   * of `@decisio/domain`); default `to`, else the first `activeOn`, the project area's pages
   * being decided by the projects menu (`menuKeyOf`).
   */
  menu?: string;
  /** Sort order inside its location (lower first). Default 100. */
  order?: number;
  when?: WhenPredicate;
  /**
   * Paths where this entry shows as the current one (an entry with `to` is current on `to` and
   * below it already); for entries that run a command, e.g. `['/project/deploy']`.
   */
  activeOn?: readonly string[];
}

/** What a command handler gets. */
export interface CommandRunContext {
  services: ServiceAccessor;
  /** The store's dispatch, for `api.endpoints[...].initiate()`. */
  dispatch: Dispatch;
}

/**
 * A command: one object feeds the menus, the keybinding and the palette.
 */
export interface CommandContribution {
  /** Namespaced id `<pluginId>.<verb>`. */
  id: string;
  titleKey: string;
  /** Keybinding like `Mod+Shift+P` (`Mod` is Ctrl, or Cmd on macOS). */
  keybinding?: string;
  icon?: string;
  /**
   * Extra English search words for the command palette (the English title is searched in any
   * language already), e.g. `['service', 'publish']`.
   */
  keywords?: readonly string[];
  /** Leave it out of the command palette (still runs from menus and its keybinding). */
  hidden?: boolean;
  when?: WhenPredicate;
  /**
   * The app path the command opens (`openPageCommand` sets it from `to`). The palette shows the
   * command only when the user may reach that page: when a page of the menu catalogue decides it
   * (the page itself or the catalogue page above it, the projects menu for the project area, else
   * the side-menu entry that opens it or is current on it), the user's menus must hold that page.
   * A page no catalogue page decides (the user centre, a public page) is no gate.
   */
  opens?: string;
  /**
   * The page of the menu catalogue whose role right decides this command, when it is not the
   * one {@link opens} falls under (as a menu item's `menu`).
   */
  menu?: string;
  /**
   * Permissions of which the user needs at least one for the palette to show the command (`'*'`
   * holds every one), e.g. the permission of the calls the page makes (`ROUTE_PERMISSIONS` of
   * `@decisio/domain`). The server checks the calls anyway; this only keeps a command that would
   * fail out of the palette.
   */
  permissions?: readonly string[];
  run(ctx: CommandRunContext, ...args: unknown[]): unknown;
}

/**
 * A user setting; its form field is generated from the zod schema (boolean, number, string,
 * enum). Any zod 4 schema works; in manifests prefer `zod/mini` (`import { boolean } from
 * 'zod/mini'`), which tree-shakes to a few hundred bytes, so that the manifest stays light.
 */
export interface SettingContribution<S extends $ZodType = $ZodType> {
  /** Namespaced id `<pluginId>.<name>`. */
  id: string;
  titleKey: string;
  descriptionKey?: string;
  schema: S;
  default: output<S>;
}

/**
 * Validates a setting value with its schema through the Standard Schema interface that every
 * zod 4 schema carries (no parser import needed, which keeps zod out of the first load).
 * @returns `{ ok: true, value }` or `{ ok: false, message }` (the first issue's message).
 */
export function validateSetting(
  setting: Pick<SettingContribution, 'schema'>,
  value: unknown,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const r = setting.schema['~standard'].validate(value);
  if (r instanceof Promise) throw new Error('settings schemas must be synchronous');
  if (r.issues) return { ok: false, message: r.issues[0]?.message ?? 'invalid' };
  return { ok: true, value: r.value };
}

/**
 * The client side of an industry template offered in the template centre. The template itself
 * (data file, graph, reward, report renderer) is the server plugin's
 * (`@decisio/sdk-plugin/server`, `templates`); the template centre lists what the server
 * answers (`template/getTemplateList`), so a template needs no client part to show. This
 * contribution names it to the workbench (title and description in the plugin's bundles) and may
 * bring a view of its report.
 */
export interface TemplateContribution {
  /** Namespaced id `<pluginId>.<name>`. */
  id: string;
  /** Id of the server template (`ServerTemplateDefinition.id`), e.g. `electric`. */
  templateId?: string;
  titleKey: string;
  descriptionKey?: string;
  /** Industry tag, e.g. `electric`, `coupon`. */
  industry?: string;
  /**
   * A view of the template's report (the figures its report renderer measured) that replaces
   * the template centre's table of figures.
   */
  reportView?: ComponentLoader<TemplateReportViewProps>;
  /**
   * App path of a page that shows the template at work (e.g. a public demo, `/electric`); the
   * template centre's card links to it.
   */
  demoPath?: string;
  /** Loads more content of the template (kept for manifests written before `templateId`). */
  load?: () => Promise<unknown>;
}

/** Props of a template's report view. */
export interface TemplateReportViewProps {
  /** The template as `template/getTemplateList` answered it (its `report` is not null). */
  template: TemplateItem;
}

/** Translation bundles of a plugin, one per language, with the same keys (nested objects of strings). */
export type LocaleBundles = Record<Locale, Record<string, unknown>>;

/** What `activate` receives. */
export interface PluginContext {
  /** The plugin's own id. */
  readonly pluginId: string;
  /** Reads services (the workbench's and those of `requires`/`optional`). */
  readonly services: ServiceAccessor;
  /**
   * Hands over the implementation of a service this plugin declared in `provides`.
   * @throws Error when `ref` is not in `provides` or was already provided.
   */
  provide<T>(ref: ServiceRef<T>, impl: T): void;
  /** Registers a disposable released when the plugin is deactivated. */
  subscribe(d: Disposable): void;
  /** The store's dispatch. */
  readonly dispatch: Dispatch;
  /** Translates a key of this plugin's namespace. */
  t(key: string, params?: Record<string, unknown>): string;
}

/**
 * A plugin manifest. Build it with {@link definePlugin}.
 * Ids are stable and namespaced: the plugin id is kebab-case (`data-access`), contributions
 * are `<pluginId>.<name>`, endpoints `<pluginId>/<verb>`, translations live in the namespace
 * `<pluginId>`.
 */
export interface PluginManifest {
  /** Kebab-case unique id. */
  id: string;
  /** Services this plugin needs; the host fails loudly when no plugin provides one. */
  requires?: readonly ServiceRef<unknown>[];
  /** Services this plugin uses when present. */
  optional?: readonly ServiceRef<unknown>[];
  /** Services this plugin provides from `activate` with `ctx.provide`. */
  provides?: readonly ServiceRef<unknown>[];
  routes?: readonly RouteContribution[];
  panels?: readonly PanelContribution[];
  /** Overlays floated over the pages, rendered in the order of plugins then of this list. */
  overlays?: readonly OverlayContribution[];
  /** Items of the console header (left of the language and theme switches). */
  headerItems?: readonly HeaderItemContribution[];
  menuItems?: readonly MenuItemContribution[];
  commands?: readonly CommandContribution[];
  settings?: readonly SettingContribution[];
  /** Translation bundles: `{'zh-CN': {...}, 'en-US': {...}}`, registered as namespace `id`. */
  locales?: LocaleBundles;
  /**
   * RTK Query endpoints, injected into the base api at start (names `<pluginId>/<verb>`).
   * Pass the same builder function your `api.ts` gives to `definePluginApi`.
   */
  endpoints?: (build: PluginEndpointBuilder) => Record<string, unknown>;
  templates?: readonly TemplateContribution[];
  /** Runs once, after every plugin it requires; may be async. Return a disposable to clean up. */
  activate?(ctx: PluginContext): void | Disposable | Promise<void | Disposable>;
}

const PLUGIN_ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/**
 * Declares a plugin. Checks ids and contributions at once so that mistakes show at import
 * time, and returns the manifest frozen.
 *
 * @throws Error on a malformed plugin id, a contribution id not prefixed with `<id>.`, a
 *   route with neither or both of `load`/`panels`, a route path not starting with `/`, or a
 *   locale bundle other than `zh-CN`/`en-US`.
 */
export function definePlugin<const M extends PluginManifest>(manifest: M): Readonly<M> {
  const { id } = manifest;
  if (!PLUGIN_ID.test(id)) throw new Error(`plugin id "${id}" must be kebab-case`);
  const prefixed = (kind: string, items: readonly { id: string }[] | undefined) => {
    for (const item of items ?? []) {
      if (!item.id.startsWith(`${id}.`)) {
        throw new Error(`${kind} "${item.id}" of plugin "${id}" must be named "${id}.<name>"`);
      }
    }
  };
  prefixed('panel', manifest.panels);
  prefixed('overlay', manifest.overlays);
  prefixed('header item', manifest.headerItems);
  prefixed('menu item', manifest.menuItems);
  prefixed('command', manifest.commands);
  prefixed('setting', manifest.settings);
  prefixed('template', manifest.templates);
  for (const r of manifest.routes ?? []) {
    if (!r.path.startsWith('/')) throw new Error(`route "${r.path}" of plugin "${id}" must start with "/"`);
    if (!!r.load === !!r.panels) {
      throw new Error(`route "${r.path}" of plugin "${id}" needs exactly one of load or panels`);
    }
  }
  for (const m of manifest.menuItems ?? []) {
    if (!m.to === !m.command) throw new Error(`menu item "${m.id}" needs exactly one of to or command`);
  }
  if (manifest.locales) {
    for (const l of Object.keys(manifest.locales)) {
      if (l !== 'zh-CN' && l !== 'en-US') throw new Error(`plugin "${id}": unknown locale "${l}"`);
    }
  }
  return Object.freeze(manifest);
}
