/**
 * `npm run -s learn -- <command>`: the learning engine from the command line (Node only).
 *
 * - `train --data F --graph G.yaml --reward R.py --out DIR [--venv-algo bc|revive-p|revive-t]
 *   [--policy-algo ppo|sac] [--venv-epochs N] [--venv-ensemble K] [--policy-epochs N]
 *   [--seed S] [--horizon H] [--adversarial-epochs N]`: learns a virtual environment from the
 *   data (npz / h5 / csv by extension) and the REVIVE YAML graph (bc: an ensemble of
 *   `--venv-ensemble` BC venvs, default {@link DEFAULT_ENSEMBLE_SIZE}, 1 = one venv; revive-p /
 *   revive-t: one venv, `--venv-epochs` BC warm-start steps, then `--adversarial-epochs`
 *   adversarial steps, default 30, or a quarter of `--venv-epochs` when given, at least 10), trains a policy in it
 *   with the reward file (with an ensemble, PPO / SAC get it: rollouts in a random member,
 *   the policy kept by its worst member return, PPO's disagreement-scaled behaviour
 *   regulariser), and writes into DIR `venv.json` (graph YAML, member files) and
 *   `venv.weights` (member 0; compute weights format, `node/param` flat), with an ensemble
 *   `venv.member<i>.weights` for members 1..K-1, `policy.weights`, `policy.json`,
 *   `policy.onnx` and `metrics.json`. Progress goes to stderr.
 * - `infer --policy DIR`: one JSON object per stdin line (input node name -> array, one row
 *   `[v...]` or a batch `[[v...], ...]`) -> one JSON line per input on stdout (output node
 *   name -> arrays in original units, same shape convention).
 * - `tune ...`: searches the graph's tunable parameters (SRACOS or random) in the venv; see {@link tune}.
 * - `hyper ...`: hyperparameter auto-search of the venv or policy trainer's settings (`--target
 *   policy`: trials in the venv, or ensemble, that `train` would build); see {@link hyper}.
 * Errors go to stderr with a non-zero exit code.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { encodeWeights } from '@decisio/compute';
import { DEFAULT_SEARCH_SPACE, HYPERPARAMETER_DEFAULTS, defaultPolicyAlgorithm } from '@decisio/domain';
import { importReviveYaml } from '../graph/yaml';
import { loadDataset, type DataFileKind } from '../data/load';
import type { ReviveTableReport } from '../data/revive-table';
import { runTrainer, type TrainerEvent } from '../trainer/contract';
import { BcTrainer, VENV_DEFAULTS, evaluateVenv, venvEvalEvery, type BcOptions, type VirtualEnvironment } from '../venv/bc';
import { ReviveTrainer } from '../venv/revive';
import { DEFAULT_ENSEMBLE_SIZE, EnsembleTrainer, MAX_ENSEMBLE_SIZE, type VenvEnsemble } from '../venv/ensemble';
import type { DatasetSplit } from '../data/split';
import { PythonSandbox, RewardFunction, type BatchArray } from '../sandbox/python-sandbox';
import { LearningError } from '../errors';
import { nodeFunctionFiles, sandboxNodeFunctions } from '../sandbox/node-functions';
import { matcherRewardSetup } from '../sandbox/matcher';
import { PpoTrainer, type PpoOptions } from '../policy/ppo';
import { SacTrainer, type SacOptions } from '../policy/sac';
import { PolicyRunner, savePolicy } from '../policy/runner';
import { defaultSelect, evaluateInVenv, rewardFromFunction } from '../policy/rollout';
import { randomSearch, sracos, tunableSpace, venvObjective } from '../search/search';
import { HyperparameterSearchTrainer, hyperparameterSettings, hyperparameterSpace, type HyperparameterDim } from '../search/trainer';

/** A usage or input error: message to stderr, exit code 2. */
export class CliError extends Error {}

/** Parses `--key value` pairs (and bare `--flag`). */
export function parseArgs(argv: string[]): { command: string | undefined; flags: Record<string, string> } {
  const flags: Record<string, string> = {};
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
      else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) flags[a.slice(2)] = argv[++i]!;
      else flags[a.slice(2)] = 'true';
    } else if (!command) command = a;
    else throw new CliError(`unexpected argument '${a}'`);
  }
  return { command, flags };
}

/** `--policy-algo` when given (ppo or sac); absent: the graph's default ({@link defaultPolicyAlgorithm}). */
function policyAlgoFlag(flags: Record<string, string>): 'ppo' | 'sac' | undefined {
  const a = flags['policy-algo'];
  if (a !== undefined && a !== 'ppo' && a !== 'sac') throw new CliError(`unknown --policy-algo '${a}' (ppo, sac)`);
  return a;
}

