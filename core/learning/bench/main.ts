/**
 * `npm run bench -- learning`: offline policy learning on the reference tasks, one JSON line
 * per task on stdout. For each task: offline data from the noisy behaviour policy, a venv
 * (BC, or `--venv-algo=revive-p|revive-t`; held-out step score), PPO (or SAC with
 * `--policy-algo=sac`: continuous agent fields only, so not inventory) trained in the venv
 * only, then every policy judged in the TRUE simulator. Upper bounds: PPO trained directly in
 * the true simulator with the same warm start, settings and samples
 * per iteration and `--true-sim-factor` (default 4) times the iterations
 * (`trueSimPolicyReturn`, see `true-sim.ts`), and the task's hand-written expert controller.
 * `gapClosed` = (offline - behaviour) / (trueSim - behaviour); `gapClosedVsExpert` the same
 * against the expert (null when the bound is not above the behaviour policy). Options: `--quick` (smaller budgets), `--task=NAME`,
 * `--seed=S` (shifts the data, venv, policy and true-simulator seeds), `--horizon=H` (default 50), `--batch=B` (windows per policy step, default the trainer's: 64 for PPO, 32 for SAC),
 * `--policy-steps=N`, `--trajectories=N` (behaviour episodes, default 40), `--venv-algo=A`, `--no-true-sim`, `--true-sim-factor=K`, `--policy-algo=ppo|sac`
 * (the offline policy trainer, default the product's for the task: SAC for pendulum, thermal and
 * plant, whose decisions are continuous, PPO for inventory and hover; the true-simulator bound
 * is PPO's either way).
 * Against model exploitation (see the README): `--ensemble=K` (default 5; 1 for revive-p / revive-t)
 * trains K BC venvs (member 0 is the `--ensemble=1` run's venv) and gives them to the policy trainer
 * (`ensemble`: rollouts in a random member per row and step, the policy kept by its worst
 * member return with PPO, by the members' mean with SAC), `--ensemble-rollouts=0|1`
 * and `--select=venv|mean|worst` override the trainer's defaults for them, `--penalty=W` adds the
 * ensemble-disagreement penalty (`uncertainty`), `--bc-coef=C` the behaviour regulariser,
 * `--bc-uncertainty=C` its part scaled by the members' disagreement on the policy's return
 * (`bcUncertainty`: the trainer's default, PPO 0.5, SAC 0), `--bc-baseline=zero|warm`
 * what that disagreement is counted from. `--venv-cache=DIR`
 * (development aid) keeps the trained ensemble between runs; `--policy-seed=K` draws the policy
 * training again on the same data and venvs.
 * `evals` lists each evaluation's [selection estimate, worst member, member mean, true return,
 * entropy, share of logged rows with a mean action outside the range, behaviour-regulariser
 * coefficient of the step]; the last four only with `--trace` (diagnosis: nothing is chosen by
 * them; entropy and the share are PPO's only, null with SAC); with `--trace`, `evalMembers` holds
 * every member's return at each evaluation.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Generator, getBackend, nativeBlasCore } from '@decisio/compute';
import { defaultPolicyAlgorithm } from '@decisio/domain';
import { buildDataset, type Dataset } from '../src/data/dataset';
import { Rng } from '../src/data/split';
import { runTrainer, type Trainer } from '../src/trainer/contract';
import { REFERENCE_TASKS, offlineToRaw, pendulumExpertPolicy, thermalExpertPolicy, inventoryExpertPolicy, hoverExpertPolicy, plantExpertPolicy, type TaskPolicy } from '../src/tasks/index';
import { BcTrainer, VENV_DEFAULTS, evaluateVenv, type RolloutPolicy, type VirtualEnvironment } from '../src/venv/bc';
import { decodeRows, encodeRows } from '../src/data/codec';
import { defaultSelect, evaluateInVenv } from '../src/policy/rollout';
import { ReviveTrainer } from '../src/venv/revive';
import { EnsembleTrainer, type EnsembleCheckpoint, type VenvEnsemble } from '../src/venv/ensemble';
import { ppoInTrueSimulator } from './true-sim';
import { PPO_DEFAULTS, PpoTrainer, type PpoOptions } from '../src/policy/ppo';
import { SAC_BATCH_SIZE, SAC_SELECT_TOLERANCE, SacTrainer, type SacOptions } from '../src/policy/sac';
import { AgentPolicy } from '../src/policy/agent-policy';
import type { BehaviourCoefficient } from '../src/policy/behaviour-regulariser';
import { PolicyRunner } from '../src/policy/runner';
import { taskReward } from '../src/policy/task-reward';
import { deterministicDecisions, fittedQEvaluation, type FqeOptions } from '../src/policy/fqe';

console.info = (...a: unknown[]) => console.error(...a);
const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--task='))?.slice(7);
const EXPERTS: Record<string, TaskPolicy> = { pendulum: pendulumExpertPolicy, thermal: thermalExpertPolicy, inventory: inventoryExpertPolicy, hover: hoverExpertPolicy, plant: plantExpertPolicy };
const SEEDS = 5;
const HORIZON = Number(process.argv.find((a) => a.startsWith('--horizon='))?.slice(10) ?? 50);
/** Shifts every seed of the run (data, venv, policy, true-simulator PPO); the test episodes stay the same. */
const SEED = Number(process.argv.find((a) => a.startsWith('--seed='))?.slice(7) ?? 0);
const POLICY_STEPS = Number(process.argv.find((a) => a.startsWith('--policy-steps='))?.slice(15) ?? (quick ? 12 : 100));
const VENV_ALGO = process.argv.find((a) => a.startsWith('--venv-algo='))?.slice(12) ?? 'bc';
if (VENV_ALGO !== 'bc' && VENV_ALGO !== 'revive-p' && VENV_ALGO !== 'revive-t') throw new Error(`unknown --venv-algo=${VENV_ALGO}`);
const TRUE_SIM = !process.argv.includes('--no-true-sim');
const BATCH_FLAG = process.argv.find((a) => a.startsWith('--batch='))?.slice(8);
/** The true-simulator PPO gets this many times the offline PPO's iterations (same samples per iteration). */
const TRUE_SIM_FACTOR = Number(process.argv.find((a) => a.startsWith('--true-sim-factor='))?.slice(18) ?? 4);
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
/** Venv ensemble size (bc venvs only; default 5, 1 for the adversarial venvs): see the README's "Model exploitation". */
const ENSEMBLE = Number(arg('ensemble') ?? (VENV_ALGO === 'bc' ? 5 : 1));
if (!Number.isInteger(ENSEMBLE) || ENSEMBLE < 1) throw new Error(`--ensemble must be a positive integer`);
if (ENSEMBLE > 1 && VENV_ALGO !== 'bc') throw new Error('--ensemble needs --venv-algo=bc');
const ENSEMBLE_ROLLOUTS = arg('ensemble-rollouts');
const SELECT = arg('select');
if (SELECT !== undefined && SELECT !== 'venv' && SELECT !== 'mean' && SELECT !== 'worst') throw new Error(`unknown --select=${SELECT}`);
/** `--select-tolerance=K`: SAC's `selectTolerance` (default: the trainer's). */
const SELECT_TOLERANCE = arg('select-tolerance');
if (SELECT_TOLERANCE !== undefined && !(Number(SELECT_TOLERANCE) >= 0)) throw new Error('--select-tolerance must be a number >= 0');
const PENALTY = Number(arg('penalty') ?? 0);
/** `--penalty-relative`: the penalty's disagreement is divided by its mean on the data rows (PPO's `uncertainty.relative`). */
const PENALTY_RELATIVE = process.argv.includes('--penalty-relative');
const BC_COEF = Number(arg('bc-coef') ?? 0);
/** `--bc-uncertainty=C`: the policy trainer's `bcUncertainty` (default: the trainer's, PPO 0.5, SAC 0). */
const BC_UNCERTAINTY = arg('bc-uncertainty');
/** `--bc-baseline=zero|warm`: the trainer's `bcUncertaintyBaseline` (default warm, `'warmStart'`; zero gives the runs before it). */
const BC_BASELINE = arg('bc-baseline');
if (BC_BASELINE !== undefined && BC_BASELINE !== 'zero' && BC_BASELINE !== 'warm') throw new Error(`unknown --bc-baseline=${BC_BASELINE}`);
const TRACE = process.argv.includes('--trace');
/**
 * `--fqe` (diagnosis): fitted Q evaluation on the data alone (`policy/fqe.ts`, no venv) of the
 * kept policy, its warm start (the cloned behaviour) and the expert, for ranking policies
 * independently of the venvs; reported as `fqe`, never used to choose.
 */
