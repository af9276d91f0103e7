/**
 * The reports plugin (spec workflow §7 Report, `/project/report`): analysis reports of a project's decision deductions (create, view with charts, rename, delete), a side-menu entry in the project area and a palette command. Manifest only; the panel loads with `import()`.
 */
import { definePlugin, inProjectArea, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import { reportsEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const reportsPlugin = definePlugin({
  id: 'reports',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: reportsEndpoints,
  routes: [{ path: '/project/report', titleKey: 'reportTitle', panels: ['reports.list'] }],
  panels: [{ id: 'reports.list', titleKey: 'reportPanel', icon: 'timeline-bar-chart', load: () => import('./panels/ReportPanel').then((m) => m.ReportPanel) }],
  commands: [openPageCommand({ id: 'reports.open', titleKey: 'commands.open', to: '/project/report', icon: 'timeline-bar-chart', keywords: ['report', 'analysis', 'chart'], when: (c: WhenContext) => c.signedIn })],
  menuItems: [{ id: 'reports.menu', titleKey: 'menu.open', location: 'side', icon: 'timeline-bar-chart', command: 'reports.open', order: 221, when: (c: WhenContext) => inProjectArea(c.pathname), activeOn: ['/project/report'] }],
});
