/**
 * The policy-update plugin (`/project/update-policy`): the training runs of a policy and a new run on more data (an environment update first when datasets are chosen); side-menu entry in the project area and palette command. Manifest only; the panel loads with `import()`.
 */
import { definePlugin, inProjectArea, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import { policyUpdateEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const policyUpdatePlugin = definePlugin({
  id: 'policy-update',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: policyUpdateEndpoints,
  routes: [{ path: '/project/update-policy', titleKey: 'updateTitle', panels: ['policy-update.list'] }],
  panels: [{ id: 'policy-update.list', titleKey: 'updatePanel', icon: 'refresh', load: () => import('./panels/UpdatePolicyPanel').then((m) => m.UpdatePolicyPanel) }],
  commands: [openPageCommand({ id: 'policy-update.open', titleKey: 'commands.open', to: '/project/update-policy', icon: 'refresh', keywords: ['update policy', 'retrain', 'feedback'], when: (c: WhenContext) => c.signedIn })],
  menuItems: [{ id: 'policy-update.menu', titleKey: 'menu.open', location: 'side', icon: 'refresh', command: 'policy-update.open', order: 223, when: (c: WhenContext) => inProjectArea(c.pathname), activeOn: ['/project/update-policy'] }],
});