const USAGE = `usage:
  learn train --data F --graph G.yaml --reward R.py --out DIR [--venv-algo bc|revive-p|revive-t] [--policy-algo ppo|sac]
              [--venv-epochs N] [--venv-ensemble K] [--adversarial-epochs N] [--policy-epochs N] [--seed S] [--horizon H]
              [--matcher-reward M.py]
              (--venv-algo default bc (an ensemble); --policy-algo default sac when every decided field is continuous, else ppo:
               the bench's best combination, see the README;
               --venv-ensemble: BC venvs trained for the policy, 1..10, default 5 for bc; revive-p / revive-t: 1 only;
               --venv-epochs default 120 (BC steps; revive-p / revive-t: of their BC start), --adversarial-epochs default 30 (a quarter of --venv-epochs when given, at least 10);
               the venv's other settings are the server's and the bench's defaults;
               --matcher-reward: revive-p only, REVIVE's rule-based matcher reward get_reward(data) added to every node's reward)
  learn tune --data F --graph G.yaml --reward R.py --out DIR [--algo sracos|random] [--trials N] [--venv-algo A] [--venv-epochs N] [--adversarial-epochs N]
              [--horizon H] [--seed S]
              (--trials default 20, --horizon 10: the server's parameter search's; one venv, its flags' defaults as train's)
  learn hyper --data F --graph G.yaml --out DIR [--target venv|policy] [--reward R.py] [--policy-algo ppo|sac] [--algo sracos|random]
              [--trials N] [--trial-epochs N] [--space S.json] [--venv-algo A] [--venv-epochs N] [--venv-ensemble K] [--adversarial-epochs N] [--seed S]
              (--target policy: the venv(s) are trained as by train, --venv-ensemble included, and each trial's policy is
               scored by its selection return, with an ensemble the worst member's (ppo) or the members' mean (sac);
               --policy-algo default as train; --target venv: trials are single
               BC venvs, --venv-algo / --venv-epochs / --venv-ensemble are not read)
  learn infer --policy DIR   (JSON lines on stdin -> JSON lines on stdout)
  train, tune and hyper take --agents a,b: the graph's policy nodes (default: the outputs computed from data inputs only)`;

function need(flags: Record<string, string>, name: string): string {
  const v = flags[name];
  if (!v || v === 'true') throw new CliError(`missing --${name}\n${USAGE}`);
  return v;
}

function intFlag(flags: Record<string, string>, name: string, dflt: number): number {
  const v = flags[name];
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new CliError(`--${name} must be a non-negative integer, got '${v}'`);
  return n;
}

function dataKind(file: string): DataFileKind {
  const e = extname(file).toLowerCase();
  if (e === '.npz') return 'npz';
  if (e === '.h5' || e === '.hdf5') return 'h5';
  if (e === '.csv') return 'csv';
  throw new CliError(`unknown data file type '${e}' (npz, h5 or csv)`);
}

function venvAlgoOf(flags: Record<string, string>): VenvAlgo {
  const a = flags['venv-algo'] ?? 'bc';
  if (a !== 'bc' && a !== 'revive-p' && a !== 'revive-t') throw new CliError(`unknown --venv-algo '${a}' (bc, revive-p, revive-t)`);
  return a;
}

/**
 * `--venv-ensemble K`: an integer in [1, {@link MAX_ENSEMBLE_SIZE}]; default
 * {@link DEFAULT_ENSEMBLE_SIZE} for bc, 1 for revive-p / revive-t (not ensembled: K > 1 refused).
 */
export function venvEnsembleOf(flags: Record<string, string>, algo: VenvAlgo): number {
  const v = flags['venv-ensemble'];
  if (v === undefined) return algo === 'bc' ? DEFAULT_ENSEMBLE_SIZE : 1;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isInteger(n) || n < 1 || n > MAX_ENSEMBLE_SIZE) throw new CliError(`--venv-ensemble must be an integer from 1 to ${MAX_ENSEMBLE_SIZE}, got '${v}'`);
  if (n > 1 && algo !== 'bc') throw new CliError(`--venv-ensemble ${n}: ${algo} venvs are not ensembled (only bc venvs are); use --venv-ensemble 1 or leave it out`);
  return n;
}

/** The venv `train` builds, as read from its flags (also `hyper --target policy`'s venv). */
export interface VenvSettings {
  /** `--venv-algo`, default bc. */
  algo: VenvAlgo;
  /** `--venv-epochs`: BC steps (revive-p / revive-t: of the BC warm start), default 120 (`VENV_DEFAULTS.steps`, the server's and the bench's). */
  epochs: number;
  /** `--adversarial-epochs` (revive-p / revive-t), default `VENV_DEFAULTS.adversarialSteps` (30), or a quarter of `--venv-epochs` (at least 10) when that is given. */
  adversarialEpochs: number;
  /** `--venv-ensemble` ({@link venvEnsembleOf}): BC venvs trained, 1 = one venv. */
  members: number;
}

/**
 * Reads `train`'s venv flags (`--venv-algo`, `--venv-epochs`, `--adversarial-epochs`,
 * `--venv-ensemble`). Throws {@link CliError} on an unknown algorithm, a bad count, or more
 * than one member of a revive-p / revive-t venv.
 */
export function venvSettingsOf(flags: Record<string, string>): VenvSettings {
  const steps = venvStepsOf(flags);
  return { ...steps, members: venvEnsembleOf(flags, steps.algo) };
}

/**
 * One venv's flags (`--venv-algo`, `--venv-epochs`, `--adversarial-epochs`), read alike by
 * `train` (with its ensemble, {@link venvSettingsOf}) and `tune` (one venv).
 */
