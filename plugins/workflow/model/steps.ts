/**
 * The steps of a solution's modelling flow (spec workflow §1) and how far each one is, derived
 * from the answers of the solution's calls. Headless: the project workbench panel renders it.
 */

/** Step ids, in flow order. `policy` and `parameter` depend on the solution's goal. */
export const STEP_IDS = ['dataAccess', 'pattern', 'scheme', 'environment', 'reward', 'policy', 'parameter'] as const;
export type StepId = (typeof STEP_IDS)[number];

/** Progress of a step. */
export type StepState = 'todo' | 'started' | 'running' | 'done' | 'failed';

/** Route of each step's screen. */
export const STEP_ROUTES: Record<StepId, string> = {
  dataAccess: '/workflow/table-correlation',
  pattern: '/workflow/pattern',
  scheme: '/workflow/scheme',
  environment: '/workflow/simulator',
  reward: '/workflow/objective',
  policy: '/workflow/policy',
  parameter: '/workflow/parameter',
};

/** A record with a job state (trainings) or a processing state (schemes). */
export interface StatefulRow {
  state?: string | null;
  processState?: string | null;
}

/** What the workbench knows about a solution (undefined: not loaded or the call failed). */
export interface SolutionFacts {
  goalType?: 'policy_search' | 'parameter_tuning' | string;
  correlation?: unknown;
  /** Node count of the stored graph. */
  graphNodes?: number;
  schemes?: StatefulRow[];
  simulators?: StatefulRow[];
  objectives?: unknown[];
  policies?: StatefulRow[];
  parameters?: StatefulRow[];
}

const RUNNING = new Set(['waiting', 'processing', 'restoring', 'stopping', 'debugging', 'running', 'debugRunning', 'started', 'queued']);
const DONE = new Set(['successful', 'success', 'successful_manual', 'manualStop', 'stop', 'complete', 'completed', 'finished']);
const FAILED = new Set(['failure', 'failed', 'exception', 'error']);

/** State of a step backed by records: done when one succeeded, running when one runs, failed when the newest failed. */
export function recordsState(rows: readonly StatefulRow[] | undefined): StepState {
  if (!rows || rows.length === 0) return 'todo';
  const states = rows.map((r) => r.state ?? r.processState ?? '');
  if (states.some((s) => DONE.has(s))) return 'done';
  if (states.some((s) => RUNNING.has(s))) return 'running';
  if (FAILED.has(states[0]!)) return 'failed';
  return 'started';
}

/** One step as the workbench shows it. */
export interface StepView {
  id: StepId;
  state: StepState;
  route: string;
  /** The first step not done: where the user goes next. */
  current: boolean;
}

/** The steps of a solution with their states; `policy` or `parameter` per the solution's goal. */
export function solutionSteps(facts: SolutionFacts): StepView[] {
  const tuning = facts.goalType === 'parameter_tuning';
  const states: Record<StepId, StepState> = {
    dataAccess: facts.correlation ? 'done' : 'todo',
    pattern: (facts.graphNodes ?? 0) > 0 ? 'done' : 'todo',
    scheme: recordsState(facts.schemes),
    environment: recordsState(facts.simulators),
    reward: (facts.objectives?.length ?? 0) > 0 ? 'done' : 'todo',
    policy: recordsState(facts.policies),
    parameter: recordsState(facts.parameters),
  };
  const ids = STEP_IDS.filter((id) => (tuning ? id !== 'policy' : id !== 'parameter'));
  const currentId = ids.find((id) => states[id] !== 'done');
  return ids.map((id) => ({ id, state: states[id], route: STEP_ROUTES[id], current: id === currentId }));
}

/** An area of the project after the training steps, opened from the workbench with the project link. */
export interface AreaLink {
  id: 'simulation' | 'decision' | 'deploy' | 'report' | 'business' | 'update' | 'hyper' | 'projectLog';
  icon: string;
  route: string;
}

/**
 * The areas after the steps (spec workflow §2, platform §2): the deductions, deploy, reports,
 * business decision, policy update, hyperparameter sets and the project log. Their screens are
 * other plugins' routes (modelling, deploy).
 */
export const AREA_LINKS: readonly AreaLink[] = [
  { id: 'simulation', icon: 'play', route: '/workflow/simulator/simulation' },
  { id: 'decision', icon: 'flow-branch', route: '/workflow/policy/decision' },
  { id: 'deploy', icon: 'cloud-upload', route: '/project/deploy' },
  { id: 'report', icon: 'timeline-bar-chart', route: '/project/report' },
  { id: 'business', icon: 'th-derived', route: '/project/business-decision' },
  { id: 'update', icon: 'refresh', route: '/project/update-policy' },
  { id: 'hyper', icon: 'properties', route: '/hyperparameter' },
  { id: 'projectLog', icon: 'history', route: '/project/project-log' },
];
