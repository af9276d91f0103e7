/**
 * The deploy plugin: model services of a project (`/project/deploy`: list, create, start, stop,
 * delete, the access token shown once) and one service (`/project/deploy-detail?serviceId=`:
 * access address and fields, token rotation, the call monitor by day, week, month and year, the
 * call records). Manifest only; panels load with `import()`.
 */
import { definePlugin } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { deployEndpoints } from './api';

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
});
