/**
 * The deduction plugin (spec workflow §2.3, §2.5): simulation deductions (an environment rolled
 * against the data) and decision deductions (a policy deciding over the data), each a list with
 * its form and detail (the trainings kit's screen), side-menu entries in the project area and
 * palette commands. Manifest only.
 */
import { definePlugin, inProjectArea, openPageCommand, type MenuItemContribution, type WhenContext } from '@decisio/sdk-plugin';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

const panels = () => import('./panels/DeductionsPanel');
const signedIn = (c: WhenContext) => c.signedIn;
const inArea = (c: WhenContext) => inProjectArea(c.pathname);

export const DEDUCTION_COMMANDS = [
  openPageCommand({ id: 'deduction.open-simulation', titleKey: 'commands.simulation', to: '/workflow/simulator/simulation', icon: 'play', keywords: ['deduction', 'simulation', 'simulate'], when: signedIn }),
  openPageCommand({ id: 'deduction.open-decision', titleKey: 'commands.decision', to: '/workflow/policy/decision', icon: 'flow-branch', keywords: ['deduction', 'decision', 'decide'], when: signedIn }),
];

const menuItems: MenuItemContribution[] = [
  { id: 'deduction.menu-simulation', titleKey: 'menu.simulation', location: 'side', icon: 'play', command: 'deduction.open-simulation', order: 210, when: inArea, activeOn: ['/workflow/simulator/simulation', '/project/simulation'] },
  { id: 'deduction.menu-decision', titleKey: 'menu.decision', location: 'side', icon: 'flow-branch', command: 'deduction.open-decision', order: 211, when: inArea, activeOn: ['/workflow/policy/decision', '/project/decision'] },
];

export const deductionPlugin = definePlugin({
  id: 'deduction',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  routes: [
    { path: '/workflow/simulator/simulation', titleKey: 'panels.simulation', panels: ['deduction.simulations'] },
    { path: '/workflow/policy/decision', titleKey: 'panels.decision', panels: ['deduction.decisions'] },
    { path: '/project/simulation', titleKey: 'panels.simulation', panels: ['deduction.simulations'] },
    { path: '/project/decision', titleKey: 'panels.decision', panels: ['deduction.decisions'] },
  ],
  panels: [
    { id: 'deduction.simulations', titleKey: 'panels.simulation', icon: 'play', load: () => panels().then((m) => m.SimulationsPanel) },
    { id: 'deduction.decisions', titleKey: 'panels.decision', icon: 'flow-branch', load: () => panels().then((m) => m.DecisionsPanel) },
  ],
  commands: DEDUCTION_COMMANDS,
  menuItems,
});
