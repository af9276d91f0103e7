/**
 * The template storehouse (issue 20 item 3, `templateWarehouse/*`): `/template-storehouse` lists
 * the templates with the fields their tables hold; the recognizer matches one of the user's
 * datasets to them (score and proposed field mapping); the user accepts or edits the mapping and
 * gets a project made from the template with their own data. Manifest only: the panel loads with
 * `import()`.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { storehouseEndpoints } from './api';

/** The storehouse's page. */
export const STOREHOUSE_PATH = '/template-storehouse';

const signedIn = (c: WhenContext) => c.signedIn;

export const STOREHOUSE_COMMANDS = [
  openPageCommand({ id: 'storehouse.open', titleKey: 'commands.open', to: STOREHOUSE_PATH, icon: 'box', keywords: ['template', 'storehouse', 'warehouse', 'match', 'recognize', 'mapping', '模板仓库', '识别'], when: signedIn }),
];

export const storehousePlugin = definePlugin({
  id: 'storehouse',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: storehouseEndpoints,
  routes: [{ path: STOREHOUSE_PATH, titleKey: 'title', panels: ['storehouse.main'] }],
  panels: [{ id: 'storehouse.main', titleKey: 'panels.main', icon: 'box', load: () => import('./panels/StorehousePanel').then((m) => m.StorehousePanel) }],
  commands: STOREHOUSE_COMMANDS,
  // Shown where the template centre is: the storehouse is part of the template area (templates:use).
  menuItems: [{ id: 'storehouse.menu', titleKey: 'menu', location: 'side', icon: 'box', to: STOREHOUSE_PATH, menu: '/template-center', order: 26 }],
});
