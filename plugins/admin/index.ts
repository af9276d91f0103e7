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
  { key: 'users', icon: 'people', keywords: ['users', 'accounts', 'password', 'reset'], load: () => import('./panels/UsersPanel').then((m) => m.UsersPanel) },
  { key: 'roles', icon: 'key', keywords: ['roles', 'permissions', 'matrix', 'access'], load: () => import('./panels/RolesPanel').then((m) => m.RolesPanel) },
  { key: 'menus', icon: 'menu', keywords: ['menus', 'navigation'], load: () => import('./panels/MenusPanel').then((m) => m.MenusPanel) },
  { key: 'orgs', icon: 'diagram-tree', keywords: ['organisations', 'organizations', 'departments', 'teams'], load: () => import('./panels/OrgsPanel').then((m) => m.OrgsPanel) },
  { key: 'tenants', icon: 'office', keywords: ['tenants', 'quotas', 'invitation'], load: () => import('./panels/TenantsPanel').then((m) => m.TenantsPanel) },
] as const;

export const adminPlugin = definePlugin({
  id: 'admin',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: adminEndpoints,
  routes: SCREENS.map((s) => ({ path: `/admin/${s.key}`, titleKey: `${s.key}.title`, panels: [`admin.${s.key}`] })),
  panels: SCREENS.map((s) => ({ id: `admin.${s.key}`, titleKey: `${s.key}.title`, icon: s.icon, load: s.load })),
  menuItems: SCREENS.map((s, i) => ({ id: `admin.menu-${s.key}`, titleKey: `${s.key}.title`, location: 'side' as const, icon: s.icon, to: `/admin/${s.key}`, order: 900 + i })),
  commands: SCREENS.map((s) => openPageCommand({ id: `admin.open-${s.key}`, titleKey: `commands.${s.key}`, to: `/admin/${s.key}`, icon: s.icon, keywords: ['admin', ...s.keywords], when: signedIn })),
});