export function venvStepsOf(flags: Record<string, string>): Omit<VenvSettings, 'members'> {
  const algo = venvAlgoOf(flags);
  const epochs = intFlag(flags, 'venv-epochs', VENV_DEFAULTS.steps);
  // the defaults' adversarial steps when `--venv-epochs` is left out, else a quarter of it (at least 10)
  const adversarialEpochs = intFlag(flags, 'adversarial-epochs', flags['venv-epochs'] === undefined ? VENV_DEFAULTS.adversarialSteps : Math.max(10, Math.round(epochs / 4)));
  return { algo, epochs, adversarialEpochs };
}

const log = (msg: string): void => {
  process.stderr.write(`${msg}\n`);
};

/** `--agents a,b`: the graph's agent (policy) nodes, named instead of inferred. */
export function agentsOf(flags: Record<string, string>): string[] | undefined {
  const v = flags['agents'];
  if (v === undefined) return undefined;
  const names = v === 'true' ? [] : v.split(',').map((x) => x.trim()).filter(Boolean);
  if (names.length === 0) throw new CliError('--agents needs node names, comma separated');
  return names;
}

/**
 * Reads a REVIVE YAML graph. Without `agents` the roles are inferred (outputs computed from data
 * inputs only are agents); with it exactly those outputs are agents, and a name that is not an
 * output of the graph is refused.
 */
export function graphOf(yamlText: string, agents?: string[]) {
  const graph = importReviveYaml(yamlText, agents ? { agents } : {}).graph;
  for (const a of agents ?? []) {
    const n = graph.nodes.find((x) => x.name === a);
    if (!n || n.role !== 'agent') throw new CliError(`--agents: '${a}' is not an output node of the graph`);
  }
  return graph;
}

/** One line on what a REVIVE csv became (node-named columns -> the YAML's fields). */
export function describeReviveTable(r: ReviveTableReport): string {
  const mapped = r.mapped.map((m) => `${m.from} -> ${m.to.join(', ')}`).join('; ');
  const index = r.indexColumn ? `; unnamed column ${r.indexColumn.position + 1} ${r.indexColumn.action === 'drop' ? 'dropped' : `kept as ${r.indexColumn.name}`}` : '';
  return `${mapped}${index}; ${r.trajectories} trajectories (from ${r.trajectorySource})${r.unused.length ? `; unused: ${r.unused.join(', ')}` : ''}`;
}

/** Venv algorithm of `train` / `tune`. */
export type VenvAlgo = 'bc' | 'revive-p' | 'revive-t';

/**
 * Loads the graph and data, starts the sandbox and trains the venv (shared by train, tune and
 * hyper; train and `hyper --target policy` pass {@link venvSettingsOf}). `bc`: `venvEpochs`
 * BC trainer steps, of `members` venvs (an {@link EnsembleTrainer}: one split, member `i`
 * from seed `seed + 1000 i`, member 0 being the single venv of `members` = 1, which trains a
 * plain BC venv as before); `revive-p` / `revive-t`: a BC warm start of `venvEpochs` steps,
 * then `adversarialEpochs` adversarial steps (one venv).
 * `venv` is member 0 (its held-out report `venvReport`); `ensemble` all members when more than one.
 */
