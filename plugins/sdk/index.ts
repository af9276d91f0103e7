/**
 * The public site plugin: the `/sdk` landing page (what the product does, sign-in and sign-up
 * buttons), `/web` and `/maintenance`. Manifest only.
 */
import { definePlugin } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

const landing = () => import('./panels/LandingPanel').then((m) => m.LandingPanel);

export const sdkPlugin = definePlugin({
  id: 'sdk',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  routes: [
    { path: '/sdk', titleKey: 'title.landing', public: true, load: landing },
    { path: '/web', titleKey: 'title.web', public: true, load: landing },
    { path: '/maintenance', titleKey: 'title.maintenance', public: true, load: () => import('./panels/MaintenancePanel').then((m) => m.MaintenancePanel) },
  ],
});
