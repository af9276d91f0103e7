/**
 * The environment plugin (spec workflow §2.3): environment trainings (list, training form, detail
 * with live curves, logs and rollouts; the trainings kit's screen) and the debug page of a
 * training in debug mode, which the side menu of the project area offers next to the training
 * steps (spec workflow §2: "environment list, training record, training detail and debug page").
 * Manifest only: panels load with `import()`.
 */
import { definePlugin, inProjectArea, openPageCommand, type MenuItemContribution, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

const trainings = () => import('./panels/EnvironmentsPanel');
const signedIn = (c: WhenContext) => c.signedIn;

export const ENVIRONMENT_COMMANDS = [
  openPageCommand({ id: 'environment.new', titleKey: 'commands.newEnvironment', to: '/workflow/simulator/train', icon: 'cube-add', keywords: ['environment', 'simulator', 'train', 'new'], when: signedIn }),
  openPageCommand({ id: 'environment.open-debug', titleKey: 'commands.debug', to: '/workflow/debug', icon: 'bug', keywords: ['debug'], when: signedIn }),
];

// Decided like the page itself: a project-area page, so the projects menu (`menuKeyOf`).
const menuItems: MenuItemContribution[] = [
  // After the workflow's training steps (200-207: ... policy, parameter search), before the deductions (210).
  { id: 'environment.menu-debug', titleKey: 'menu.debug', location: 'side', icon: 'bug', command: 'environment.open-debug', order: 208, when: (c) => inProjectArea(c.pathname), activeOn: ['/workflow/debug'] },
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
  menuItems,
});
