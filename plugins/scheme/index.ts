/**
 * The scheme plugin (spec workflow §2.2): a solution's schemes (dimensions, types, aggregations,
 * period and range, filter, partial order) and their data processing. Manifest only.
 */
import { definePlugin } from '@decisio/sdk-plugin';
import { schemeEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const schemePlugin = definePlugin({
  id: 'scheme',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: schemeEndpoints,
  routes: [{ path: '/workflow/scheme', titleKey: 'panels.scheme', panels: ['scheme.list'] }],
  panels: [{ id: 'scheme.list', titleKey: 'panels.scheme', icon: 'layout-grid', load: () => import('./panels/SchemesPanel').then((m) => m.SchemesPanel) }],
});
