/**
 * The deduction area's job kinds `modelling.simulation` and `modelling.decision` (their descriptors: `deduction.ts`).
 */
import { DeductionTally, MODELLING_JOB_KINDS, MODELLING_LIMITS } from '@decisio/domain';
import {
  decodeStep,
  evaluateInVenv,
  evaluateVenv,
  loadPolicy,
  modePolicy,
  type RewardCallback,
  type Dataset,
  type NodeFunctionCall,
  type RolloutPolicy,
  type VirtualEnvironment,
} from '@decisio/learning';
import type { JobKind } from '../../../jobs/queue';
import { loadVenv } from '../engine/data';
import { HeldDataset, initialDataset } from '../engine/initial-data';
import { fieldNamesOf, loggedTally, tallied } from '../engine/decision-tally';
import { need, point, type RecordPayload } from '../engine/job-run';
import { withCode, withReward } from '../engine/user-code';
import type { ModellingJobEnv } from '../engine/job-run';

/**
 * The first trajectory of the data rolled with `policy` for up to `horizon` steps (the decision
 * deduction's detail charts): per node the decided or simulated values and the data's, in
 * original units, and the reward of each step.
 */
async function decidedTrajectory(venv: VirtualEnvironment, ds: Dataset, policy: RolloutPolicy, reward: RewardCallback, horizon: number, nodeFunction: NodeFunctionCall | undefined) {
  const start = ds.starts[0] ?? 0;
  const h = Math.max(1, Math.min(horizon, (ds.ends[0] ?? start + 1) - start));
  const steps = await venv.rollout(ds, Int32Array.of(start), h, { policy, mode: 'mode', ...(nodeFunction ? { nodeFunction } : {}) });
  const nodes: Record<string, { decided: number[][]; real: number[][] }> = {};
  const rewards: number[] = [];
  for (const [k, step] of steps.entries()) {
    const decoded = decodeStep(ds, step);
    // A long deduction's steps after the data's trajectory ends have no real values.
    const inData = !(ds instanceof HeldDataset) || ds.isData(start + k);
    for (const [name, batch] of Object.entries(decoded)) {
      const entry = (nodes[name] ??= { decided: [], real: [] });
      entry.decided.push(Array.from(batch.data));
      entry.real.push(ds.raw[name] && inData ? Array.from(ds.gather(name, [start + k], 'raw')) : []);
    }
    rewards.push(...Array.from(await reward(decoded)));
  }
  return { trajectory: 0, horizon: h, nodes, rewards };
}