const FQE = process.argv.includes('--fqe');
/**
 * `--policy-seed=K` (K > 0): another draw of the policy training (warm start and trainer) on the
 * same data and venvs, seed `3 + SEED + 100000 K`; default 0, the seed's own draw.
 */
const POLICY_SEED = 3 + SEED + 100000 * Number(arg('policy-seed') ?? 0);
/** `--lr=`, `--patience=`, `--entropy-coef=`, `--epochs=`, `--eval-every=`, `--minibatch=`: the policy trainer's own settings (defaults: the trainer's; `evalEvery` 5, 2 with `--quick`). */
const POLICY_NUMBER_FLAGS: Array<[string, keyof PolicyOptions]> = [['lr', 'lr'], ['patience', 'patience'], ['entropy-coef', 'entropyCoef'], ['epochs', 'epochs'], ['eval-every', 'evalEvery'], ['minibatch', 'minibatch']];
for (const [flag] of POLICY_NUMBER_FLAGS) {
  const v = arg(flag);
  if (v !== undefined && !(Number(v) > 0)) throw new Error(`--${flag} must be a positive number`);
}
/**
 * `--venv-cache=DIR` (development aid for policy experiments): the trained ensemble's checkpoint
 * is written to DIR and read back by later runs with the same task, seed and size instead of
 * training it again (the venv training is deterministic). Wall times of such runs leave the
 * venv out: never report them as the pipeline's.
 */
