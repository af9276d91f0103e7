/**
 * The template centre (spec platform §1, workflow "Template routes"): `/template-center` lists
 * the industry templates that the server's plugins contribute (`template/getTemplateList`),
 * `/template-center/industry/<industry>` filters them by industry (the tabs are the industries
 * of the list); each card previews its decision graph, a sample of its own data, what the policy
 * decides and the results its report renderer measured on the data (or a template plugin's own
 * report view), and creates a project from it with `template/createProject`. Manifest only: the
 * panel loads with `import()`.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';
import { templatesEndpoints } from './api';

const signedIn = (c: WhenContext) => c.signedIn;

/** Commands of the area (palette, side menu); each template plugin adds one for its industry. */
export const TEMPLATE_COMMANDS = [
  openPageCommand({ id: 'templates.open-centre', titleKey: 'commands.centre', to: '/template-center', icon: 'applications', keywords: ['template', 'industry', 'electric', 'coupon', '模板'], when: signedIn }),
];

export const templatesPlugin = definePlugin({
  id: 'templates',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: templatesEndpoints,
  routes: [
    { path: '/template-center', titleKey: 'title', panels: ['templates.centre'] },
    { path: '/template-center/industry/$industry', titleKey: 'industryTitle', panels: ['templates.centre'] },
  ],
  panels: [{ id: 'templates.centre', titleKey: 'panels.centre', icon: 'applications', load: () => import('./panels/TemplateCentrePanel').then((m) => m.TemplateCentrePanel) }],
  commands: TEMPLATE_COMMANDS,
  menuItems: [{ id: 'templates.menu', titleKey: 'menu', location: 'side', icon: 'applications', to: '/template-center', order: 25 }],
});
