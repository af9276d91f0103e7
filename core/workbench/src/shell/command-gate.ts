/**
 * Which palette commands and side-menu entries the user may see: a command carries the page it
 * opens (`opens`, set by `openPageCommand`), the catalogue page that decides it (`menu`) and the
 * permissions it needs (`permissions`); it shows only when the user's menus hold the page that
 * decides it, the user holds one of its permissions and may open the page's panels
 * ({@link pageAllowed}, the rule of the workbench's PermissionGate). Headless, so that it is tested alone.
 */
import { MENU_CATALOGUE_PAGES, PROJECT_AREA_MENU, inProjectAreaPath, menuKeyOf } from '@decisio/domain';
import {
  menuAllows,
  permissionsAllow,
  type CommandContribution,
  type MenuItemContribution,
  type PanelContribution,
  type RouteContribution,
  type WorkbenchUser,
} from '@decisio/sdk-plugin';

const CATALOGUE: readonly string[] = MENU_CATALOGUE_PAGES;

/** What {@link pageMenuKey} reads of a side-menu entry. */
export type SideEntry = Pick<MenuItemContribution, 'location' | 'menu' | 'to' | 'activeOn'>;

/**
 * The page of the menu catalogue that decides whether the user may reach `path`: the projects menu
 * for the project area; the catalogue page itself or the nearest one above it
 * (`/template-center/industry/coupon` -> `/template-center`); else the page deciding the
 * side-menu entry that opens `path` or is current on it (`/gfs/model` -> `/gfs/online-trial`).
 * Undefined when no catalogue page decides it (the user centre, public pages): no menu gate.
 */
export function pageMenuKey(path: string, sideEntries: readonly SideEntry[]): string | undefined {
  if (inProjectAreaPath(path)) return PROJECT_AREA_MENU;
  const above = CATALOGUE.filter((p) => path === p || path.startsWith(`${p}/`)).sort((a, b) => b.length - a.length)[0];
  if (above) return above;
  const entry = sideEntries.find((m) => m.location === 'side' && (m.to === path || (m.activeOn ?? []).includes(path)));
  return entry ? menuKeyOf(entry) : undefined;
}

/** The routes and panels {@link pageAllowed} looks the panels of a page up in (the plugin host's). */
export interface PageCatalogue {
  routes: readonly Pick<RouteContribution, 'path' | 'panels'>[];
  panels: readonly Pick<PanelContribution, 'id' | 'permissions'>[];
}

/**
 * Whether `user` may open something on the page at `path` (query and hash ignored): the route of
 * that path has no panels, or the user holds the permissions of one of its panels at least
 * (`PanelContribution.permissions`, checked by `permissionsAllow` as the PermissionGate does, so a
 * page that would show the user only "You have no right to open this page" is not offered). A path
 * no route has exactly (a parameter in the route's path) and a panel no plugin contributes are not gated.
 */
export function pageAllowed(user: WorkbenchUser | undefined, path: string, pages: PageCatalogue): boolean {
  const bare = path.split(/[?#]/)[0];
  const route = pages.routes.find((r) => r.path === bare);
  const ids = (route?.panels ?? []).map((p) => (typeof p === 'string' ? p : p.panel));
  if (!ids.length) return true;
  return ids.some((id) => permissionsAllow(user, pages.panels.find((p) => p.id === id)?.permissions));
}

/** The catalogue page that decides a command: its `menu`, else the one deciding the page it opens. */
export function commandMenuKey(command: Pick<CommandContribution, 'menu' | 'opens'>, sideEntries: readonly SideEntry[]): string | undefined {
  return command.menu ?? (command.opens === undefined ? undefined : pageMenuKey(command.opens, sideEntries));
}

/**
 * Whether the palette shows `command` to `user`: the user holds one of its `permissions`, the
 * user's menus hold the catalogue page that decides it and, given `pages`, the user may open the
 * page it opens ({@link pageAllowed}). A command with no gate shows to everyone; a gated one is
 * hidden while the user is not known yet (loading, failed).
 */
export function commandAllowed(
  user: WorkbenchUser | undefined,
  command: Pick<CommandContribution, 'menu' | 'opens' | 'permissions'>,
  sideEntries: readonly SideEntry[],
  pages?: PageCatalogue,
): boolean {
  if (!permissionsAllow(user, command.permissions)) return false;
  if (pages && command.opens !== undefined && !pageAllowed(user, command.opens, pages)) return false;
  const key = commandMenuKey(command, sideEntries);
  return key === undefined || menuAllows(user, key);
}