const VENV_CACHE = arg('venv-cache');
/**
 * `--venv-steps=N`, `--venv-hidden=a,b`, `--venv-lr=X`, `--venv-patience=N`: the BC venvs' own
 * settings instead of the product's (`VENV_DEFAULTS`), for choosing defaults; the cache file
 * name records them.
 */
const VENV_STEPS = arg('venv-steps');
const VENV_HIDDEN = arg('venv-hidden');
const VENV_LR = arg('venv-lr');
const VENV_PATIENCE = arg('venv-patience');
for (const [flag, v] of [['venv-steps', VENV_STEPS], ['venv-lr', VENV_LR], ['venv-patience', VENV_PATIENCE]] as const) if (v !== undefined && !(Number(v) > 0)) throw new Error(`--${flag} must be a positive number`);
if (VENV_HIDDEN !== undefined && !/^\d+(,\d+)*$/.test(VENV_HIDDEN)) throw new Error('--venv-hidden must be layer sizes, comma separated');
const VENV_OPTIONS = {
  ...(process.argv.includes('--venv-bootstrap') ? { bootstrap: true } : {}),
  ...(VENV_STEPS ? { systemMaxSteps: Number(VENV_STEPS) } : {}),
  ...(VENV_HIDDEN ? { hidden: VENV_HIDDEN.split(',').map(Number) } : {}),
  ...(VENV_LR ? { lr: Number(VENV_LR) } : {}),
  ...(VENV_PATIENCE ? { patience: Number(VENV_PATIENCE) } : {}),
};
const VENV_KEY = Object.entries(VENV_OPTIONS).map(([k, v]) => `-${k}${String(v).replace(/,/g, 'x')}`).join('');
/** `--trajectories=N`: episodes of behaviour data (default 40, 20 with `--quick`); the goal's tables use the default. */
const TRAJECTORIES = Number(arg('trajectories') ?? (quick ? 20 : 40));
if (!Number.isInteger(TRAJECTORIES) || TRAJECTORIES < 2) throw new Error('--trajectories must be an integer of at least 2');
/**
 * `--policy-algo=ppo|sac`: the policy trained in the venv; default the product's for the task's
 * graph (`defaultPolicyAlgorithm`: SAC when every decided field is continuous, else PPO).
 */