async function prepare(dataFile: string, graphFile: string, rewardFile: string, seed: number, venvEpochs: number, algo: VenvAlgo = 'bc', adversarialEpochs = 0, members = 1, agents?: string[], matcherFile?: string) {
  const yamlText = readFileSync(graphFile, 'utf8');
  const graph = graphOf(yamlText, agents);
  log(`[learn] loading ${dataFile}`);
  const ds = await loadDataset(new Uint8Array(readFileSync(dataFile)), dataKind(dataFile), graph, { onReviveTable: (r) => log(`[learn] REVIVE csv: ${describeReviveTable(r)}`) });
  log(`[learn] ${ds.rows} rows, ${ds.trajectoryCount} trajectories`);
  const files: Record<string, string> = { 'reward.py': readFileSync(rewardFile, 'utf8'), ...nodeFunctionFiles(graph) };
  const matcherSetup = matcherFile ? matcherRewardSetup(readFileSync(matcherFile, 'utf8')) : undefined;
  if (matcherSetup) Object.assign(files, matcherSetup.files);
  for (const n of graph.nodes) {
    const fn = n.function;
    if (fn?.kind === 'python' && !files[fn.file]) {
      const p = join(dirname(graphFile), fn.file);
      if (existsSync(p)) files[fn.file] = readFileSync(p, 'utf8');
    }
  }
  const sandbox = await PythonSandbox.start({ files, onLog: (l: string) => log(`[python] ${l}`) });
  let ok = false;
  try {
    const dims = Object.fromEntries(Object.entries(ds.codecs).map(([k, c]) => [k, c.dim]));
    const nodeFunction = graph.nodes.some((n) => n.function?.kind === 'python') ? sandboxNodeFunctions(sandbox, graph, dims) : undefined;
    const reward = rewardFromFunction(new RewardFunction(sandbox));
    // venv
    const tv = performance.now();
    let venv: VirtualEnvironment;
    let split: DatasetSplit;
    let ensemble: VenvEnsemble | undefined;
    if (algo === 'bc' && members > 1) {
      log(`[venv] ensemble of ${members} BC venvs (one split; member i from seed ${seed} + 1000 i)`);
      const ens = new EnsembleTrainer(graph, ds, members, { evalEvery: venvEvalEvery(venvEpochs), ...(nodeFunction ? { nodeFunction } : {}) });
      await runTrainer(ens, {
        seed,
        stop: { system: true },
        budget: { maxSteps: venvEpochs },
        onEvent: (e) => {
          if (e.type === 'metrics' && e.score !== undefined) log(`[venv] step ${e.step}/${venvEpochs} mean member score ${e.score.toFixed(2)}`);
          if (e.type === 'stopped') log(`[venv] stopped: ${e.reason}`);
        },
      });
      ensemble = ens.ensemble(true);
      venv = ensemble.members[0]!;
      split = ens.members[0]!.split!;
    } else if (algo === 'bc') {
      const bc = new BcTrainer(graph, ds, { evalEvery: venvEvalEvery(venvEpochs), ...(nodeFunction ? { nodeFunction } : {}) });
      await runTrainer(bc, {
        seed,
        stop: { system: true },
        budget: { maxSteps: venvEpochs },
        onEvent: (e) => {
          if (e.type === 'metrics' && e.score !== undefined) log(`[venv] step ${e.step}/${venvEpochs} score ${e.score.toFixed(2)}`);
          if (e.type === 'stopped') log(`[venv] stopped: ${e.reason}`);
        },
      });
      const bcCk = bc.checkpoint();
      if (bcCk.best) bc.venv!.loadWeights(bcCk.best);
      venv = bc.venv!;
      split = bc.split!;
    } else {
      log(`[venv] ${algo}: BC warm start (${venvEpochs} steps)`);
      const matcher = matcherSetup ? new RewardFunction(sandbox, matcherSetup.file) : undefined;
      if (matcher) log(`[venv] ${algo}: matcher reward ${matcherFile} (weight ${matcherSetup!.weight}) added to every node's reward`);
      const rv = new ReviveTrainer(graph, ds, algo === 'revive-p' ? 'p' : 't', {
        bcSteps: venvEpochs,
        evalEvery: venvEvalEvery(adversarialEpochs, true),
        ...(nodeFunction ? { nodeFunction } : {}),
        ...(matcher ? { matcherReward: (b: Record<string, BatchArray>) => matcher.compute(b), matcherWeight: matcherSetup!.weight } : {}),
      });
      await runTrainer(rv, {
        seed,
        stop: { system: true },
        budget: { maxSteps: adversarialEpochs },
        onEvent: (e) => {
          if (e.type === 'metrics' && e.score !== undefined) log(`[venv] ${algo} step ${e.step}/${adversarialEpochs} score ${e.score.toFixed(2)} (BC start ${rv.initialScore.toFixed(2)})`);
          if (e.type === 'stopped') log(`[venv] stopped: ${e.reason}`);
        },
      });
      rv.useBest();
      venv = rv.venv!;
      split = rv.split!;
    }
    const evaluate = (v: VirtualEnvironment) => evaluateVenv(v, split.validation, { horizon: 10, ...(nodeFunction ? { nodeFunction } : {}) });
    const venvReport = await evaluate(venv);
    const memberScores = [venvReport.score];
    for (const m of ensemble?.members.slice(1) ?? []) memberScores.push((await evaluate(m)).score);
    const venvSeconds = (performance.now() - tv) / 1000;
    log(`[venv] held-out score ${venvReport.score.toFixed(2)}${ensemble ? ` (member 0; members ${memberScores.map((s) => s.toFixed(2)).join(', ')})` : ''} (${venvSeconds.toFixed(1)} s)`);
    ok = true;
    return { yamlText, graph, ds, sandbox, nodeFunction, reward, venv, ensemble, memberScores, venvReport, venvSeconds };
  } finally {
    if (!ok) await sandbox.close();
  }
}

