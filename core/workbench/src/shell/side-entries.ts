/**
 * The side menu's entries for the signed-in user, read by the side menu and by the palette's
 * "Go to ..." entries alike, so that both offer the same pages.
 */
import { menuKeyOf } from '@decisio/domain';
import { menuAllows, type MenuItemContribution, type WorkbenchUser } from '@decisio/sdk-plugin';
import type { Owned } from '../host/plugin-host';
import type { Workbench } from '../host/workbench';
import { pageAllowed } from './command-gate';

/**
 * The `location: 'side'` menu items `user` sees, in `order`: those whose `when` holds, whose page
 * of the menu catalogue the user's menus hold (`menuAllows` of `menuKeyOf`) and whose page the
 * user may open (`pageAllowed`: a page whose panels all declare permissions the user lacks would
 * show only the refusal, e.g. `/job` or `/system-log` to a system role without `jobs:read` or
 * `logs:read`). None while the user is not known (`undefined`).
 */
export function sideMenuEntries(wb: Workbench, user: WorkbenchUser | undefined): Owned<MenuItemContribution>[] {
  const ctx = wb.whenContext();
  return wb.host.menuItems
    .filter((m) => m.location === 'side' && (!m.when || m.when(ctx)) && menuAllows(user, menuKeyOf(m)) && (!m.to || pageAllowed(user, m.to, wb.host)))
    .sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
}