const POLICY_ALGO_ASKED = arg('policy-algo');
if (POLICY_ALGO_ASKED !== undefined && POLICY_ALGO_ASKED !== 'ppo' && POLICY_ALGO_ASKED !== 'sac') throw new Error(`unknown --policy-algo=${POLICY_ALGO_ASKED}`);
if (POLICY_ALGO_ASKED === 'sac' && PENALTY_RELATIVE) throw new Error('--penalty-relative is PPO only (SAC has no relative disagreement penalty)');
/** Options both policy trainers read (the bench sets only ones they share, plus PPO's `valueWarmup` and `uncertainty.relative`). */
type PolicyOptions = PpoOptions & SacOptions;
/** What the bench uses of the offline policy trainer, PPO or SAC. */
type PolicyTrainer = Trainer & { policy: AgentPolicy; initialReward: number; bc: BehaviourCoefficient; useBest(): number; lastMemberReturns: number[] };

if (POLICY_ALGO_ASKED === 'sac') {
  // fail before any training: SAC takes continuous agent fields only (inventory's are discrete)
  for (const [id, task] of Object.entries(REFERENCE_TASKS)) {
    if (only && id !== only) continue;
    const ds = buildDataset(task.graph(), offlineToRaw(task.generate({ trajectories: 2, steps: task.horizon, seed: 1 })));
    const discrete = [...AgentPolicy.forDataset(ds, [1], new Generator(0)).heads.values()].filter((h) => h.blocks.length > 0).map((h) => h.name);
    if (discrete.length > 0) throw new Error(`--policy-algo=sac: task '${id}' has discrete or category agent fields (${discrete.join(', ')}); SAC takes continuous ones only, use --policy-algo=ppo or --task=pendulum|thermal|plant`);
  }
}