/** The `train` command; returns the metrics written to `metrics.json`. */
export async function train(flags: Record<string, string>): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const dataFile = need(flags, 'data');
  const graphFile = need(flags, 'graph');
  const rewardFile = need(flags, 'reward');
  const out = need(flags, 'out');
  const { algo: venvAlgo, epochs: venvEpochs, adversarialEpochs, members } = venvSettingsOf(flags);
  const askedPolicyAlgo = policyAlgoFlag(flags);
  const seed = intFlag(flags, 'seed', 0);
  const policyEpochs = intFlag(flags, 'policy-epochs', 100);
  const horizon = intFlag(flags, 'horizon', 50);
  const matcherFile = flags['matcher-reward'];
  if (matcherFile !== undefined && venvAlgo !== 'revive-p') throw new CliError(new LearningError('revive.matcherReward', { algo: venvAlgo }).message);
  for (const f of [dataFile, graphFile, rewardFile, ...(matcherFile ? [matcherFile] : [])]) if (!existsSync(f)) throw new CliError(`no such file: ${f}`);
  const { yamlText, graph, ds, sandbox, nodeFunction, reward, venv, ensemble, memberScores, venvReport, venvSeconds } = await prepare(dataFile, graphFile, rewardFile, seed, venvEpochs, venvAlgo, adversarialEpochs, members, agentsOf(flags), matcherFile);
  const policyAlgo = askedPolicyAlgo ?? defaultPolicyAlgorithm(graph);
  if (!askedPolicyAlgo) log(`[policy] ${policyAlgo} (the default for this graph: SAC when every decided field is continuous, else PPO)`);
  try {
    mkdirSync(out, { recursive: true });
    writeVenvFiles(out, venvAlgo, yamlText, ensemble?.members ?? [venv], memberScores);
    // policy: with an ensemble, PPO / SAC roll out in its members and keep the policy by its
    // worst (PPO) or mean (SAC) member return (their defaults with an `ensemble`), as the
    // learning bench does
    const tp = performance.now();
    const opts = { horizon, ...(nodeFunction ? { nodeFunction } : {}), ...(ensemble ? { ensemble } : {}), evalEvery: Math.max(1, Math.min(5, Math.floor(policyEpochs / 4) || 1)) };
    const trainer = policyAlgo === 'ppo' ? new PpoTrainer(venv, reward, opts, ds) : new SacTrainer(venv, reward, opts, ds);
    let samples = 0;
    await runTrainer<unknown>(trainer as never, {
      seed: seed + 1,
      stop: { system: true },
      budget: { maxSteps: policyEpochs },
      onEvent: (e) => {
        if (e.type === 'metrics') {
          samples += e.metrics['samples'] ?? 0;
          if (e.reward !== undefined) log(`[policy] step ${e.step}/${policyEpochs} venv return ${e.reward.toFixed(3)}`);
        }
        if (e.type === 'stopped') log(`[policy] stopped: ${e.reason}`);
      },
    });
    const best = trainer.useBest();
    const behaviourReturn = await evaluateInVenv(venv, ds, undefined, reward, { horizon, windows: 128, seed: 12345, ...(nodeFunction ? { nodeFunction } : {}) });
    const policySeconds = (performance.now() - tp) / 1000;
    const pfiles = await savePolicy(trainer.policy, policyAlgo, policyAlgo === 'sac' ? 'tanh' : 'clip');
    for (const [name, bytes] of Object.entries(pfiles)) writeFileSync(join(out, name), bytes);
    const metrics = {
      venvAlgo,
      policyAlgo,
      seed,
      rows: ds.rows,
      trajectories: ds.trajectoryCount,
      venv: {
        algorithm: venvAlgo,
        members,
        score: venvReport.score,
        mae: venvReport.mae,
        nodes: venvReport.nodes,
        ...(ensemble ? { memberScores } : {}),
        epochs: venvEpochs,
        ...(venvAlgo === 'bc' ? {} : { adversarialEpochs }),
        seconds: venvSeconds,
      },
      policy: {
        horizon,
        epochs: policyEpochs,
        ensemble: members,
        select: defaultSelect(policyAlgo, ensemble !== undefined),
        ...(ensemble ? { memberReturnsLastEval: [...trainer.lastMemberReturns] } : {}),
        initialReturn: trainer.initialReward,
        bestReturn: best,
        behaviourReturnInVenv: behaviourReturn,
        samples,
        seconds: policySeconds,
      },
      wallSeconds: (performance.now() - t0) / 1000,
    };
    writeFileSync(join(out, 'metrics.json'), JSON.stringify(metrics, null, 2));
    log(`[learn] policy venv return ${best.toFixed(3)} (warm start ${trainer.initialReward.toFixed(3)}, behaviour ${behaviourReturn.toFixed(3)}); wrote ${out}`);
    return metrics;
  } finally {
    await sandbox.close();
  }
}

/** Flat `node/param` entries of a venv's weights (compute weights format). */
function venvEntries(venv: VirtualEnvironment): Array<[string, { shape: number[]; data: Float32Array }]> {
  const entries: Array<[string, { shape: number[]; data: Float32Array }]> = [];
  for (const [node, params] of Object.entries(venv.weights())) for (const [k, v] of Object.entries(params)) entries.push([`${node}/${k}`, { shape: [v.length], data: Float32Array.from(v) }]);
  return entries;
}

/**
 * Writes `train`'s venv files: `venv.weights` (member 0, the venv of a single-venv run, in
 * the same format as before) and `venv.json`; with more than one member also
 * `venv.member<i>.weights` for members 1..K-1, listed in `venv.json` (`members`, with
 * `memberScores`, member 0 first). A single venv's files are exactly the earlier ones.
 */
function writeVenvFiles(out: string, algorithm: VenvAlgo, graphYaml: string, venvs: VirtualEnvironment[], memberScores: number[]): void {
  const k = venvs.length;
  const meta = (i: number): Record<string, string> => (k > 1 ? { algorithm, member: String(i), members: String(k) } : { algorithm });
  writeFileSync(join(out, 'venv.weights'), encodeWeights(venvEntries(venvs[0]!), meta(0)));
  const files: string[] = [];
  for (let i = 1; i < k; i++) {
    const name = `venv.member${i}.weights`;
    writeFileSync(join(out, name), encodeWeights(venvEntries(venvs[i]!), meta(i)));
    files.push(name);
  }
  const json = { format: 'decisio.venv', algorithm, weights: 'venv.weights', ...(k > 1 ? { members: files, memberScores } : {}), graphYaml };
  writeFileSync(join(out, 'venv.json'), JSON.stringify(json, null, 2));
}

