/**
 * `npm run bench -- learning`: offline policy learning on the reference tasks, one JSON line
 * per task on stdout. For each task: offline data from the noisy behaviour policy, a BC venv
 * (held-out step score), PPO trained in the venv only, then every policy judged in the TRUE
 * simulator. The reference upper bound is the task's hand-written expert controller (a
 * policy trained directly in the true simulator is not run yet). `gapClosed` =
 * (offline - behaviour) / (expert - behaviour). Options: `--quick` (smaller budgets),
 * `--task=NAME`.
 */
import { buildDataset } from '../src/data/dataset';
import { runTrainer } from '../src/trainer/contract';
import { REFERENCE_TASKS, offlineToRaw, pendulumExpertPolicy, thermalExpertPolicy, inventoryExpertPolicy, type TaskPolicy } from '../src/tasks/index';
import { BcTrainer, evaluateVenv } from '../src/venv/bc';
import { PpoTrainer } from '../src/policy/ppo';
import { PolicyRunner } from '../src/policy/runner';
import { taskReward } from '../src/policy/task-reward';

console.info = (...a: unknown[]) => console.error(...a);
const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--task='))?.slice(7);
const EXPERTS: Record<string, TaskPolicy> = { pendulum: pendulumExpertPolicy, thermal: thermalExpertPolicy, inventory: inventoryExpertPolicy };
const SEEDS = 5;
const HORIZON = Number(process.argv.find((a) => a.startsWith('--horizon='))?.slice(10) ?? 20);
const POLICY_STEPS = Number(process.argv.find((a) => a.startsWith('--policy-steps='))?.slice(15) ?? (quick ? 12 : 40));

for (const [id, task] of Object.entries(REFERENCE_TASKS)) {
  if (only && id !== only) continue;
  const t0 = performance.now();
  const graph = task.graph();
  const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: quick ? 20 : 40, steps: task.horizon, seed: 1 })));
  const bc = new BcTrainer(graph, ds, { hidden: [128, 128], updatesPerStep: 25, evalEvery: 10, batchSize: 256, lr: 2e-3 });
  await runTrainer(bc, { seed: 1, stop: { system: true }, budget: { maxSteps: quick ? 40 : 120 }, onEvent: () => {} });
  const ck = bc.checkpoint();
  if (ck.best) bc.venv!.loadWeights(ck.best);
  const venvReport = await evaluateVenv(bc.venv!, bc.split!.validation, { horizon: 10 });
  const venvSeconds = (performance.now() - t0) / 1000;
  const tp = performance.now();
  const ppoOptions = { horizon: HORIZON, batchSize: 64, evalEvery: 2 };
  const warm = new PpoTrainer(bc.venv!, taskReward(task), ppoOptions, ds);
  await warm.init({ seed: 3 });
  const warmPolicy = new PolicyRunner(warm.policy).asTaskPolicy();
  const ppo = new PpoTrainer(bc.venv!, taskReward(task), ppoOptions, ds);
  let samples = 0;
  await runTrainer(ppo, { seed: 3, stop: { system: true }, budget: { maxSteps: POLICY_STEPS }, onEvent: (e) => { if (e.type === 'metrics') samples += e.metrics['samples'] ?? 0; } });
  ppo.useBest();
  const policySeconds = (performance.now() - tp) / 1000;
  const runner = new PolicyRunner(ppo.policy).asTaskPolicy();
  const ret = (p: TaskPolicy) => {
    let s = 0;
    for (let k = 0; k < SEEDS; k++) s += task.simulate(p, task.horizon, 1000 + k).return;
    return s / SEEDS;
  };
  const behaviour = ret(task.behaviourPolicy);
  const offline = ret(runner);
  const warmStart = ret(warmPolicy);
  const expert = ret(EXPERTS[id]!);
  console.log(
    JSON.stringify({
      suite: 'learning',
      task: id,
      venvStepScore: +venvReport.score.toFixed(2),
      behaviourReturn: +behaviour.toFixed(2),
      warmStartReturn: +warmStart.toFixed(2),
      offlinePolicyReturn: +offline.toFixed(2),
      venvReturnWarmStart: +ppo.initialReward.toFixed(2),
      venvReturnBest: +ppo.useBest().toFixed(2),
      expertReturn: +expert.toFixed(2),
      trueSimPolicyReturn: null,
      gapClosed: +((offline - behaviour) / (expert - behaviour)).toFixed(3),
      venvSeconds: +venvSeconds.toFixed(1),
      policySeconds: +policySeconds.toFixed(1),
      wallSeconds: +((performance.now() - t0) / 1000).toFixed(1),
      policySamplesPerSecond: Math.round(samples / policySeconds),
      horizon: HORIZON,
      quick,
    }),
  );
}
