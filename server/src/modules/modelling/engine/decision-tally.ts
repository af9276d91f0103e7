/**
 * What a decision deduction measures besides its returns (issue 17 item 7): the per-field means
 * and scenario measures of the policy's rollout, of the data's own behaviour in the
 * environment, and of the data as logged in the same windows (`DeductionTally` of
 * `@decisio/domain`, where the measures are defined). Stored in the deduction's result as
 * `tally`; the reports module compares them.
 */
import { DeductionTally, NEXT_PREFIX, type DecisionGraph, type DeductionTallySummary } from '@decisio/domain';
import type { RewardCallback } from '@decisio/learning';
import type { HeldDataset } from './initial-data';

/** Rows per reward call on the logged data. */
const CHUNK = 4096;

/** A reward callback that also tallies each step's batch and the rewards it gave. */
export function tallied(reward: RewardCallback, tally: DeductionTally): RewardCallback {
  return async (batch) => {
    const r = await reward(batch);
    tally.add(batch, r);
    return r;
  };
}

/**
 * The data as logged in the deduction's windows: every row of the initial data a window covers
 * (not the held rows past a trajectory's end), in original units, with the reward function run
 * on them. A reward that cannot run on the logged rows (it reads a node the data does not hold)
 * leaves `rewardPerStep` null and says why through `warn`; the fields and measures stay. `halt`
 * (the job's stop signal thrown by `reward`) is thrown on.
 */
export async function loggedTally(held: HeldDataset, reward: RewardCallback, warn: (line: string) => Promise<void>, halt?: unknown): Promise<DeductionTallySummary> {
  const base = held.base;
  const rows: number[] = [];
  const virtualRows = held.trajectoryCount * held.horizon;
  for (let v = 0; v < virtualRows; v++) if (held.isData(v)) rows.push(held.realRow(v));
  const tally = new DeductionTally();
  let rewardWorks = true;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const batch: Record<string, { data: Float32Array; shape: [number, number] }> = {};
    for (const [node, codec] of Object.entries(base.codecs)) {
      if (!base.raw[node]) continue;
      batch[node] = { data: base.gather(node, chunk, 'raw'), shape: [chunk.length, codec.dim] };
    }
    let rewards: Float32Array | undefined;
    if (rewardWorks) {
      try {
        rewards = await reward(batch);
      } catch (err) {
        if (halt !== undefined && err === halt) throw err;
        rewardWorks = false;
        await warn(`the reward could not be measured on the logged data (${err instanceof Error ? err.message : String(err)}): the report compares fields and measures only`);
      }
    }
    tally.add(batch, rewards);
  }
  const summary = tally.summary();
  return rewardWorks ? summary : { ...summary, rewardPerStep: null };
}

/** Field names of each node of the graph (a `next_X` node without fields of its own has `X`'s). */
export function fieldNamesOf(graph: DecisionGraph): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const n of graph.nodes) out[n.name] = n.fields.map((f) => f.name);
  for (const n of graph.nodes) {
    if (out[n.name]!.length > 0 || !n.name.startsWith(NEXT_PREFIX)) continue;
    out[n.name] = out[n.name.slice(NEXT_PREFIX.length)] ?? [];
  }
  return out;
}