/**
 * The `tune` command: `--data --graph --reward --out DIR [--algo sracos|random] [--trials N]
 * [--venv-epochs N] [--horizon H] [--seed S]`. Trains a BC venv, searches the tunable
 * parameters (the venv's cloned behaviour decides the agents), writes `tune.json`. One venv,
 * not `train`'s ensemble: the search scores candidates in one venv (as the server's parameter
 * searches use member 0), so more members would only cost training time.
 */
export async function tune(flags: Record<string, string>): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const dataFile = need(flags, 'data');
  const graphFile = need(flags, 'graph');
  const rewardFile = need(flags, 'reward');
  const out = need(flags, 'out');
  const algo = flags['algo'] ?? 'sracos';
  if (algo !== 'sracos' && algo !== 'random') throw new CliError(`unknown --algo '${algo}' (sracos, random)`);
  const seed = intFlag(flags, 'seed', 0);
  // the server's parameter search's defaults (one set, `HYPERPARAMETER_DEFAULTS.parameter`)
  const trials = intFlag(flags, 'trials', HYPERPARAMETER_DEFAULTS.parameter.trials);
  const horizon = intFlag(flags, 'horizon', HYPERPARAMETER_DEFAULTS.parameter.horizon);
  for (const f of [dataFile, graphFile, rewardFile]) if (!existsSync(f)) throw new CliError(`no such file: ${f}`);
  const steps = venvStepsOf(flags);
  const { ds, sandbox, nodeFunction, reward, venv, venvReport } = await prepare(dataFile, graphFile, rewardFile, seed, steps.epochs, steps.algo, steps.adversarialEpochs, 1, agentsOf(flags));
  try {
    const space = tunableSpace(ds);
    if (space.length === 0) throw new CliError('the graph has no tunable parameter to search');
    const objective = venvObjective(venv, ds, reward, { horizon, seed, ...(nodeFunction ? { nodeFunction } : {}) });
    const onTrial = (t: { score: number }, i: number) => log(`[tune] trial ${i + 1}/${trials} score ${t.score.toFixed(4)}`);
    const r = algo === 'sracos' ? await sracos(space, objective, { trials, seed, onTrial }) : await randomSearch(space, objective, { trials, seed, onTrial });
    const result = { algo, trials: r.trials, best: r.best, space, venvScore: venvReport.score, wallSeconds: (performance.now() - t0) / 1000 };
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'tune.json'), JSON.stringify(result, null, 2));
    log(`[tune] best ${JSON.stringify(r.best.candidate)} score ${r.best.score.toFixed(4)}; wrote ${join(out, 'tune.json')}`);
    return result;
  } finally {
    await sandbox.close();
  }
}

/**
 * Default search spaces of `hyper` by target: the product's one default space
 * (`DEFAULT_SEARCH_SPACE` of `@decisio/domain`, what a training's auto-search tries), so the
 * command line and the server search the same values. A `--space` file searches others.
 */
export const HYPER_SPACES: { venv: HyperparameterDim[]; ppo: HyperparameterDim[]; sac: HyperparameterDim[] } = {
  venv: DEFAULT_SEARCH_SPACE.environment,
  ppo: DEFAULT_SEARCH_SPACE.policy,
  sac: DEFAULT_SEARCH_SPACE.policy,
};

/** Trainer settings a `--space` file may search, by target. */
const HYPER_SETTINGS = {
  venv: ['lr', 'hidden', 'batchSize', 'updatesPerStep', 'activation'],
  ppo: ['lr', 'horizon', 'gamma', 'lambda', 'hidden', 'batchSize', 'epochs', 'minibatch', 'clip', 'entropyCoef', 'bcLr', 'valueWarmup'],
  sac: ['lr', 'horizon', 'gamma', 'hidden', 'batchSize', 'updatesPerStep', 'minibatch', 'tau', 'bcLr'],
} as const;

/** Reads and checks a `--space` file: a JSON array of hyperparameter dimensions over known settings. */
function readSpace(file: string, allowed: readonly string[]): HyperparameterDim[] {
  if (!existsSync(file)) throw new CliError(`no such file: ${file}`);
  let dims: unknown;
  try {
    dims = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new CliError(`--space ${file} is not JSON`);
  }
  if (!Array.isArray(dims) || dims.length === 0) throw new CliError('--space must be a non-empty JSON array of {name, kind, min, max | values}');
  for (const d of dims as Array<Record<string, unknown>>) {
    if (!d || typeof d !== 'object' || typeof d['name'] !== 'string') throw new CliError('--space: every entry needs a name');
    if (!allowed.includes(d['name'])) throw new CliError(`--space: '${String(d['name'])}' is not a searchable setting here (${allowed.join(', ')})`);
    if (!['float', 'log', 'int', 'choice'].includes(String(d['kind']))) throw new CliError(`--space: '${d['name']}' has kind '${String(d['kind'])}' (float, log, int, choice)`);
  }
  try {
    hyperparameterSpace(dims as HyperparameterDim[]);
  } catch (e) {
    throw new CliError(`--space: ${e instanceof Error ? e.message : String(e)}`);
  }
  return dims as HyperparameterDim[];
}

