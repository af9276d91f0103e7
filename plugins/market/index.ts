/**
 * The model market (issue 20 item 5, `market/*`): `/model-market` lists the trained environments
 * and policies published to the caller's tenant or to every tenant, with search, kind and scope
 * filters; a model shows its graph, versions with their scores and report, imports a version into
 * a project as a copy, downloads a policy's ONNX; its publisher adds versions and unpublishes;
 * anyone publishes a trained environment or policy of a project they may edit. Manifest only:
 * the panel loads with `import()`.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { marketEndpoints } from './api';

/** The market's page. */
export const MARKET_PATH = '/model-market';

const signedIn = (c: WhenContext) => c.signedIn;

export const MARKET_COMMANDS = [
  openPageCommand({ id: 'market.open', titleKey: 'commands.open', to: MARKET_PATH, icon: 'shop', keywords: ['model', 'market', 'library', 'publish', 'import', 'onnx', '模型市场'], when: signedIn }),
  openPageCommand({ id: 'market.publish', titleKey: 'commands.publish', to: MARKET_PATH, icon: 'upload', keywords: ['publish', 'share', 'policy', 'environment', '发布'], when: signedIn, extra: () => ({ search: { publish: '1' } }) }),
];

export const marketPlugin = definePlugin({
  id: 'market',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: marketEndpoints,
  routes: [{ path: MARKET_PATH, titleKey: 'title', panels: ['market.main'] }],
  panels: [{ id: 'market.main', titleKey: 'panels.main', icon: 'shop', load: () => import('./panels/MarketPanel').then((m) => m.MarketPanel) }],
  commands: MARKET_COMMANDS,
  // The market belongs to the project area (projects:use): shown where the project list is.
  menuItems: [{ id: 'market.menu', titleKey: 'menu', location: 'side', icon: 'shop', to: MARKET_PATH, menu: '/all-project', order: 27 }],
});
