/**
 * The deploy plugin: model services of a project (`/project/deploy`: list, create, start, stop,
 * delete, the access token shown once) and one service (`/project/deploy-detail?serviceId=`:
 * access address and fields, token rotation, the call monitor by day, week, month and year, the
 * call records). Analysis reports, business decision and policy update are plugins of their own
 * (reports, business-decision, policy-update). Manifest only; panels load with `import()`.
 */
import { definePlugin, inProjectArea, openPageCommand, type MenuItemContribution, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { deployEndpoints } from './api';

const signedIn = (c: { signedIn: boolean }) => c.signedIn;

/**
 * The deploy area's commands (command palette, side menu): each opens its page keeping the
 * project link (`projectId`, `solutionId`, `guide`, ...). "Open call records" opens the current
 * service's page scrolled to its call records (`section=records`) when the address names one,
 * else the project's services.
 */
export const DEPLOY_COMMANDS = [
  openPageCommand({ id: 'deploy.open-deploy', titleKey: 'commands.deploy', to: '/project/deploy', icon: 'cloud-upload', keywords: ['deploy', 'service', 'publish', 'online'], when: signedIn }),
  openPageCommand({
    id: 'deploy.open-records',
    titleKey: 'commands.records',
    to: '/project/deploy',
    icon: 'history',
    keywords: ['call records', 'calls', 'log', 'monitor', 'service'],
    when: signedIn,
    extra: (q) => (q.serviceId ? { to: '/project/deploy-detail', search: { serviceId: q.serviceId, section: 'records' } } : undefined),
  }),
];

/** Side-menu entries of the project area (after the workflow's steps, before "back"). */
const menuItems: MenuItemContribution[] = [
  { id: 'deploy.menu-deploy', titleKey: 'menu.deploy', command: 'deploy.open-deploy', icon: 'cloud-upload', activeOn: ['/project/deploy', '/project/deploy-detail'] },
].map((m, i) => ({ ...m, location: 'side' as const, order: 220 + i, when: (c: WhenContext) => inProjectArea(c.pathname) }));

export const deployPlugin = definePlugin({
  id: 'deploy',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: deployEndpoints,
  routes: [
    { path: '/project/deploy', titleKey: 'title', panels: ['deploy.list'] },
    { path: '/project/deploy-detail', titleKey: 'detailTitle', panels: ['deploy.detail'] },
  ],
  panels: [
    { id: 'deploy.list', titleKey: 'listPanel', icon: 'cloud-upload', load: () => import('./panels/DeployListPanel').then((m) => m.DeployListPanel) },
    { id: 'deploy.detail', titleKey: 'detailPanel', icon: 'dashboard', load: () => import('./panels/DeployDetailPanel').then((m) => m.DeployDetailPanel) },
  ],
  commands: DEPLOY_COMMANDS,
  menuItems,
});
