/**
 * Commands as data: a command that opens a screen of the project area carrying the project link
 * parameters of the current page (spec platform §2), so that one line of a manifest feeds the
 * side menu, the command palette and a keybinding.
 */
import type { CommandContribution, WhenPredicate } from './plugin';
import { projectLinkSearch, type ProjectLinkParams } from './project-link';
import { navigationServiceRef } from './services';

/** What {@link openPageCommand} needs. */
export interface OpenPageCommandSpec {
  /** Namespaced id `<pluginId>.<name>`. */
  id: string;
  titleKey: string;
  /** App path to open. */
  to: string;
  icon?: string;
  keybinding?: string;
  /** Extra English search words for the palette. */
  keywords?: readonly string[];
  when?: WhenPredicate;
  /** The catalogue page that decides the command when not the one `to` falls under (see `CommandContribution.menu`). */
  menu?: string;
  /** Permissions of which the user needs one (see `CommandContribution.permissions`). */
  permissions?: readonly string[];
  /**
   * Extra query parameters from the current ones (e.g. keep `serviceId`); their keys are added
   * to the carried project link parameters. Return `{ to }` to open another path instead.
   */
  extra?: (current: Record<string, string>) => { to?: string; search?: Record<string, string | undefined> } | undefined;
}

/** Paths of the project area: the workflow screens and the `/project/*` pages. */
export function inProjectArea(pathname: string): boolean {
  return pathname === '/workflow' || pathname.startsWith('/workflow/') || pathname.startsWith('/project/');
}

/**
 * A command that opens `to` keeping `guide`, `projectId`, `solutionId`, ... of the current page.
 * It carries `opens: to`, so that the palette shows it only to users who may reach that page.
 */
export function openPageCommand(spec: OpenPageCommandSpec): CommandContribution {
  const { extra, to, ...rest } = spec;
  return {
    ...rest,
    opens: to,
    run: ({ services }, overrides?: unknown) => {
      const nav = services.get(navigationServiceRef);
      const current = nav.getLocation().search;
      const more = extra?.(current);
      const search: Record<string, string | undefined> = { ...projectLinkSearch(current, (overrides ?? {}) as ProjectLinkParams), ...more?.search };
      nav.navigate(more?.to ?? to, { search });
    },
  };
}
