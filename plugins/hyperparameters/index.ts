/**
 * The hyperparameters plugin (spec workflow §6): hyperparameter sets per training type and
 * algorithm, used by the training forms. Side-menu entry and palette command. Manifest only.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import { hyperparametersEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

const panel = () => import('./panels/HyperparametersPanel').then((m) => m.HyperparametersPanel);

export const hyperparametersPlugin = definePlugin({
  id: 'hyperparameters',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: hyperparametersEndpoints,
  routes: [
    { path: '/hyperparameter', titleKey: 'panels.hyper', panels: ['hyperparameters.sets'] },
    { path: '/hyperparameter/custom-model', titleKey: 'panels.customModel', panels: ['hyperparameters.sets'] },
  ],
  panels: [{ id: 'hyperparameters.sets', titleKey: 'panels.hyper', icon: 'properties', load: panel }],
  commands: [
    openPageCommand({ id: 'hyperparameters.open', titleKey: 'commands.hyper', to: '/hyperparameter', icon: 'properties', keywords: ['hyperparameters', 'sets', 'custom model'], when: (c: WhenContext) => c.signedIn }),
  ],
  menuItems: [{ id: 'hyperparameters.menu', titleKey: 'menu.hyper', location: 'side', icon: 'properties', to: '/hyperparameter', order: 70 }],
});
