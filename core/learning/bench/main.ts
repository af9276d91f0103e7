/**
 * `npm run bench -- learning`: offline policy learning on the reference tasks, one JSON line
 * per task on stdout. For each task: offline data from the noisy behaviour policy, a venv
 * (BC, or `--venv-algo=revive-p|revive-t`; held-out step score), PPO trained in the venv
 * only, then every policy judged in the TRUE simulator. Upper bounds: PPO trained directly in
 * the true simulator with the same warm start, settings and samples
 * per iteration and `--true-sim-factor` (default 4) times the iterations
 * (`trueSimPolicyReturn`, see `true-sim.ts`), and the task's hand-written expert controller.
 * `gapClosed` = (offline - behaviour) / (trueSim - behaviour); `gapClosedVsExpert` the same
 * against the expert (null when the bound is not above the behaviour policy). Options: `--quick` (smaller budgets), `--task=NAME`,
 * `--seed=S` (shifts the data, venv, policy and true-simulator seeds), `--horizon=H` (default 50), `--batch=B` (windows, default 32),
 * `--policy-steps=N`, `--venv-algo=A`, `--no-true-sim`, `--true-sim-factor=K`.
 */
import { buildDataset, type Dataset } from '../src/data/dataset';
import { runTrainer } from '../src/trainer/contract';
import { REFERENCE_TASKS, offlineToRaw, pendulumExpertPolicy, thermalExpertPolicy, inventoryExpertPolicy, type TaskPolicy } from '../src/tasks/index';
import { BcTrainer, evaluateVenv, type VirtualEnvironment } from '../src/venv/bc';
import { ReviveTrainer } from '../src/venv/revive';
import { ppoInTrueSimulator } from './true-sim';
import { PpoTrainer } from '../src/policy/ppo';
import { PolicyRunner } from '../src/policy/runner';
import { taskReward } from '../src/policy/task-reward';

console.info = (...a: unknown[]) => console.error(...a);
const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--task='))?.slice(7);
const EXPERTS: Record<string, TaskPolicy> = { pendulum: pendulumExpertPolicy, thermal: thermalExpertPolicy, inventory: inventoryExpertPolicy };
const SEEDS = 5;
const HORIZON = Number(process.argv.find((a) => a.startsWith('--horizon='))?.slice(10) ?? 50);
/** Shifts every seed of the run (data, venv, policy, true-simulator PPO); the test episodes stay the same. */
const SEED = Number(process.argv.find((a) => a.startsWith('--seed='))?.slice(7) ?? 0);
const POLICY_STEPS = Number(process.argv.find((a) => a.startsWith('--policy-steps='))?.slice(15) ?? (quick ? 12 : 40));
const VENV_ALGO = process.argv.find((a) => a.startsWith('--venv-algo='))?.slice(12) ?? 'bc';
if (VENV_ALGO !== 'bc' && VENV_ALGO !== 'revive-p' && VENV_ALGO !== 'revive-t') throw new Error(`unknown --venv-algo=${VENV_ALGO}`);
const TRUE_SIM = !process.argv.includes('--no-true-sim');
const BATCH = Number(process.argv.find((a) => a.startsWith('--batch='))?.slice(8) ?? 32);
/** The true-simulator PPO gets this many times the offline PPO's iterations (same samples per iteration). */
const TRUE_SIM_FACTOR = Number(process.argv.find((a) => a.startsWith('--true-sim-factor='))?.slice(18) ?? 4);

