/**
 * The SDK-licence plugin (issue 18): `/sdk-licence` (SDK downloads with release notes, licence
 * applications online or offline, the user's licences with their notices, licence files and
 * renewal), `/user-center/service` (the authorisation service and the user key) and
 * `/admin/licences` (review of licences and authorisation applications, SDK versions; needs
 * `licences:write`). Manifest only.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { licenceEndpoints } from './api';

/** Signed in with the right to review licences and manage SDK versions (the server checks anyway). */
export const canReview = (c: WhenContext) => Boolean(c.signedIn && c.user?.permissions?.some((p) => p === '*' || p === 'licences:write'));
const signedIn = (c: WhenContext) => c.signedIn;

export const sdkLicencePlugin = definePlugin({
  id: 'sdk-licence',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: licenceEndpoints,
  routes: [
    { path: '/sdk-licence', titleKey: 'title', panels: ['sdk-licence.main'] },
    { path: '/user-center/service', titleKey: 'serviceTitle', panels: ['sdk-licence.service'] },
    { path: '/admin/licences', titleKey: 'adminTitle', panels: ['sdk-licence.admin'] },
  ],
  panels: [
    { id: 'sdk-licence.main', titleKey: 'title', icon: 'key', load: () => import('./panels/SdkLicencePanel').then((m) => m.SdkLicencePanel) },
    { id: 'sdk-licence.service', titleKey: 'serviceTitle', icon: 'shield', load: () => import('./panels/ServicePanel').then((m) => m.ServicePanel) },
    { id: 'sdk-licence.admin', titleKey: 'adminTitle', icon: 'endorsed', load: () => import('./panels/AdminLicencesPanel').then((m) => m.AdminLicencesPanel) },
  ],
  menuItems: [
    { id: 'sdk-licence.menu', titleKey: 'menu', location: 'side', icon: 'key', to: '/sdk-licence', order: 85, when: signedIn },
    { id: 'sdk-licence.service-menu', titleKey: 'serviceMenu', location: 'user', icon: 'shield', to: '/user-center/service', order: 30 },
    { id: 'sdk-licence.admin-menu', titleKey: 'adminMenu', location: 'side', icon: 'endorsed', to: '/admin/licences', order: 96, when: canReview },
  ],
  commands: [
    openPageCommand({ id: 'sdk-licence.open', titleKey: 'command', to: '/sdk-licence', icon: 'key', keywords: ['sdk', 'licence', 'license', 'download', 'offline', 'device'] }),
    openPageCommand({ id: 'sdk-licence.service', titleKey: 'serviceCommand', to: '/user-center/service', icon: 'shield', keywords: ['user key', 'private key', 'authorisation', 'authorization'] }),
    openPageCommand({ id: 'sdk-licence.admin', titleKey: 'adminCommand', to: '/admin/licences', icon: 'endorsed', keywords: ['review', 'approve', 'licence', 'sdk version', 'upload'], when: canReview }),
  ],
});
