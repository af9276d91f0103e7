/**
 * The logs plugin: `/system-log`, the system log (one row per API call and per scheduled-job
 * run) with filters by user, module, call, result, type and time range, row details, deletion
 * and the retention setting for administrators, and a CSV export. Manifest only; the panel loads
 * with `import()`.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import { logsEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

/**
 * Signed in with the log permission: system roles always; other roles when the user's
 * permissions (once the workbench passes them) include `logs:read`. The server checks anyway.
 */
export const canReadLogs = (c: WhenContext) => {
  if (!c.signedIn) return false;
  const user = c.user as (WhenContext['user'] & { permissions?: readonly string[] }) | undefined;
  return Boolean(user?.isSystemRole || user?.permissions?.some((p) => p === '*' || p === 'logs:read'));
};

export const logsPlugin = definePlugin({
  id: 'logs',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: logsEndpoints,
  routes: [{ path: '/system-log', titleKey: 'title', panels: ['logs.list'] }],
  panels: [
    {
      id: 'logs.list',
      titleKey: 'panel',
      icon: 'history',
      load: () => import('./panels/SystemLogPanel').then((m) => m.SystemLogPanel),
      permissions: ['logs:read'],
    },
  ],
  commands: [openPageCommand({ id: 'logs.open', titleKey: 'commands.open', to: '/system-log', icon: 'history', keywords: ['system log', 'audit', 'log', 'calls'], when: canReadLogs })],
  menuItems: [{ id: 'logs.menu', titleKey: 'menu', location: 'side', icon: 'history', to: '/system-log', order: 75, when: canReadLogs }],
});