export function deductionJobKind(kind: 'simulation' | 'decision', { db, blobs, codeEnv }: ModellingJobEnv): JobKind<RecordPayload> {
  const knex = () => db.knex;
  /** Rollout windows of a deduction (initial states: trajectories of the initial dataset). */
  const WINDOWS = 64;
  return {
    kind: MODELLING_JOB_KINDS[kind],
    description: kind === 'simulation' ? 'Simulation deduction: rolls the environment over the data and scores it.' : 'Decision deduction: runs a policy in the environment and scores it with the reward.',
    async run(ctx) {
      const rec = await need(db, 'deductions', ctx.payload.id, 'deduction');
      const sim = await need(db, 'simulators', rec.simulator_id, 'environment');
      const { venv, dataset: simData, graph, artifact } = await loadVenv(knex(), blobs, sim);
      // The chosen initial dataset (else the environment's data) gives the initial states.
      const dataset = rec.dataset_id ? await initialDataset(knex(), blobs, String(rec.tenant_id), artifact.schemeId, graph, simData, String(rec.dataset_id), (l, level) => ctx.log(l, level)) : simData;
      const steps = Math.max(1, Math.min(Math.floor(Number(rec.step_size)), MODELLING_LIMITS.deductionStepMax));
      let result: Record<string, unknown>;
      let score: number;
      if (kind === 'simulation') {
        // Scored against the data: as many steps as the data's shortest trajectory holds.
        await ctx.log(`simulation deduction over ${steps} steps (scored over the data's trajectories)`);
        const r = await withCode(ctx, db, codeEnv, { solutionId: rec.solution_id, graph, dataset }, ({ nodeFunction }) => evaluateVenv(venv, dataset, { horizon: steps, windows: WINDOWS, ...(nodeFunction ? { nodeFunction } : {}) }));
        if (r.horizon < steps) await ctx.log(`the data's shortest trajectory has ${r.horizon} steps: scored over ${r.horizon} of the ${steps} steps asked`, 'warn');
        result = { score: r.score, mae: r.mae, horizon: r.horizon, steps, nodes: r.nodes, datasetId: rec.dataset_id ?? null };
        score = r.score;
      } else {
        const pol = await need(db, 'policies', rec.policy_id, 'policy');
        if (!pol.artifact_key) throw new Error('The policy has not finished training');
        const obj = await need(db, 'objectives', rec.objective_id ?? pol.objective_id, 'reward');
        const { policy } = loadPolicy(new Uint8Array(await blobs.get(`${pol.artifact_key}/policy.weights`)));
        // Every step asked: trajectories of the initial data extended to `steps` (see `HeldDataset`).
        const held = new HeldDataset(dataset, steps, WINDOWS);
        await ctx.log(`decision deduction over ${steps} steps from ${held.trajectoryCount} initial states`);
        // Three rollouts of `steps` steps (policy, behaviour, detail trajectory), one reward call per step.
        const calls = 3 * steps;
        let done = 0;
        let reported = 0;
        const halt = new Error('halt');
        const started = Date.now();
        const stopped = await withReward(ctx, db, codeEnv, { solutionId: rec.solution_id, graph, dataset, objective: obj }, async (inner, nodeFunction) => {
          const reward: RewardCallback = async (batch) => {
            if (ctx.shouldStop()) throw halt;
            const out = await inner(batch);
            done += 1;
            if (done - reported >= Math.max(1, Math.floor(calls / 100))) {
              reported = done;
              await ctx.reportMetrics(Math.min(0.99, done / calls), {});
            }
            return out;
          };
          try {
            // Per-field means and scenario measures of each rollout and of the logged data (`decision-tally.ts`).
            const tallies = { policy: new DeductionTally(), behaviour: new DeductionTally() };
            const withPolicy = await evaluateInVenv(venv, held, modePolicy(policy), tallied(reward, tallies.policy), { horizon: steps, windows: WINDOWS, seed: 0, nodeFunction });
            const behaviour = await evaluateInVenv(venv, held, undefined, tallied(reward, tallies.behaviour), { horizon: steps, windows: WINDOWS, seed: 0, nodeFunction });
            const trajectory = await decidedTrajectory(venv, held, modePolicy(policy), reward, steps, nodeFunction);
            const logged = await loggedTally(held, async (batch) => {
              if (ctx.shouldStop()) throw halt;
              return inner(batch);
            }, (line) => ctx.log(line, 'warn'), halt);
            const tally = { policy: tallies.policy.summary(), behaviour: tallies.behaviour.summary(), logged, fieldNames: fieldNamesOf(graph) };
            result = { reward: withPolicy, behaviourReward: behaviour, horizon: steps, steps, datasetId: rec.dataset_id ?? null, trajectory, tally };
            score = withPolicy;
            return false;
          } catch (err) {
            if (err === halt) return true;
            throw err;
          }
        });
        if (stopped) {
          await ctx.log(`stopped after ${done} of ${calls} reward calls`);
          return;
        }
        await ctx.log(`rolled ${steps} steps in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      await point(ctx, 1, 0, { score: score! });
      await knex()('deductions').where({ id: rec.id }).update({ result: JSON.stringify(result!), score: Number.isFinite(score!) ? score! : null, updated_at: new Date() });
    },
  };
}
