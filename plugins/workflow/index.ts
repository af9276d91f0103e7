/**
 * The workflow plugin: the modelling workflow's shell (spec workflow §2). `/workflow` redirects
 * to `/workflow/table-correlation`; the side menu (work flow, pattern, data access, data
 * modelling, environment, reward, policy, parameter search, back to workbench) opens each
 * screen carrying the project link parameters; `/project/workbench` shows the solution's steps
 * and their states, with the guide overlay when `guide` is on. Screens that later issues fill
 * show a "coming next" state. Manifest only: panels load with `import()`.
 */
import { definePlugin, navigationServiceRef, projectLinkSearch, type CommandContribution, type MenuItemContribution } from '@decisio/sdk-plugin';
import { workflowEndpoints } from './api';
import { WORKFLOW_MENU, inWorkflow } from './model/menu';
import type { StepId } from './model/steps';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

const comingNext = (step: StepId) => () => import('./panels/ComingNextPanel').then((m) => m.comingNextPanel(step));

const PLACEHOLDERS: readonly { path: string; step: StepId }[] = [
  { path: '/workflow/table-correlation', step: 'dataAccess' },
  { path: '/workflow/scheme', step: 'scheme' },
  { path: '/workflow/simulator', step: 'environment' },
  { path: '/workflow/objective', step: 'reward' },
  { path: '/workflow/policy', step: 'policy' },
  { path: '/workflow/parameter', step: 'parameter' },
];

const commands: CommandContribution[] = WORKFLOW_MENU.map((m) => ({
  id: `workflow.open-${m.id}`,
  titleKey: m.titleKey,
  icon: m.icon,
  when: (ctx) => inWorkflow(ctx.pathname),
  run: ({ services }) => {
    const nav = services.get(navigationServiceRef);
    nav.navigate(m.to, { search: projectLinkSearch(nav.getLocation().search) });
  },
}));

const menuItems: MenuItemContribution[] = WORKFLOW_MENU.map((m, i) => ({
  id: `workflow.menu-${m.id}`,
  titleKey: m.titleKey,
  location: 'side',
  icon: m.icon,
  command: `workflow.open-${m.id}`,
  order: 200 + i,
  when: (ctx) => inWorkflow(ctx.pathname),
}));

export const workflowPlugin = definePlugin({
  id: 'workflow',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: workflowEndpoints,
  routes: [
    { path: '/workflow', titleKey: 'title', load: () => import('./panels/WorkflowRedirect').then((m) => m.WorkflowRedirect) },
    { path: '/project/workbench', titleKey: 'workbenchTitle', panels: ['workflow.workbench'] },
    ...PLACEHOLDERS.map((p) => ({ path: p.path, titleKey: `steps.${p.step}`, panels: [`workflow.${p.step}`] })),
  ],
  panels: [
    { id: 'workflow.workbench', titleKey: 'workbenchTitle', icon: 'flows', load: () => import('./panels/ProjectWorkbenchPanel').then((m) => m.ProjectWorkbenchPanel) },
    ...PLACEHOLDERS.map((p) => ({ id: `workflow.${p.step}`, titleKey: `steps.${p.step}`, icon: 'time', load: comingNext(p.step) })),
  ],
  commands,
  menuItems,
});
