/**
 * The data-connections plugin: `/data-connection`, saved links to MySQL / MariaDB and
 * PostgreSQL servers with a connection test and a browser of their tables and columns.
 * Manifest only; the panel loads with `import()`.
 */
import { definePlugin } from '@decisio/sdk-plugin';
import { connectionsEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const dataConnectionsPlugin = definePlugin({
  id: 'data-connections',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: connectionsEndpoints,
  routes: [{ path: '/data-connection', titleKey: 'title', panels: ['data-connections.list'] }],
  panels: [
    {
      id: 'data-connections.list',
      titleKey: 'panel',
      icon: 'data-connection',
      load: () => import('./panels/ConnectionsPanel').then((m) => m.ConnectionsPanel),
    },
  ],
  menuItems: [{ id: 'data-connections.menu', titleKey: 'menu', location: 'side', icon: 'data-connection', to: '/data-connection', order: 60 }],
});
