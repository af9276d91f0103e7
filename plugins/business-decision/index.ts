/**
 * The business-decision plugin (`/project/business-decision`): a trained policy run over a business dataset of the project, its progress and the result to download; side-menu entry in the project area and palette command. Manifest only; the panel loads with `import()`.
 */
import { definePlugin, inProjectArea, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import { businessDecisionEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const businessDecisionPlugin = definePlugin({
  id: 'business-decision',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: businessDecisionEndpoints,
  routes: [{ path: '/project/business-decision', titleKey: 'businessTitle', panels: ['business-decision.list'] }],
  panels: [{ id: 'business-decision.list', titleKey: 'businessPanel', icon: 'th-derived', load: () => import('./panels/BusinessDecisionPanel').then((m) => m.BusinessDecisionPanel) }],
  commands: [openPageCommand({ id: 'business-decision.open', titleKey: 'commands.open', to: '/project/business-decision', icon: 'th-derived', keywords: ['business decision', 'batch', 'decide'], when: (c: WhenContext) => c.signedIn })],
  menuItems: [{ id: 'business-decision.menu', titleKey: 'menu.open', location: 'side', icon: 'th-derived', command: 'business-decision.open', order: 222, when: (c: WhenContext) => inProjectArea(c.pathname), activeOn: ['/project/business-decision'] }],
});
