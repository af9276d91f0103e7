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
import { definePlugin, type RouteContribution } from '@decisio/sdk-plugin';
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
});