/**
 * The `hyper` command: hyperparameter auto-search with {@link HyperparameterSearchTrainer}.
 * `--target venv` searches the settings of one BC venv, each trial a BC venv trained for
 * `--trial-epochs` steps and scored by its best held-out step score (`--venv-algo`,
 * `--venv-epochs` and `--venv-ensemble` are not read). `--target policy` first trains the
 * venv as `train` does ({@link venvSettingsOf}: with bc an ensemble of `--venv-ensemble`
 * venvs, default {@link DEFAULT_ENSEMBLE_SIZE}), then searches `--policy-algo` settings,
 * each trial a policy trained for `--trial-epochs` steps with the ensemble as in `train`
 * (rollouts in a random member, PPO's disagreement-scaled behaviour regulariser) and scored
 * by its trainer's best selection return: with an ensemble the worst member's venv return
 * (PPO) or the members' mean (SAC), the venv return with one venv. `--policy-algo` defaults
 * as `train`'s ({@link defaultPolicyAlgorithm}). Every trial runs with the same seed. `--space FILE.json`
 * replaces the default space ({@link HYPER_SPACES}). Writes `hyper.json` (trials, best
 * settings and score; for `--target policy` also `venvAlgo`, `venvEnsemble` (member count),
 * `venvScore` (member 0's held-out score), `select` (`worst`, `mean` or `venv`) and per trial, with an
 * ensemble, `memberReturns`: each member's venv return at the trial's last evaluation).
 */
export async function hyper(flags: Record<string, string>): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const dataFile = need(flags, 'data');
  const graphFile = need(flags, 'graph');
  const out = need(flags, 'out');
  const target = flags['target'] ?? 'policy';
  if (target !== 'venv' && target !== 'policy') throw new CliError(`unknown --target '${target}' (venv, policy)`);
  const algo = flags['algo'] ?? 'sracos';
  if (algo !== 'sracos' && algo !== 'random') throw new CliError(`unknown --algo '${algo}' (sracos, random)`);
  const askedPolicyAlgo = policyAlgoFlag(flags);
  const seed = intFlag(flags, 'seed', 0);
  const trials = intFlag(flags, 'trials', 20);
  if (trials < 1) throw new CliError('--trials must be at least 1');
  const trialEpochs = Math.max(1, intFlag(flags, 'trial-epochs', target === 'venv' ? 50 : 20));
  const rewardFile = target === 'policy' ? need(flags, 'reward') : undefined;
  const venvSettings = target === 'policy' ? venvSettingsOf(flags) : undefined;
  for (const f of [dataFile, graphFile, ...(rewardFile ? [rewardFile] : [])]) if (!existsSync(f)) throw new CliError(`no such file: ${f}`);
  const policyAlgo = askedPolicyAlgo ?? defaultPolicyAlgorithm(graphOf(readFileSync(graphFile, 'utf8'), agentsOf(flags)));
  const key = target === 'venv' ? 'venv' : policyAlgo;
  const dims = flags['space'] ? readSpace(flags['space'], HYPER_SETTINGS[key]) : HYPER_SPACES[key];
  const evalEvery = Math.max(1, Math.min(5, Math.floor(trialEpochs / 4) || 1));
  const onEvent = (e: TrainerEvent) => {
    if (e.type === 'log') log(`[hyper] ${e.message}`);
    if (e.type === 'stopped') log(`[hyper] stopped: ${e.reason}`);
  };
  let sandbox: PythonSandbox | undefined;
  let search: HyperparameterSearchTrainer;
  let venvScore: number | undefined;
  let ensembled = false;
  // each trial's members' returns at its last evaluation (with an ensemble): trials run one
  // after another, so the trainer built last belongs to the trial being run
  const memberReturns: number[][] = [];
  let lastTrainer: PpoTrainer | SacTrainer | undefined;
  const keepMemberReturns = () => {
    if (lastTrainer) memberReturns.push([...lastTrainer.lastMemberReturns]);
    lastTrainer = undefined;
  };
  try {
    if (target === 'venv') {
      const graph = graphOf(readFileSync(graphFile, 'utf8'), agentsOf(flags));
      const ds = await loadDataset(new Uint8Array(readFileSync(dataFile)), dataKind(dataFile), graph);
      log(`[learn] ${ds.rows} rows, ${ds.trajectoryCount} trajectories`);
      search = new HyperparameterSearchTrainer(dims, {
        algo,
        trials,
        metric: 'score',
        budget: { maxSteps: trialEpochs },
        trialSeed: seed,
        build: (s) => new BcTrainer(graph, ds, { ...(s as BcOptions), evalEvery: Math.max(1, Math.min(10, Math.floor(trialEpochs / 4) || 1)), systemMaxSteps: trialEpochs }) as never,
      });
    } else {
      const v = venvSettings!;
      const p = await prepare(dataFile, graphFile, rewardFile!, seed, v.epochs, v.algo, v.adversarialEpochs, v.members, agentsOf(flags));
      sandbox = p.sandbox;
      venvScore = p.venvReport.score;
      ensembled = p.ensemble !== undefined;
      // as train: with an ensemble PPO / SAC roll out in its members and report (and keep)
      // the worst (PPO) or mean (SAC) member return, which is what the trial is scored by
      const base = { evalEvery, systemMaxSteps: trialEpochs, ...(p.nodeFunction ? { nodeFunction: p.nodeFunction } : {}), ...(p.ensemble ? { ensemble: p.ensemble } : {}) };
      search = new HyperparameterSearchTrainer(dims, {
        algo,
        trials,
        metric: 'reward',
        budget: { maxSteps: trialEpochs },
        trialSeed: seed + 1,
        build: (s) => {
          keepMemberReturns();
          lastTrainer = policyAlgo === 'ppo' ? new PpoTrainer(p.venv, p.reward, { ...(s as PpoOptions), ...base }, p.ds) : new SacTrainer(p.venv, p.reward, { ...(s as SacOptions), ...base }, p.ds);
          return lastTrainer as never;
        },
      });
    }
    const r = await runTrainer(search, { seed, stop: { system: true }, onEvent });
    keepMemberReturns();
    if (r.reason === 'failed') throw new Error(`hyperparameter search failed: ${r.error instanceof Error ? r.error.message : String(r.error)}`);
    const best = search.best;
    const result = {
      target,
      ...(target === 'policy' ? { policyAlgo, venvAlgo: venvSettings!.algo, venvEnsemble: venvSettings!.members, venvScore, select: defaultSelect(policyAlgo, ensembled) } : {}),
      algo,
      trialEpochs,
      space: dims,
      trials: search.trials.map((t, i) => ({
        settings: hyperparameterSettings(dims, t.candidate),
        score: t.score,
        ...(ensembled && memberReturns.length === search.trials.length ? { memberReturns: memberReturns[i] } : {}),
      })),
      best: best ? { settings: search.bestSettings(), score: best.score } : null,
      wallSeconds: (performance.now() - t0) / 1000,
    };
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'hyper.json'), JSON.stringify(result, null, 2));
    log(`[hyper] best ${JSON.stringify(result.best?.settings)} ${target === 'venv' ? 'score' : ensembled ? 'worst-member venv return' : 'venv return'} ${best?.score.toFixed(4)}; wrote ${join(out, 'hyper.json')}`);
    return result;
  } finally {
    await sandbox?.close();
  }
}

