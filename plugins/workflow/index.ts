/**
 * The workflow plugin: the modelling workflow's shell (spec workflow §2). `/workflow` redirects
 * to `/workflow/table-correlation`; the side menu (work flow, pattern, data access, data
 * modelling, environment, reward, policy, parameter search, back to workbench) opens each
 * screen carrying the project link parameters; `/project/workbench` shows the solution's steps
 * and their states. While `guide` is on, the step guide (an overlay contribution of kind
 * `guide`, which the workbench renders in place of its generic guide note) floats over the
 * workflow's screens. The screens themselves are other plugins' routes (data-access, pattern,
 * modelling). Manifest only: panels and the guide load with `import()`.
 */
import { definePlugin, navigationServiceRef, projectLinkSearch, type CommandContribution, type MenuItemContribution } from '@decisio/sdk-plugin';
import { workflowEndpoints } from './api';
import { WORKFLOW_MENU, inWorkflow } from './model/menu';
import { showsGuide } from './model/guide';
import zhCN from './locales/zh-CN.json';
import enUS from './locales/en-US.json';

// Commands reach every step from anywhere (command palette); "back" only from the project area.
const commands: CommandContribution[] = WORKFLOW_MENU.map((m) => ({
  id: `workflow.open-${m.id}`,
  titleKey: m.id === 'back' ? m.titleKey : `commands.${m.id}`,
  icon: m.icon,
  keywords: [m.id.replace('-', ' '), 'workflow', 'step'],
  when: (ctx) => ctx.signedIn && (m.id !== 'back' || inWorkflow(ctx.pathname)),
  // The palette shows it to users who may reach the page (the projects menu, the dashboard for "back").
  opens: m.to,
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
  // Decided by the page it opens: the projects menu for the steps, the dashboard for "back".
  menu: m.to,
  // The deductions, deploy, reports, ... of other plugins come between the steps and "back".
  order: m.id === 'back' ? 290 : 200 + i,
  activeOn: m.id === 'back' ? undefined : [m.to],
  when: (ctx) => inWorkflow(ctx.pathname),
}));

export const workflowPlugin = definePlugin({
  id: 'workflow',
  locales: { 'zh-CN': zhCN, 'en-US': enUS },
  endpoints: workflowEndpoints,
  routes: [
    { path: '/workflow', titleKey: 'title', load: () => import('./panels/WorkflowRedirect').then((m) => m.WorkflowRedirect) },
    { path: '/project/workbench', titleKey: 'workbenchTitle', panels: ['workflow.workbench'] },
  ],
  panels: [
    { id: 'workflow.workbench', titleKey: 'workbenchTitle', icon: 'flows', load: () => import('./panels/ProjectWorkbenchPanel').then((m) => m.ProjectWorkbenchPanel) },
  ],
  overlays: [
    { id: 'workflow.guide', kind: 'guide', when: showsGuide, load: () => import('./panels/GuideOverlay').then((m) => m.GuideOverlay) },
  ],
  commands,
  menuItems,
});
