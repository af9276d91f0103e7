/**
 * The admin plugin: users (`/admin/users`), roles and their menu/permission matrix
 * (`/admin/roles`), the menu catalogue (`/admin/menus`), organisations (`/admin/orgs`) and tenants
 * (`/admin/tenants`). Each is a side-menu entry and a palette command; the side menu shows them
 * only to roles whose menus hold them. Manifest only; the panels load with `import()`.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import { adminEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

const signedIn = (c: WhenContext) => c.signedIn;

const SCREENS = [
  { key: 'users', permission: 'users:read', icon: 'people', keywords: ['users', 'accounts', 'password', 'reset'], load: () => import('./panels/UsersPanel').then((m) => m.UsersPanel) },
  { key: 'roles', permission: 'roles:read', icon: 'key', keywords: ['roles', 'permissions', 'matrix', 'access'], load: () => import('./panels/RolesPanel').then((m) => m.RolesPanel) },
  { key: 'menus', permission: 'menus:read', icon: 'menu', keywords: ['menus', 'navigation'], load: () => import('./panels/MenusPanel').then((m) => m.MenusPanel) },
  { key: 'orgs', permission: 'orgs:read', icon: 'diagram-tree', keywords: ['organisations', 'organizations', 'departments', 'teams'], load: () => import('./panels/OrgsPanel').then((m) => m.OrgsPanel) },
  { key: 'tenants', permission: 'tenants:read', icon: 'office', keywords: ['tenants', 'quotas', 'invitation'], load: () => import('./panels/TenantsPanel').then((m) => m.TenantsPanel) },
] as const;

export const adminPlugin = definePlugin({
  id: 'admin',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: adminEndpoints,
  routes: SCREENS.map((s) => ({ path: `/admin/${s.key}`, titleKey: `${s.key}.title`, panels: [`admin.${s.key}`] })),
  // Each panel needs the read permission of its calls (ROUTE_PERMISSIONS): without it the workbench shows
  // the refusal state instead of calling the server (a refused call signs the user out).
  panels: SCREENS.map((s) => ({ id: `admin.${s.key}`, titleKey: `${s.key}.title`, icon: s.icon, load: s.load, permissions: [s.permission] })),
  menuItems: SCREENS.map((s, i) => ({ id: `admin.menu-${s.key}`, titleKey: `${s.key}.title`, location: 'side' as const, icon: s.icon, to: `/admin/${s.key}`, order: 900 + i })),
  commands: SCREENS.map((s) => openPageCommand({ id: `admin.open-${s.key}`, titleKey: `commands.${s.key}`, to: `/admin/${s.key}`, icon: s.icon, keywords: ['admin', ...s.keywords], when: signedIn })),
});
