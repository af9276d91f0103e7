/**
 * The environment plugin (spec workflow §2.3): environment trainings (list, training form, detail
 * with live curves, logs and rollouts; the trainings kit's screen) and the debug page of a
 * training in debug mode. Manifest only: panels load with `import()`.
 */
import { definePlugin, openPageCommand, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

const trainings = () => import('./panels/EnvironmentsPanel');
const signedIn = (c: WhenContext) => c.signedIn;

export const ENVIRONMENT_COMMANDS = [
  openPageCommand({ id: 'environment.new', titleKey: 'commands.newEnvironment', to: '/workflow/simulator/train', icon: 'cube-add', keywords: ['environment', 'simulator', 'train', 'new'], when: signedIn }),
  openPageCommand({ id: 'environment.open-debug', titleKey: 'commands.debug', to: '/workflow/debug', icon: 'bug', keywords: ['debug'], when: signedIn }),
];

export const environmentPlugin = definePlugin({
  id: 'environment',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  routes: [
    { path: '/workflow/simulator', titleKey: 'panels.environment', panels: ['environment.list'] },
    { path: '/workflow/simulator/train', titleKey: 'panels.environmentTrain', panels: ['environment.train'] },
    { path: '/project/simulator', titleKey: 'panels.environment', panels: ['environment.list'] },
    { path: '/workflow/debug', titleKey: 'panels.debug', panels: ['environment.debug'] },
  ],
  panels: [
    { id: 'environment.list', titleKey: 'panels.environment', icon: 'cube', load: () => trainings().then((m) => m.EnvironmentsPanel) },
    { id: 'environment.train', titleKey: 'panels.environmentTrain', icon: 'cube-add', load: () => trainings().then((m) => m.EnvironmentTrainPanel) },
    { id: 'environment.debug', titleKey: 'panels.debug', icon: 'bug', load: () => import('./panels/DebugPanel').then((m) => m.DebugPanel) },
  ],
  commands: ENVIRONMENT_COMMANDS,
});
