/**
 * The dashboard plugin: the `/dashboard` route, a dock layout with the "Welcome" panel (greeting,
 * the guided first run through a template project, the modelling steps) with the tenant
 * overview (resources, trainings, running trainings) as a tab behind it, and its side-menu
 * entry. Manifest only; the panel loads with `import()`.
 */
import { boolean } from 'zod/mini';
import { definePlugin } from '@decisio/sdk-plugin';
import { dashboardEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const dashboardPlugin = definePlugin({
  id: 'dashboard',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: dashboardEndpoints,
  // The overview is a tab beside the welcome panel (which opens in front); recent activity is the
  // projects plugin's panel (left out when that plugin is absent).
  routes: [{ path: '/dashboard', titleKey: 'title', panels: ['dashboard.overview', { panel: 'dashboard.welcome', direction: 'within' }, { panel: 'projects.activity', direction: 'right', size: 380 }] }],
  panels: [
    {
      id: 'dashboard.welcome',
      titleKey: 'welcomePanel',
      icon: 'home',
      load: () => import('./panels/WelcomePanel').then((m) => m.WelcomePanel),
    },
    {
      id: 'dashboard.overview',
      titleKey: 'overviewPanel',
      icon: 'dashboard',
      load: () => import('./panels/TenantOverviewPanel').then((m) => m.TenantOverviewPanel),
    },
  ],
  settings: [{ id: 'dashboard.showSteps', titleKey: 'settings.showSteps', descriptionKey: 'settings.showStepsHelp', schema: boolean(), default: true }],
  menuItems: [{ id: 'dashboard.home', titleKey: 'menu', location: 'side', icon: 'dashboard', to: '/dashboard', order: 10 }],
});
