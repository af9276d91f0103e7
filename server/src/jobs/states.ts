import { FINAL_JOB_STATES, JOB_STATES, type JobStateName } from '@decisio/domain';

/**
 * Job states of the spec (workflow §4, training states). A job is created `waiting`; a worker
 * claims it (`processing`); a stop request moves a running job to `stopping`, which ends as
 * `successful by manual stop`; a job whose worker is lost goes to `restoring` and is queued again
 * to resume from its last checkpoint (or ends as `failure` after its last attempt).
 */
export const JobState = {
  waiting: 'waiting',
  processing: 'processing',
  restoring: 'restoring',
  stopping: 'stopping',
  debugging: 'debugging',
  successful: 'successful',
  stoppedManually: 'successful by manual stop',
  failure: 'failure',
} as const;

/** One of the spec's job states. */
export type JobState = (typeof JobState)[keyof typeof JobState];

/** Every job state, in the spec's order: the list of `core/domain` (the job contract's), which names the same states. */
export const jobStates: readonly JobState[] = JOB_STATES satisfies readonly JobState[];
// Both ways: a state added to one list and not the other fails to compile.
const _everyStateInDomain: readonly JobStateName[] = Object.values(JobState);
void _everyStateInDomain;

/** States a job can be claimed from by a worker. */
export const claimableStates: readonly JobState[] = [JobState.waiting, JobState.restoring];

/** States of a job a worker holds (its handler runs). */
export const heldStates: readonly JobState[] = [JobState.processing, JobState.debugging, JobState.stopping];

/** Final states: nothing changes a job once it is here (`FINAL_JOB_STATES` of `core/domain`). */
export const finalStates: readonly JobState[] = FINAL_JOB_STATES;

/** True when `state` is final. */
export function isFinalState(state: JobState): boolean {
  return finalStates.includes(state);
}
