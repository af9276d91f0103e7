/**
 * The account plugin: sign-in (with a captcha after repeated failures), three-step sign-up
 * (e-mail or mobile proven by a code), password reset by a code, privacy policy and user
 * agreement (public routes), and sign-out from the user menu. Manifest only: every screen
 * loads with `import()`.
 */
import { definePlugin } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { accountEndpoints } from './api';

export const accountPlugin = definePlugin({
  id: 'account',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: accountEndpoints,
  routes: [
    { path: '/sign-in', titleKey: 'title.signIn', public: true, load: () => import('./panels/SignInPanel').then((m) => m.SignInPanel) },
    { path: '/sign-up', titleKey: 'title.signUp', public: true, load: () => import('./panels/SignUpPanel').then((m) => m.SignUpPanel) },
    {
      path: '/forgot-password',
      titleKey: 'title.forgotPassword',
      public: true,
      load: () => import('./panels/ForgotPasswordPanel').then((m) => m.ForgotPasswordPanel),
    },
    { path: '/privacy', titleKey: 'title.privacy', public: true, load: () => import('./panels/LegalPanels').then((m) => m.PrivacyPanel) },
    { path: '/agreement', titleKey: 'title.agreement', public: true, load: () => import('./panels/LegalPanels').then((m) => m.AgreementPanel) },
  ],
  commands: [
    {
      id: 'account.signOut',
      titleKey: 'userMenu.signOut',
      icon: 'log-out',
      when: (c) => c.signedIn,
      run: async (ctx) => (await import('./model/sign-out')).signOut(ctx),
    },
  ],
  menuItems: [{ id: 'account.signOut', titleKey: 'userMenu.signOut', location: 'user', icon: 'log-out', command: 'account.signOut', order: 1000 }],
});
