/**
 * The pages of the menu catalogue (the `menus` rows the migrations seed): every side-menu entry of
 * the console is decided by one of them, so a role's menus (`roles/menuIds`) decide every entry.
 * An entry is decided by its `menu`, else the page it opens (`to`, else its first `activeOn`);
 * the pages of the project area (`/project/...`, `/workflow/...`) by the projects menu. The
 * workbench test checks that every plugin's side-menu entry lands on one of these, the server
 * test that the migrations seed them all.
 */
export const MENU_CATALOGUE_PAGES = [
  '/dashboard',
  '/all-project',
  '/template-center',
  '/dataset-manage',
  '/data-connection',
  '/hyperparameter',
  '/storage-manage',
  '/job',
  '/system-log',
  '/gfs/online-trial',
  '/ssh',
  '/sdk-licence',
  '/support',
  '/user-center/message',
  '/admin/users',
  '/admin/roles',
  '/admin/menus',
  '/admin/orgs',
  '/admin/tenants',
  '/admin/licences',
  '/admin/contacts',
] as const;

/** The page of the catalogue that stands for the whole project area. */
export const PROJECT_AREA_MENU = '/all-project';

/** True for a page of the project area (`/workflow`, `/workflow/...`, `/project/...`). */
export function inProjectAreaPath(path: string): boolean {
  return path === '/workflow' || path.startsWith('/workflow/') || path.startsWith('/project/');
}

/**
 * The catalogue page that decides a side-menu entry: its `menu`, else the page it opens (`to`,
 * else its first `activeOn`); a project-area page is decided by {@link PROJECT_AREA_MENU}.
 * Undefined when the entry names no page (such an entry is hidden from signed-in users).
 */
export function menuKeyOf(entry: { menu?: string | undefined; to?: string | undefined; activeOn?: readonly string[] | undefined }): string | undefined {
  const key = entry.menu ?? entry.to ?? entry.activeOn?.[0];
  if (key === undefined) return undefined;
  return inProjectAreaPath(key) ? PROJECT_AREA_MENU : key;
}
