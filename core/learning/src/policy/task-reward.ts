/** A reference task's TypeScript reward as a batch {@link RewardCallback} (tests, bench). */
import type { ReferenceTask, StepValues } from '../tasks/common';
import type { RewardCallback } from './rollout';

/** Wraps `task.reward` (one step, original units) as a batch reward callback. */
export function taskReward(task: Pick<ReferenceTask, 'reward'>): RewardCallback {
  return (batch) => {
    const entries = Object.entries(batch);
    const rows = entries[0]?.[1].shape[0] ?? 0;
    const out = new Float32Array(rows);
    for (let r = 0; r < rows; r++) {
      const step: StepValues = {};
      for (const [k, v] of entries) {
        const d = v.shape[1] ?? 1;
        step[k] = Array.from(v.data.subarray(r * d, r * d + d));
      }
      out[r] = task.reward(step);
    }
    return out;
  };
}
