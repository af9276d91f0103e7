/**
 * The reward plugin (spec workflow §2.4): a solution's rewards, edited as Python files, checked
 * when saved and tried on sample data. Manifest only.
 */
import { definePlugin } from '@decisio/sdk-plugin';
import { rewardEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

export const rewardPlugin = definePlugin({
  id: 'reward',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: rewardEndpoints,
  routes: [{ path: '/workflow/objective', titleKey: 'panels.reward', panels: ['reward.list'] }],
  panels: [{ id: 'reward.list', titleKey: 'panels.reward', icon: 'code', load: () => import('./panels/RewardsPanel').then((m) => m.RewardsPanel) }],
});
