import { inProjectArea } from '@decisio/sdk-plugin';

/**
 * The workflow side menu as data (spec workflow §2): each entry opens its screen carrying the
 * project link parameters (guide, projectId, solutionId, …) of the current page.
 */

/** One entry: command id suffix, translation key, icon, target route. */
export interface WorkflowMenuEntry {
  id: string;
  titleKey: string;
  icon: string;
  to: string;
}

export const WORKFLOW_MENU: readonly WorkflowMenuEntry[] = [
  { id: 'workflow', titleKey: 'menu.workflow', icon: 'flows', to: '/project/workbench' },
  { id: 'pattern', titleKey: 'menu.pattern', icon: 'graph', to: '/workflow/pattern' },
  { id: 'data-access', titleKey: 'menu.dataAccess', icon: 'database', to: '/workflow/table-correlation' },
  { id: 'scheme', titleKey: 'menu.scheme', icon: 'th', to: '/workflow/scheme' },
  { id: 'environment', titleKey: 'menu.environment', icon: 'cube', to: '/workflow/simulator' },
  { id: 'reward', titleKey: 'menu.reward', icon: 'dollar', to: '/workflow/objective' },
  { id: 'policy', titleKey: 'menu.policy', icon: 'predictive-analysis', to: '/workflow/policy' },
  { id: 'parameter', titleKey: 'menu.parameter', icon: 'search-template', to: '/workflow/parameter' },
  { id: 'back', titleKey: 'menu.back', icon: 'arrow-left', to: '/dashboard' },
];

/**
 * Whether the workflow menu shows: on workflow screens and on every page of the project area
 * (`/project/*`: workbench, deploy, reports, ...), so that the steps stay one click away.
 */
export function inWorkflow(pathname: string): boolean {
  return inProjectArea(pathname);
}
