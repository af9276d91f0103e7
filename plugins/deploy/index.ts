/**
 * The deploy plugin: model services of a project (`/project/deploy`: list, create, start, stop,
 * delete, the access token shown once) and one service (`/project/deploy-detail?serviceId=`:
 * access address and fields, token rotation, the call monitor by day, week, month and year, the
 * call records); analysis reports (`/project/report`), business decision
 * (`/project/business-decision`) and policy update (`/project/update-policy`). Manifest only;
 * panels load with `import()`.
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
    { path: '/project/report', titleKey: 'reportTitle', panels: ['deploy.report'] },
    { path: '/project/business-decision', titleKey: 'businessTitle', panels: ['deploy.business'] },
    { path: '/project/update-policy', titleKey: 'updateTitle', panels: ['deploy.update'] },
  ],
  panels: [
    { id: 'deploy.list', titleKey: 'listPanel', icon: 'cloud-upload', load: () => import('./panels/DeployListPanel').then((m) => m.DeployListPanel) },
    { id: 'deploy.detail', titleKey: 'detailPanel', icon: 'dashboard', load: () => import('./panels/DeployDetailPanel').then((m) => m.DeployDetailPanel) },
    { id: 'deploy.report', titleKey: 'reportPanel', icon: 'timeline-bar-chart', load: () => import('./panels/ReportPanel').then((m) => m.ReportPanel) },
    { id: 'deploy.business', titleKey: 'businessPanel', icon: 'th-derived', load: () => import('./panels/BusinessDecisionPanel').then((m) => m.BusinessDecisionPanel) },
    { id: 'deploy.update', titleKey: 'updatePanel', icon: 'refresh', load: () => import('./panels/UpdatePolicyPanel').then((m) => m.UpdatePolicyPanel) },
  ],
});
