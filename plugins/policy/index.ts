/**
 * The policy plugin (spec workflow §2.5): policy trainings (list, training form, detail with
 * curves and the final reward; the trainings kit's screen). Manifest only.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

const panels = () => import('./panels/PoliciesPanel');
const signedIn = (c: WhenContext) => c.signedIn;

export const policyPlugin = definePlugin({
  id: 'policy',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  routes: [
    { path: '/workflow/policy', titleKey: 'panels.policy', panels: ['policy.list'] },
    { path: '/workflow/policy/train', titleKey: 'panels.policyTrain', panels: ['policy.train'] },
    { path: '/project/policy', titleKey: 'panels.policy', panels: ['policy.list'] },
  ],
  panels: [
    { id: 'policy.list', titleKey: 'panels.policy', icon: 'predictive-analysis', load: () => panels().then((m) => m.PoliciesPanel) },
    { id: 'policy.train', titleKey: 'panels.policyTrain', icon: 'predictive-analysis', load: () => panels().then((m) => m.PolicyTrainPanel) },
  ],
  commands: [
    openPageCommand({ id: 'policy.new', titleKey: 'commands.newPolicy', to: '/workflow/policy/train', icon: 'predictive-analysis', keywords: ['policy', 'train', 'new'], when: signedIn }),
  ],
});