/** Turns a JSON value (one row `[v...]`, a scalar, or a batch `[[v...], ...]`) into flat rows. */
function rowsOf(v: unknown, dim: number, name: string): { data: number[]; rows: number; batch: boolean } {
  if (typeof v === 'number') return { data: [v], rows: 1, batch: false };
  if (!Array.isArray(v)) throw new CliError(`input '${name}' must be an array`);
  if (v.length > 0 && Array.isArray(v[0])) {
    const data: number[] = [];
    for (const r of v as unknown[]) {
      if (!Array.isArray(r) || r.length !== dim || r.some((x) => typeof x !== 'number')) throw new CliError(`input '${name}': every row must hold ${dim} numbers`);
      data.push(...(r as number[]));
    }
    return { data, rows: v.length, batch: true };
  }
  if (v.length !== dim || v.some((x) => typeof x !== 'number')) throw new CliError(`input '${name}' must hold ${dim} numbers`);
  return { data: v as number[], rows: 1, batch: false };
}

/** Answers one `infer` line. */
export function inferLine(runner: PolicyRunner, line: string): string {
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch {
    throw new CliError('input line is not JSON');
  }
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new CliError('input line must be a JSON object of node name -> array');
  const inputs: Record<string, number[]> = {};
  let rows = -1;
  let batch = false;
  for (const name of runner.inputNames) {
    const dim = runner.policy.codecs[name]!.dim;
    if (!(name in (obj as Record<string, unknown>))) throw new CliError(`missing input node '${name}' (needs ${runner.inputNames.join(', ')})`);
    const r = rowsOf((obj as Record<string, unknown>)[name], dim, name);
    if (rows >= 0 && r.rows !== rows) throw new CliError('input nodes disagree on the number of rows');
    rows = r.rows;
    batch ||= r.batch;
    inputs[name] = r.data;
  }
  const out = runner.run(inputs, Math.max(rows, 1));
  const res: Record<string, number[] | number[][]> = {};
  for (const [name, data] of Object.entries(out)) {
    const dim = runner.policy.codecs[name]!.dim;
    const arr = Array.from(data);
    res[name] = batch ? Array.from({ length: rows }, (_, r) => arr.slice(r * dim, (r + 1) * dim)) : arr;
  }
  return JSON.stringify(res);
}

/** The `infer` command: stdin JSON lines -> stdout JSON lines. */
export async function infer(flags: Record<string, string>): Promise<void> {
  const dir = need(flags, 'policy');
  const file = join(dir, 'policy.weights');
  if (!existsSync(file)) throw new CliError(`no policy.weights in ${dir}`);
  const runner = PolicyRunner.fromWeights(new Uint8Array(readFileSync(file)));
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    process.stdout.write(`${inferLine(runner, line)}\n`);
  }
}

/** Entry point; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    const { command, flags } = parseArgs(argv);
    if (command === 'train') await train(flags);
    else if (command === 'infer') await infer(flags);
    else if (command === 'tune') await tune(flags);
    else if (command === 'hyper') await hyper(flags);
    else throw new CliError(command ? `unknown command '${command}'\n${USAGE}` : USAGE);
    return 0;
  } catch (e) {
    process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    return e instanceof CliError ? 2 : 1;
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  // stdout carries data (infer): informational console output goes to stderr
  console.info = (...a: unknown[]) => console.error(...a);
  console.log = (...a: unknown[]) => console.error(...a);
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