for (const [id, task] of Object.entries(REFERENCE_TASKS)) {
  if (only && id !== only) continue;
  const t0 = performance.now();
  const graph = task.graph();
  const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: quick ? 20 : 40, steps: task.horizon, seed: 1 + SEED })));
  const venvSteps = quick ? 40 : 120;
  let venv: VirtualEnvironment;
  let validation: Dataset;
  if (VENV_ALGO === 'bc') {
    const bc = new BcTrainer(graph, ds, { hidden: [128, 128], updatesPerStep: 25, evalEvery: 10, batchSize: 256, lr: 2e-3 });
    await runTrainer(bc, { seed: 1 + SEED, stop: { system: true }, budget: { maxSteps: venvSteps }, onEvent: () => {} });
    const ck = bc.checkpoint();
    if (ck.best) bc.venv!.loadWeights(ck.best);
    venv = bc.venv!;
    validation = bc.split!.validation;
  } else {
    // same BC warm start as the bc row, then a quarter of its steps adversarially
    const rv = new ReviveTrainer(graph, ds, VENV_ALGO === 'revive-p' ? 'p' : 't', { hidden: [128, 128], bcSteps: venvSteps, bcUpdatesPerStep: 25, bcLr: 2e-3, batchSize: 256, evalEvery: 5 });
    await runTrainer(rv, { seed: 1 + SEED, stop: { system: true }, budget: { maxSteps: Math.round(venvSteps / 4) }, onEvent: () => {} });
    rv.useBest();
    venv = rv.venv!;
    validation = rv.split!.validation;
  }
  const venvReport = await evaluateVenv(venv, validation, { horizon: 10 });
  const venvSeconds = (performance.now() - t0) / 1000;
  const tp = performance.now();
  const ppoOptions = { horizon: HORIZON, batchSize: BATCH, evalEvery: 2 };
  // the same warm start as the trained PPO's (same seed), without its value warm-up
  const warm = new PpoTrainer(venv, taskReward(task), { ...ppoOptions, valueWarmup: 0 }, ds);
  await warm.init({ seed: 3 + SEED });
  const warmPolicy = new PolicyRunner(warm.policy).asTaskPolicy();
  const ppo = new PpoTrainer(venv, taskReward(task), ppoOptions, ds);
  let samples = 0;
  await runTrainer(ppo, { seed: 3 + SEED, stop: { system: true }, budget: { maxSteps: POLICY_STEPS }, onEvent: (e) => { if (e.type === 'metrics') samples += e.metrics['samples'] ?? 0; } });
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
  let trueSim: number | null = null;
  let trueSimSeconds: number | null = null;
  let trueSimSamplesPerSecond: number | null = null;
  if (TRUE_SIM) {
    const ts = await ppoInTrueSimulator(task, ds, { iterations: POLICY_STEPS * TRUE_SIM_FACTOR, samplesPerIteration: BATCH * HORIZON, seed: 3 + SEED });
    trueSim = ret(new PolicyRunner(ts.policy).asTaskPolicy());
    trueSimSeconds = ts.seconds;
    trueSimSamplesPerSecond = Math.round(ts.samples / ts.seconds);
  }
  // no gap to close when the upper bound is not above the behaviour policy
  const gap = (upper: number) => (upper > behaviour ? +((offline - behaviour) / (upper - behaviour)).toFixed(3) : null);
  console.log(
    JSON.stringify({
      suite: 'learning',
      task: id,
      venvAlgo: VENV_ALGO,
      venvStepScore: +venvReport.score.toFixed(2),
      behaviourReturn: +behaviour.toFixed(2),
      warmStartReturn: +warmStart.toFixed(2),
      offlinePolicyReturn: +offline.toFixed(2),
      venvReturnWarmStart: +ppo.initialReward.toFixed(2),
      venvReturnBest: +ppo.useBest().toFixed(2),
      trueSimPolicyReturn: trueSim === null ? null : +trueSim.toFixed(2),
      expertReturn: +expert.toFixed(2),
      gapClosed: trueSim === null ? null : gap(trueSim),
      gapClosedVsExpert: gap(expert),
      venvSeconds: +venvSeconds.toFixed(1),
      policySeconds: +policySeconds.toFixed(1),
      offlineWallSeconds: +((tp - t0) / 1000 + policySeconds).toFixed(1),
      policySamplesPerSecond: Math.round(samples / policySeconds),
      trueSimSeconds: trueSimSeconds === null ? null : +trueSimSeconds.toFixed(1),
      trueSimSamplesPerSecond,
      wallSeconds: +((performance.now() - t0) / 1000).toFixed(1),
      horizon: HORIZON,
      batch: BATCH,
      seed: SEED,
      policySteps: POLICY_STEPS,
      trueSimFactor: TRUE_SIM_FACTOR,
      quick,
    }),
  );
}
