/**
 * The guided first run (spec platform §2: the guide overlay shows while the query parameter
 * `guide` is present and is not the text `false`): the workflow's steps in order, the screens
 * each one covers, and where "Next step" leads. Headless; the guide overlay renders it.
 */
import { isGuideOn } from '@decisio/sdk-plugin';

/** Guide step ids, in the order of a first run. */
export const GUIDE_STEP_IDS = ['dataAccess', 'pattern', 'scheme', 'environment', 'reward', 'policy', 'deductions', 'deploy'] as const;
export type GuideStepId = (typeof GUIDE_STEP_IDS)[number];

/** One step: the screen "Next step" opens, and every screen that belongs to the step. */
export interface GuideStep {
  id: GuideStepId;
  route: string;
  routes: readonly string[];
}

export const GUIDE_STEPS: readonly GuideStep[] = [
  { id: 'dataAccess', route: '/workflow/table-correlation', routes: ['/workflow/table-correlation'] },
  { id: 'pattern', route: '/workflow/pattern', routes: ['/workflow/pattern'] },
  { id: 'scheme', route: '/workflow/scheme', routes: ['/workflow/scheme'] },
  { id: 'environment', route: '/workflow/simulator', routes: ['/workflow/simulator', '/workflow/simulator/train'] },
  { id: 'reward', route: '/workflow/objective', routes: ['/workflow/objective'] },
  { id: 'policy', route: '/workflow/policy', routes: ['/workflow/policy', '/workflow/policy/train'] },
  { id: 'deductions', route: '/workflow/simulator/simulation', routes: ['/workflow/simulator/simulation', '/workflow/policy/decision'] },
  { id: 'deploy', route: '/project/deploy', routes: ['/project/deploy', '/project/deploy-detail'] },
];

/** Where a guided first run starts (the template project's data access). */
export const GUIDE_START = GUIDE_STEPS[0]!.route;

/** The debug page belongs to the step of the training in its link: a policy's, else an environment's. */
function stepOfDebug(search: Readonly<Record<string, string | undefined>>): GuideStepId | null {
  if (search.policyId) return 'policy';
  if (search.simulatorId) return 'environment';
  return null;
}

/**
 * Index of the step a screen belongs to, or -1 for a screen outside the steps. `search` (the
 * query parameters) places the debug page of a training in that training's step.
 */
export function guideStepIndex(pathname: string, search: Readonly<Record<string, string | undefined>> = {}): number {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/workflow/debug') {
    const id = stepOfDebug(search);
    return id ? GUIDE_STEP_IDS.indexOf(id) : -1;
  }
  return GUIDE_STEPS.findIndex((s) => s.routes.includes(path));
}

/** The step after the current screen's: the first step from a screen outside the steps, `null` after the last. */
export function nextGuideStep(pathname: string, search: Readonly<Record<string, string | undefined>> = {}): GuideStep | null {
  return GUIDE_STEPS[guideStepIndex(pathname, search) + 1] ?? null;
}

/** Screens where the step guide shows: every step's, the workflow area and the project workbench. */
export function guideScreen(pathname: string): boolean {
  return guideStepIndex(pathname) >= 0 || pathname === '/workflow' || pathname.startsWith('/workflow/') || pathname === '/project/workbench';
}

/** Whether the step guide shows at a location: on a guide screen with `guide` on. */
export function showsGuide(location: { pathname: string; search: Record<string, string> }): boolean {
  return isGuideOn(location.search) && guideScreen(location.pathname);
}
