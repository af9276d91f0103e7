/**
 * The modelling plugin: the modelling screens of spec workflow §2 as dock panels that also open
 * as routes — environments (list, training form, detail with live curves and logs), rewards
 * (code editor), policies, parameter tuning, simulation and decision deductions, schemes and
 * hyperparameter sets. Manifest only: panels load with `import()`.
 *
 * Routes `/workflow/scheme`, `/workflow/simulator`, `/workflow/objective`, `/workflow/policy`
 * and `/workflow/parameter` are still declared as "coming next" placeholders by the workflow
 * plugin; {@link MODELLING_TAKEOVER_ROUTES} lists the routes of this plugin for those paths, to be
 * added to `routes` once the placeholders are removed (paths must be unique across plugins).
 */
import { definePlugin, inProjectArea, openPageCommand, type MenuItemContribution, type RouteContribution, type WhenContext } from '@decisio/sdk-plugin';
import { modellingEndpoints } from './api';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

const trainings = () => import('./panels/TrainingsPanel');

/** Routes whose paths the workflow plugin's placeholders hold today (see the module comment). */
export const MODELLING_TAKEOVER_ROUTES: readonly RouteContribution[] = [
  { path: '/workflow/scheme', titleKey: 'panels.scheme', panels: ['modelling.schemes'] },
  { path: '/workflow/simulator', titleKey: 'panels.environment', panels: ['modelling.environments'] },
  { path: '/workflow/objective', titleKey: 'panels.reward', panels: ['modelling.rewards'] },
  { path: '/workflow/policy', titleKey: 'panels.policy', panels: ['modelling.policies'] },
  { path: '/workflow/parameter', titleKey: 'panels.parameter', panels: ['modelling.parameters'] },
];

/**
 * The project area's addresses of the modelling screens (spec platform §2, `/project/*`): the
 * same panels as their `/workflow/*` screens, on the project link of the address.
 */
export const PROJECT_ROUTES: readonly RouteContribution[] = [
  { path: '/project/simulator', titleKey: 'panels.environment', panels: ['modelling.environments'] },
  { path: '/project/simulation', titleKey: 'panels.simulation', panels: ['modelling.simulations'] },
  { path: '/project/policy', titleKey: 'panels.policy', panels: ['modelling.policies'] },
  { path: '/project/parameter', titleKey: 'panels.parameter', panels: ['modelling.parameters'] },
  { path: '/project/decision', titleKey: 'panels.decision', panels: ['modelling.decisions'] },
];

const signedIn = (c: WhenContext) => c.signedIn;

/** Commands of the modelling area (command palette, side menu), each keeping the project link. */
export const MODELLING_COMMANDS = [
  openPageCommand({ id: 'modelling.new-environment', titleKey: 'commands.newEnvironment', to: '/workflow/simulator/train', icon: 'cube-add', keywords: ['environment', 'simulator', 'train', 'new'], when: signedIn }),
  openPageCommand({ id: 'modelling.new-policy', titleKey: 'commands.newPolicy', to: '/workflow/policy/train', icon: 'predictive-analysis', keywords: ['policy', 'train', 'new'], when: signedIn }),
  openPageCommand({ id: 'modelling.new-parameter', titleKey: 'commands.newParameter', to: '/workflow/parameter/train', icon: 'search-template', keywords: ['parameter', 'tuning', 'search', 'new'], when: signedIn }),
  openPageCommand({ id: 'modelling.open-simulation', titleKey: 'commands.simulation', to: '/workflow/simulator/simulation', icon: 'play', keywords: ['deduction', 'simulation', 'simulate'], when: signedIn }),
  openPageCommand({ id: 'modelling.open-decision', titleKey: 'commands.decision', to: '/workflow/policy/decision', icon: 'flow-branch', keywords: ['deduction', 'decision', 'decide'], when: signedIn }),
  openPageCommand({ id: 'modelling.open-hyperparameters', titleKey: 'commands.hyper', to: '/hyperparameter', icon: 'properties', keywords: ['hyperparameters', 'sets', 'custom model'], when: signedIn }),
  openPageCommand({ id: 'modelling.open-project-log', titleKey: 'commands.projectLog', to: '/project/project-log', icon: 'history', keywords: ['log', 'history', 'activity'], when: signedIn }),
  openPageCommand({ id: 'modelling.open-debug', titleKey: 'commands.debug', to: '/workflow/debug', icon: 'bug', keywords: ['debug'], when: signedIn }),
];

const inArea = (c: WhenContext) => inProjectArea(c.pathname);

