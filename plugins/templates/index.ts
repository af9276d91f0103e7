/**
 * The template centre (spec platform §1, workflow "Template routes"): `/template-center` lists
 * the industry templates, `/template-center/industry/coupon|electric` filters them by industry;
 * each card previews its decision graph, a sample of its own data, what the policy decides and
 * (only when the server reports it) the results it reached, and creates a project from it with
 * `template/createProject`. Manifest only: the panel loads with `import()`.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { templatesEndpoints } from './api';

const signedIn = (c: WhenContext) => c.signedIn;

/** Commands of the area (palette, side menu). */
export const TEMPLATE_COMMANDS = [
  openPageCommand({ id: 'templates.open-centre', titleKey: 'commands.centre', to: '/template-center', icon: 'applications', keywords: ['template', 'industry', 'electric', 'coupon', '模板'], when: signedIn }),
  openPageCommand({ id: 'templates.open-electric', titleKey: 'commands.electric', to: '/template-center/industry/electric', icon: 'flash', keywords: ['template', 'electric', 'cold room'], when: signedIn }),
  openPageCommand({ id: 'templates.open-coupon', titleKey: 'commands.coupon', to: '/template-center/industry/coupon', icon: 'tag', keywords: ['template', 'coupon', 'pricing'], when: signedIn }),
];

export const templatesPlugin = definePlugin({
  id: 'templates',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: templatesEndpoints,
  routes: [
    { path: '/template-center', titleKey: 'title', panels: ['templates.centre'] },
    { path: '/template-center/industry/coupon', titleKey: 'couponTitle', panels: ['templates.centre'] },
    { path: '/template-center/industry/electric', titleKey: 'electricTitle', panels: ['templates.centre'] },
  ],
  panels: [{ id: 'templates.centre', titleKey: 'panels.centre', icon: 'applications', load: () => import('./panels/TemplateCentrePanel').then((m) => m.TemplateCentrePanel) }],
  commands: TEMPLATE_COMMANDS,
  menuItems: [
    { id: 'templates.menu', titleKey: 'menu', location: 'side', icon: 'applications', to: '/template-center', order: 25, activeOn: ['/template-center/industry/coupon', '/template-center/industry/electric'] },
  ],
});
