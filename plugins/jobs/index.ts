/**
 * The jobs plugin: `/job`, scheduled jobs (a cron expression and a built-in kind) with their
 * next run times, edit, pause, resume, run once and delete, and the job history of every run
 * with its state and report. Manifest only; the panel loads with `import()`.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import { jobsEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

/**
 * Signed in with the scheduled-jobs permission: system roles always; other roles when the user's
 * permissions (once the workbench passes them) include `jobs:read`. The server checks anyway.
 */
export const canReadJobs = (c: WhenContext) => {
  if (!c.signedIn) return false;
  const user = c.user as (WhenContext['user'] & { permissions?: readonly string[] }) | undefined;
  return Boolean(user?.isSystemRole || user?.permissions?.some((p) => p === '*' || p === 'jobs:read'));
};

export const jobsPlugin = definePlugin({
  id: 'jobs',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: jobsEndpoints,
  routes: [{ path: '/job', titleKey: 'title', panels: ['jobs.list'] }],
  panels: [
    {
      id: 'jobs.list',
      titleKey: 'panel',
      icon: 'time',
      load: () => import('./panels/JobsPanel').then((m) => m.JobsPanel),
      permissions: ['jobs:read'],
    },
  ],
  commands: [openPageCommand({ id: 'jobs.open', titleKey: 'commands.open', to: '/job', icon: 'time', keywords: ['scheduled jobs', 'cron', 'schedule', 'timer'], when: canReadJobs })],
  menuItems: [{ id: 'jobs.menu', titleKey: 'menu', location: 'side', icon: 'time', to: '/job', order: 74, when: canReadJobs }],
});
