/**
 * The project-log plugin (spec platform §2, `/project/project-log`): every data processing,
 * training and deduction of a project's solutions, paged by the server. Side-menu entry in the
 * project area and palette command. Manifest only.
 */
import { definePlugin, inProjectArea, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import { projectLogEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const projectLogPlugin = definePlugin({
  id: 'project-log',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: projectLogEndpoints,
  routes: [{ path: '/project/project-log', titleKey: 'panels.projectLog', panels: ['project-log.log'] }],
  panels: [{ id: 'project-log.log', titleKey: 'panels.projectLog', icon: 'history', load: () => import('./panels/ProjectLogPanel').then((m) => m.ProjectLogPanel) }],
  commands: [
    openPageCommand({ id: 'project-log.open', titleKey: 'commands.projectLog', to: '/project/project-log', icon: 'history', keywords: ['log', 'history', 'activity'], when: (c: WhenContext) => c.signedIn }),
  ],
  menuItems: [{ id: 'project-log.menu', titleKey: 'menu.projectLog', location: 'side', icon: 'history', command: 'project-log.open', order: 230, when: (c: WhenContext) => inProjectArea(c.pathname), activeOn: ['/project/project-log'] }],
});