/** Side-menu entries: the deductions and the project log in the project area; hyperparameters always. */
const menuItems: MenuItemContribution[] = [
  { id: 'modelling.menu-simulation', titleKey: 'menu.simulation', location: 'side', icon: 'play', command: 'modelling.open-simulation', order: 210, when: inArea, activeOn: ['/workflow/simulator/simulation', '/project/simulation'] },
  { id: 'modelling.menu-decision', titleKey: 'menu.decision', location: 'side', icon: 'flow-branch', command: 'modelling.open-decision', order: 211, when: inArea, activeOn: ['/workflow/policy/decision', '/project/decision'] },
  { id: 'modelling.menu-project-log', titleKey: 'menu.projectLog', location: 'side', icon: 'history', command: 'modelling.open-project-log', order: 230, when: inArea, activeOn: ['/project/project-log'] },
  { id: 'modelling.menu-hyperparameters', titleKey: 'menu.hyper', location: 'side', icon: 'properties', to: '/hyperparameter', order: 70 },
];

export const modellingPlugin = definePlugin({
  id: 'modelling',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: modellingEndpoints,
  routes: [
    ...MODELLING_TAKEOVER_ROUTES,
    { path: '/workflow/simulator/train', titleKey: 'panels.environmentTrain', panels: ['modelling.environmentTrain'] },
    { path: '/workflow/simulator/simulation', titleKey: 'panels.simulation', panels: ['modelling.simulations'] },
    { path: '/workflow/policy/train', titleKey: 'panels.policyTrain', panels: ['modelling.policyTrain'] },
    { path: '/workflow/policy/decision', titleKey: 'panels.decision', panels: ['modelling.decisions'] },
    { path: '/workflow/parameter/train', titleKey: 'panels.parameterTrain', panels: ['modelling.parameterTrain'] },
    { path: '/workflow/debug', titleKey: 'panels.debug', panels: ['modelling.debug'] },
    { path: '/project/project-log', titleKey: 'panels.projectLog', panels: ['modelling.projectLog'] },
    { path: '/hyperparameter', titleKey: 'panels.hyper', panels: ['modelling.hyperparameters'] },
    { path: '/hyperparameter/custom-model', titleKey: 'panels.customModel', panels: ['modelling.hyperparameters'] },
    ...PROJECT_ROUTES,
  ],
  panels: [
    { id: 'modelling.environments', titleKey: 'panels.environment', icon: 'cube', load: () => trainings().then((m) => m.EnvironmentsPanel) },
    { id: 'modelling.environmentTrain', titleKey: 'panels.environmentTrain', icon: 'cube-add', load: () => trainings().then((m) => m.EnvironmentTrainPanel) },
    { id: 'modelling.simulations', titleKey: 'panels.simulation', icon: 'play', load: () => trainings().then((m) => m.SimulationsPanel) },
    { id: 'modelling.rewards', titleKey: 'panels.reward', icon: 'code', load: () => import('./panels/RewardsPanel').then((m) => m.RewardsPanel) },
    { id: 'modelling.policies', titleKey: 'panels.policy', icon: 'predictive-analysis', load: () => trainings().then((m) => m.PoliciesPanel) },
    { id: 'modelling.policyTrain', titleKey: 'panels.policyTrain', icon: 'predictive-analysis', load: () => trainings().then((m) => m.PolicyTrainPanel) },
    { id: 'modelling.decisions', titleKey: 'panels.decision', icon: 'flow-branch', load: () => trainings().then((m) => m.DecisionsPanel) },
    { id: 'modelling.parameters', titleKey: 'panels.parameter', icon: 'settings', load: () => trainings().then((m) => m.ParametersPanel) },
    { id: 'modelling.parameterTrain', titleKey: 'panels.parameterTrain', icon: 'settings', load: () => trainings().then((m) => m.ParameterTrainPanel) },
    { id: 'modelling.schemes', titleKey: 'panels.scheme', icon: 'layout-grid', load: () => import('./panels/SchemesPanel').then((m) => m.SchemesPanel) },
    { id: 'modelling.debug', titleKey: 'panels.debug', icon: 'bug', load: () => import('./panels/DebugPanel').then((m) => m.DebugPanel) },
    { id: 'modelling.projectLog', titleKey: 'panels.projectLog', icon: 'history', load: () => import('./panels/ProjectLogPanel').then((m) => m.ProjectLogPanel) },
    { id: 'modelling.hyperparameters', titleKey: 'panels.hyper', icon: 'properties', load: () => import('./panels/HyperparametersPanel').then((m) => m.HyperparametersPanel) },
  ],
  commands: MODELLING_COMMANDS,
  menuItems,
});