for (const [id, task] of Object.entries(REFERENCE_TASKS)) {
  if (only && id !== only) continue;
  const t0 = performance.now();
  const graph = task.graph();
  const POLICY_ALGO = POLICY_ALGO_ASKED ?? defaultPolicyAlgorithm(graph);
  // windows per policy step: the flag's, else the trainer's default (the true-simulator bound gets the same)
  const BATCH = BATCH_FLAG !== undefined ? Number(BATCH_FLAG) : POLICY_ALGO === 'sac' ? SAC_BATCH_SIZE : PPO_DEFAULTS.batchSize;
  if (POLICY_ALGO === 'sac' && PENALTY_RELATIVE) throw new Error(`--penalty-relative is PPO only, and task '${id}' gets SAC by default: add --policy-algo=ppo`);
  const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: TRAJECTORIES, steps: task.horizon, seed: 1 + SEED })));
  // the product's venv settings (`VENV_DEFAULTS`: the server's environment trainings and the CLI use them)
  const venvSteps = quick ? 40 : VENV_STEPS ? Number(VENV_STEPS) : VENV_DEFAULTS.steps;
  let venv: VirtualEnvironment;
  let validation: Dataset;
  let ensemble: VenvEnsemble | undefined;
  let venvFromCache = false;
  if (VENV_ALGO === 'bc' && ENSEMBLE > 1) {
    // member i trains from seed 1 + SEED + 1000 i on the same split: member 0 is the plain run's venv
    const ens = new EnsembleTrainer(graph, ds, ENSEMBLE, VENV_OPTIONS);
    const cached = VENV_CACHE ? join(VENV_CACHE, `${id}-s${SEED}-k${ENSEMBLE}${quick ? '-quick' : ''}${arg('trajectories') ? `-n${TRAJECTORIES}` : ''}${VENV_KEY}-${blasCore()}.json`) : undefined;
    venvFromCache = cached !== undefined && existsSync(cached);
    if (cached && venvFromCache) ens.init({ seed: 1 + SEED, checkpoint: JSON.parse(readFileSync(cached, 'utf8')) as EnsembleCheckpoint });
    else {
      await runTrainer(ens, { seed: 1 + SEED, stop: { system: true }, budget: { maxSteps: venvSteps }, onEvent: () => {} });
      if (cached) {
        mkdirSync(VENV_CACHE!, { recursive: true });
        writeFileSync(cached, JSON.stringify(ens.checkpoint()));
      }
    }
    ensemble = ens.ensemble();
    venv = ensemble.members[0]!;
    validation = ens.members[0]!.split!.validation;
  } else if (VENV_ALGO === 'bc') {
    const bc = new BcTrainer(graph, ds, VENV_OPTIONS);
    await runTrainer(bc, { seed: 1 + SEED, stop: { system: true }, budget: { maxSteps: venvSteps }, onEvent: () => {} });
    const ck = bc.checkpoint();
    if (ck.best) bc.venv!.loadWeights(ck.best);
    venv = bc.venv!;
    validation = bc.split!.validation;
  } else {
    // the same BC warm start as the bc row (its 120 steps), then the default 30 adversarial steps (10 with --quick)
    const rv = new ReviveTrainer(graph, ds, VENV_ALGO === 'revive-p' ? 'p' : 't', { bcSteps: venvSteps });
    await runTrainer(rv, { seed: 1 + SEED, stop: { system: true }, budget: { maxSteps: quick ? 10 : VENV_DEFAULTS.adversarialSteps }, onEvent: () => {} });
    rv.useBest();
    venv = rv.venv!;
    validation = rv.split!.validation;
  }
  const venvReport = await evaluateVenv(venv, validation, { horizon: 10 });
  const venvSeconds = (performance.now() - t0) / 1000;
  const tp = performance.now();
  // the trainers' own evaluation cadence (5 steps), as a training of the product runs; `--quick` evaluates every 2
  const baseOptions = { horizon: HORIZON, batchSize: BATCH, evalEvery: quick ? 2 : 5 };
  // the run's budget is the trainer's own step limit too (its default 100 would end a longer budget)
  const policyOptions: PolicyOptions = { ...baseOptions, systemMaxSteps: POLICY_STEPS };
  if (ensemble) policyOptions.ensemble = ensemble;
  if (ENSEMBLE_ROLLOUTS !== undefined) policyOptions.ensembleRollouts = ENSEMBLE_ROLLOUTS === '1';
  if (SELECT) policyOptions.select = SELECT;
  if (SELECT_TOLERANCE !== undefined) policyOptions.selectTolerance = Number(SELECT_TOLERANCE);
  if (PENALTY > 0) {
    if (!ensemble) throw new Error('--penalty needs --ensemble=K with K > 1');
    policyOptions.uncertainty = { ensemble, weight: PENALTY, relative: PENALTY_RELATIVE };
  }
  if (BC_COEF > 0) policyOptions.bcCoef = BC_COEF;
  if (BC_UNCERTAINTY !== undefined) policyOptions.bcUncertainty = Number(BC_UNCERTAINTY);
  if (BC_BASELINE !== undefined) policyOptions.bcUncertaintyBaseline = BC_BASELINE === 'warm' ? 'warmStart' : 'zero';
  for (const [flag, key] of POLICY_NUMBER_FLAGS) {
    const v = arg(flag);
    if (v !== undefined) (policyOptions as Record<string, unknown>)[key] = Number(v);
  }
  const newTrainer = (options: PolicyOptions): PolicyTrainer =>
    POLICY_ALGO === 'sac' ? new SacTrainer(venv, taskReward(task), options, ds) : new PpoTrainer(venv, taskReward(task), options, ds);
  // SAC's actions are tanh-squashed, PPO's clipped to the range
  const runnerOf = (t: PolicyTrainer) => new PolicyRunner(t.policy, POLICY_ALGO === 'sac' ? 'tanh' : 'clip').asTaskPolicy();
  // the same warm start as the trained policy's (same seed; PPO: without its value warm-up)
  const warm = newTrainer(POLICY_ALGO === 'ppo' ? { ...baseOptions, valueWarmup: 0 } : baseOptions);
  await warm.init({ seed: POLICY_SEED });
  const warmPolicy = runnerOf(warm);
  const trainer = newTrainer(policyOptions);
  // per evaluation: selection estimate, worst and mean member returns, and (`--trace`, diagnosis
  // only, never used to choose) the true return of the policy at that point
  const evals: Array<Array<number | null>> = [];
  // `--trace`: every member's return at each evaluation (the spread the selection sees)
  const evalMembers: number[][] = [];
  const uncertainty: number[] = [];
  const saturated = () => {
    const n = Math.min(2000, ds.rows);
    const rows = Int32Array.from({ length: n }, (_, i) => Math.floor((i * ds.rows) / n));
    let out = 0;
    let all = 0;
    for (const h of trainer.policy.heads.values()) {
      const values: Record<string, Float32Array> = {};
      for (const i of h.inputs) values[i] = ds.gather(i, rows);
      const a = h.act(trainer.policy.inputOf(h, values, n), n, 'mode', new Rng(0));
      for (const v of a.cont) {
        all++;
        if (Math.abs(v) > 1) out++;
      }
    }
    return all ? out / all : 0;
  };
  const ret = (p: TaskPolicy) => {
    let s = 0;
    for (let k = 0; k < SEEDS; k++) s += task.simulate(p, task.horizon, 1000 + k).return;
    return s / SEEDS;
  };
  let samples = 0;
  await runTrainer(trainer, { seed: POLICY_SEED, stop: { system: true }, budget: { maxSteps: POLICY_STEPS }, onEvent: (e) => {
    if (e.type !== 'metrics') return;
    samples += e.metrics['samples'] ?? 0;
    if (e.metrics['uncertainty'] !== undefined) uncertainty.push(e.metrics['uncertainty']);
    if (e.reward === undefined) return;
    const f = (v: number | undefined) => (v === undefined ? null : +v.toFixed(1));
    const row = [f(e.reward), f(e.metrics['eval/return-worst']), f(e.metrics['eval/return-mean']), TRACE ? f(ret(runnerOf(trainer))) : null];
    // diagnosis: the policy's entropy and the share of logged rows whose mean action lies outside the action range (PPO's: SAC squashes)
    if (TRACE) row.push(f(e.metrics['entropy']), POLICY_ALGO === 'ppo' ? +saturated().toFixed(3) : null, e.metrics['bc-coef'] === undefined ? null : +e.metrics['bc-coef'].toFixed(4));
    evals.push(row);
    if (TRACE) evalMembers.push(trainer.lastMemberReturns.map((v) => +v.toFixed(2)));
  } });
  trainer.useBest();
  const policySeconds = (performance.now() - tp) / 1000;
  const runner = runnerOf(trainer);
  const behaviour = ret(task.behaviourPolicy);
  const offline = ret(runner);
  const warmStart = ret(warmPolicy);
  const expert = ret(EXPERTS[id]!);
  // diagnosis (`--trace`): the offline and the expert policy scored in each learned environment on
  // the trainer's evaluation windows: is the venv the limit (it ranks the expert below the offline
  // policy) or the optimisation (it ranks the expert above it)?
  let venvScores: { offline: number[]; expert: number[] } | null = null;
  let trueRewardPerStep: { start: number; behaviour: number[]; offline: number[]; expert: number[] } | null = null;
  let trueNodeMeans: Record<'behaviour' | 'offline' | 'expert', Record<string, number[]>> | null = null;
  if (TRACE) {
    const members = ensemble ? ensemble.members : [venv];
    const opts = { horizon: HORIZON, windows: 128, seed: 12345 };
    const score = async (p: TaskPolicy) => Promise.all(members.map(async (m) => +(await evaluateInVenv(m, ds, asRolloutPolicy(ds, p), taskReward(task), opts)).toFixed(1)));
    venvScores = { offline: await score(runner), expert: await score(EXPERTS[id]!) };
    // where in the true episodes the returns differ: the mean true reward per step of the first
    // `START` steps (from the task's initial states) and of the rest
    const START = 20;
    const phases = (p: TaskPolicy) => {
      const r = Array.from({ length: SEEDS }, (_, k) => task.simulate(p, task.horizon, 1000 + k).rewards);
      const m = (from: number, to: number) => +(r.reduce((s, e) => s + e.slice(from, to).reduce((a, b) => a + b, 0), 0) / (SEEDS * (to - from))).toFixed(3);
      return [m(0, START), m(START, task.horizon)];
    };
    trueRewardPerStep = { start: START, behaviour: phases(task.behaviourPolicy), offline: phases(runner), expert: phases(EXPERTS[id]!) };
    // what the policies do in truth after the first `START` steps: every node's mean value (original units)
    const means = (p: TaskPolicy) => {
      const sums: Record<string, number[]> = {};
      let n = 0;
      for (let k = 0; k < SEEDS; k++) {
        const { arrays } = task.simulate(p, task.horizon, 1000 + k).data;
        for (const [node, a] of Object.entries(arrays)) {
          const [rows, dim] = a.shape as [number, number];
          const sum = (sums[node] ??= new Array<number>(dim).fill(0));
          for (let r = START; r < rows; r++) for (let d = 0; d < dim; d++) sum[d] = sum[d]! + Number(a.data[r * dim + d]);
          if (node === Object.keys(arrays)[0]) n += Math.max(0, rows - START);
        }
      }
      return Object.fromEntries(Object.entries(sums).map(([node, v]) => [node, v.map((x) => +(x / n).toFixed(2))]));
    };
    trueNodeMeans = { behaviour: means(task.behaviourPolicy), offline: means(runner), expert: means(EXPERTS[id]!) };
  }
  let fqe: Record<string, Record<string, number>> | null = null;
  if (FQE) {
    const tf = performance.now();
    const squash = POLICY_ALGO === 'sac' ? 'tanh' : 'clip';
    const policies: Record<string, RolloutPolicy> = {
      offline: deterministicDecisions(trainer.policy, squash),
      warmStart: deterministicDecisions(warm.policy, squash),
      expert: asRolloutPolicy(ds, EXPERTS[id]!),
    };
    const configs: Record<string, FqeOptions> = { h50: { gamma: 1, iterations: HORIZON, seed: 1 + SEED }, g98: { gamma: 0.98, iterations: 100, seed: 1 + SEED } };
    fqe = {};
    for (const [c, options] of Object.entries(configs)) {
      fqe[c] = {};
      for (const [name, p] of Object.entries(policies)) fqe[c][name] = +(await fittedQEvaluation(ds, p, taskReward(task), options)).value.toFixed(2);
    }
    fqe['seconds'] = { all: +((performance.now() - tf) / 1000).toFixed(1) };
  }
  let trueSim: number | null = null;
  let trueSimSeconds: number | null = null;
  let trueSimSamplesPerSecond: number | null = null;
  if (TRUE_SIM) {
    // the offline trainer's settings (its defaults, or the flags' values) for the bound too
    const ts = await ppoInTrueSimulator(task, ds, {
      iterations: POLICY_STEPS * TRUE_SIM_FACTOR,
      samplesPerIteration: BATCH * HORIZON,
      seed: 3 + SEED,
      ...(policyOptions.lr !== undefined ? { lr: policyOptions.lr } : {}),
      ...(policyOptions.epochs !== undefined ? { epochs: policyOptions.epochs } : {}),
      ...(policyOptions.minibatch !== undefined ? { minibatch: policyOptions.minibatch } : {}),
      ...(policyOptions.entropyCoef !== undefined ? { entropyCoef: policyOptions.entropyCoef } : {}),
    });
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
      blasCore: blasCore(),
      venvAlgo: VENV_ALGO,
      policyAlgo: POLICY_ALGO,
      venvStepScore: +venvReport.score.toFixed(2),
      behaviourReturn: +behaviour.toFixed(2),
      warmStartReturn: +warmStart.toFixed(2),
      offlinePolicyReturn: +offline.toFixed(2),
      venvReturnWarmStart: +trainer.initialReward.toFixed(2),
      venvReturnBest: +trainer.useBest().toFixed(2),
      venvScores,
      ...(FQE ? { fqe } : {}),
      trueRewardPerStep,
      trueNodeMeans,
      trueSimPolicyReturn: trueSim === null ? null : +trueSim.toFixed(2),
      expertReturn: +expert.toFixed(2),
      gapClosed: trueSim === null ? null : gap(trueSim),
      gapClosedVsExpert: gap(expert),
      venvSeconds: +venvSeconds.toFixed(1),
      venvCached: VENV_CACHE !== undefined && ensemble !== undefined && venvFromCache,
      venvOptions: VENV_OPTIONS,
      policySeconds: +policySeconds.toFixed(1),
      offlineWallSeconds: +((tp - t0) / 1000 + policySeconds).toFixed(1),
      policySamplesPerSecond: Math.round(samples / policySeconds),
      trueSimSeconds: trueSimSeconds === null ? null : +trueSimSeconds.toFixed(1),
      trueSimSamplesPerSecond,
      wallSeconds: +((performance.now() - t0) / 1000).toFixed(1),
      horizon: HORIZON,
      batch: BATCH,
      seed: SEED,
      policySeed: POLICY_SEED,
      policySteps: POLICY_STEPS,
      ensemble: ENSEMBLE,
      ensembleRollouts: policyOptions.ensemble ? (policyOptions.ensembleRollouts ?? true) : false,
      select: policyOptions.select ?? defaultSelect(POLICY_ALGO, ensemble !== undefined),
      selectTolerance: POLICY_ALGO === 'sac' ? (policyOptions.selectTolerance ?? SAC_SELECT_TOLERANCE) : null,
      penalty: PENALTY,
      penaltyRelative: PENALTY_RELATIVE,
      meanDisagreement: uncertainty.length ? +(uncertainty.reduce((a, b) => a + b, 0) / uncertainty.length).toPrecision(3) : null,
      bcCoef: BC_COEF,
      bcUncertainty: trainer.bc.settings.bcUncertainty,
      bcUncertaintyBaseline: trainer.bc.baseline === undefined ? 'zero' : 'warmStart',
      bcBaseline: trainer.bc.baseline === undefined ? null : +trainer.bc.baseline.toFixed(2),
      evals,
      ...(TRACE ? { evalMembers } : {}),
      trueSimFactor: TRUE_SIM_FACTOR,
      quick,
      trajectories: TRAJECTORIES,
    }),
  );
}

