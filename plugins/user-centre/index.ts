/**
 * The user-centre plugin (issue 18): `/user-center/info` (profile, avatar, contact changes proven
 * by a code, student certification), `/user-center/security` (password change, recent sign-ins),
 * `/user-center/settings` (personal settings, account deletion) and, for administrators,
 * `/user-center/outbox` (every e-mail and SMS sent; the codes in development mode). Reachable from
 * the user menu and the command palette. Manifest only: every panel loads with `import()`.
 */
import { definePlugin, openPageCommand, type WhenPredicate } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { userCentreEndpoints } from './api';

const signedIn: WhenPredicate = (c) => c.signedIn;
const admin: WhenPredicate = (c) => c.signedIn && Boolean(c.user?.isSystemRole);

export const userCentrePlugin = definePlugin({
  id: 'user-centre',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: userCentreEndpoints,
  routes: [
    { path: '/user-center', titleKey: 'title.info', load: () => import('./panels/UserCentreRedirect').then((m) => m.UserCentreRedirect) },
    { path: '/user-center/info', titleKey: 'title.info', panels: ['user-centre.profile'] },
    // Also where a user with a temporary password (an administrator's add user or reset) is kept until they change it.
    { path: '/user-center/security', titleKey: 'title.security', panels: ['user-centre.security'], passwordChange: true },
    { path: '/user-center/settings', titleKey: 'title.settings', panels: ['user-centre.settings'] },
    { path: '/user-center/outbox', titleKey: 'title.outbox', panels: ['user-centre.outbox'] },
  ],
  panels: [
    { id: 'user-centre.profile', titleKey: 'panel.profile', icon: 'person', load: () => import('./panels/ProfilePanel').then((m) => m.ProfilePanel) },
    { id: 'user-centre.security', titleKey: 'panel.security', icon: 'key', load: () => import('./panels/SecurityPanel').then((m) => m.SecurityPanel) },
    { id: 'user-centre.settings', titleKey: 'panel.settings', icon: 'cog', load: () => import('./panels/SettingsPanel').then((m) => m.SettingsPanel) },
    { id: 'user-centre.outbox', titleKey: 'panel.outbox', icon: 'envelope', load: () => import('./panels/OutboxPanel').then((m) => m.OutboxPanel), permissions: ['outbox:read'] },
  ],
  menuItems: [
    { id: 'user-centre.info', titleKey: 'menu.info', location: 'user', icon: 'person', to: '/user-center/info', order: 10 },
    { id: 'user-centre.security', titleKey: 'menu.security', location: 'user', icon: 'key', to: '/user-center/security', order: 30 },
    { id: 'user-centre.settings', titleKey: 'menu.settings', location: 'user', icon: 'cog', to: '/user-center/settings', order: 40 },
    { id: 'user-centre.outbox', titleKey: 'menu.outbox', location: 'user', icon: 'envelope', to: '/user-center/outbox', order: 900, when: admin },
  ],
  commands: [
    openPageCommand({ id: 'user-centre.open-info', titleKey: 'command.info', to: '/user-center/info', icon: 'person', keywords: ['profile', 'avatar', 'account', 'e-mail', 'mobile', 'student'], when: signedIn }),
    openPageCommand({ id: 'user-centre.open-security', titleKey: 'command.security', to: '/user-center/security', icon: 'key', keywords: ['password', 'sign-in', 'security', 'sessions'], when: signedIn }),
    openPageCommand({ id: 'user-centre.open-settings', titleKey: 'command.settings', to: '/user-center/settings', icon: 'cog', keywords: ['settings', 'preferences', 'language', 'theme'], when: signedIn }),
    openPageCommand({ id: 'user-centre.delete-account', titleKey: 'command.deleteAccount', to: '/user-center/settings', icon: 'trash', keywords: ['delete', 'close', 'account', 'remove'], when: signedIn }),
    openPageCommand({ id: 'user-centre.open-outbox', titleKey: 'command.outbox', to: '/user-center/outbox', icon: 'envelope', keywords: ['outbox', 'mail', 'sms', 'codes', 'verification'], when: admin, permissions: ['outbox:read'] }),
  ],
});