/**
 * What the trainings' products ran on: OpenBLAS's kernel set on the native path (`'Cooperlake'`,
 * `'Haswell'`, ...), else the CPU path or backend (`'wasm-simd'`, ...). Rounding differs from
 * one to another, and so do the runs of one seed.
 */
function blasCore(): string {
  const path = getBackend().capabilities.path;
  return (path === 'native-blas' ? nativeBlasCore() : null) ?? path;
}

/** A task's policy (original units, one row at a time) as a venv rollout policy (encoded rows): for the `--trace` diagnosis. */
function asRolloutPolicy(ds: Dataset, policy: TaskPolicy): RolloutPolicy {
  return (node, inputs, rows) => {
    const out = new Float32Array(rows * ds.codecs[node]!.width);
    for (let r = 0; r < rows; r++) {
      const raw: Record<string, number[]> = {};
      for (const [name, enc] of Object.entries(inputs)) {
        const c = ds.codecs[name];
        if (c) raw[name] = Array.from(decodeRows(c, enc.subarray(r * c.width, (r + 1) * c.width), 1));
      }
      const decided = policy(raw, new Rng(r))[node];
      if (!decided) throw new Error(`bench: the policy decided no '${node}'`);
      out.set(encodeRows(ds.codecs[node]!, decided, 1), r * ds.codecs[node]!.width);
    }
    return out;
  };
}
