import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeWeights } from '@decisio/compute';
import { writeNpz } from '../data/npy';
import { VENV_DEFAULTS, venvEvalEvery } from '../venv/bc';
import { REFERENCE_TASKS, offlineToNpz } from '../tasks/index';
import { ACTION_0, OBS_0, PARAMETER_0, reviveYaml } from '../testing/fixtures';
import { agentsOf, CliError, graphOf, venvEnsembleOf, venvSettingsOf, venvStepsOf } from './main';

const root = resolve(__dirname, '../../../..');
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const main = join(root, 'core/learning/src/cli/main.ts');
const dir = mkdtempSync(join(tmpdir(), 'decisio-learn-cli-'));
const cli = (args: string[], input?: string) => spawnSync(process.execPath, [tsx, main, ...args], { cwd: root, input, encoding: 'utf8', timeout: 55_000 });

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('learn CLI', () => {
  it('trains an ensemble of 5 BC venvs and, the thermal task\'s decision being continuous, a SAC policy in it by default (no --venv-algo, no --policy-algo), then answers infer lines', () => {
    const task = REFERENCE_TASKS.thermal;
    writeFileSync(join(dir, 'data.npz'), offlineToNpz(task.generate({ trajectories: 8, steps: 40, seed: 1 })));
    writeFileSync(join(dir, 'graph.yaml'), task.yaml);
    writeFileSync(join(dir, 'reward.py'), task.rewardPy);
    const out = join(dir, 'out');
    const r = cli(['train', '--data', join(dir, 'data.npz'), '--graph', join(dir, 'graph.yaml'), '--reward', join(dir, 'reward.py'), '--out', out, '--venv-epochs', '4', '--policy-epochs', '2', '--seed', '1']);
    expect(r.stderr).toContain('[venv]');
    expect(r.status).toBe(0);
    for (const f of ['venv.json', 'venv.weights', 'policy.weights', 'policy.json', 'policy.onnx', 'metrics.json']) expect(existsSync(join(out, f))).toBe(true);
    const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'));
    expect(m.venv.score).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(m.policy.bestReturn)).toBe(true);
    expect(m.wallSeconds).toBeGreaterThan(0);
    expect([m.venvAlgo, m.policyAlgo]).toEqual(['bc', 'sac']);
    expect(r.stderr).toContain('[policy] sac (the default for this graph');
    // the default: 5 members, all saved, and the policy trained and selected in all of them
    expect(r.stderr).toContain('ensemble of 5 BC venvs');
    expect(m.venv.members).toBe(5);
    expect(m.venv.memberScores.length).toBe(5);
    expect(m.venv.memberScores[0]).toBe(m.venv.score);
    expect(m.policy.ensemble).toBe(5);
    expect(m.policy.select).toBe('mean');
    expect(m.policy.memberReturnsLastEval.length).toBe(5);
    const vj = JSON.parse(readFileSync(join(out, 'venv.json'), 'utf8'));
    expect(vj.weights).toBe('venv.weights');
    expect(vj.members).toEqual([1, 2, 3, 4].map((i) => `venv.member${i}.weights`));
    const w = [vj.weights, ...vj.members].map((f: string) => decodeWeights(new Uint8Array(readFileSync(join(out, f)))));
    expect(w.map((x) => x.metadata['member'])).toEqual(['0', '1', '2', '3', '4']);
    const names = [...w[0]!.tensors.keys()].sort();
    expect(names.length).toBeGreaterThan(0);
    for (const x of w) expect([...x.tensors.keys()].sort()).toEqual(names);
    // members start from other seeds: their weights differ
    const first = names[0]!;
    expect(Array.from(w[1]!.tensors.get(first)!.data)).not.toEqual(Array.from(w[0]!.tensors.get(first)!.data));

    const inf = cli(['infer', '--policy', out], '{"temperature":[5],"door_open":[1]}\n{"temperature":[[5],[-2]],"door_open":[[0],[1]]}\n');
    expect(inf.status).toBe(0);
    const lines = inf.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBe(2);
    expect(lines[0].action.length).toBe(1);
    expect(lines[1].action.length).toBe(2);
    for (const v of [lines[0].action[0], ...lines[1].action.map((x: number[]) => x[0])]) expect(v >= 0 && v <= 10).toBe(true);

    const bad = cli(['infer', '--policy', out], '{"temperature":[5]}\n');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("missing input node 'door_open'");
    const na = cli(['train', '--data', join(dir, 'data.npz'), '--graph', join(dir, 'graph.yaml'), '--reward', join(dir, 'reward.py'), '--venv-algo', 'gail', '--out', out]);
    expect(na.status).toBe(2);
    expect(na.stderr).toContain("unknown --venv-algo 'gail'");
  }, 240_000);

  it('keeps the single-venv run with --venv-ensemble 1 (member 0 of the default ensemble)', () => {
    const out = join(dir, 'out-single');
    const r = cli(['train', '--data', join(dir, 'data.npz'), '--graph', join(dir, 'graph.yaml'), '--reward', join(dir, 'reward.py'), '--venv-algo', 'bc', '--policy-algo', 'ppo', '--out', out, '--venv-epochs', '4', '--policy-epochs', '2', '--seed', '1', '--venv-ensemble', '1']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('ensemble of');
    const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'));
    expect(m.venv.members).toBe(1);
    expect(m.venv.memberScores).toBeUndefined();
    expect(m.policy.select).toBe('venv');
    expect(m.policy.memberReturnsLastEval).toBeUndefined();
    expect(existsSync(join(out, 'venv.member1.weights'))).toBe(false);
    const vj = JSON.parse(readFileSync(join(out, 'venv.json'), 'utf8'));
    expect(Object.keys(vj).sort()).toEqual(['algorithm', 'format', 'graphYaml', 'weights']);
    const single = decodeWeights(new Uint8Array(readFileSync(join(out, 'venv.weights'))));
    expect(single.metadata).toEqual({ algorithm: 'bc' });
    // the same seed and split: the single venv is the default ensemble's member 0
    const member0 = decodeWeights(new Uint8Array(readFileSync(join(dir, 'out', 'venv.weights'))));
    expect(m.venv.score).toBeCloseTo(JSON.parse(readFileSync(join(dir, 'out', 'metrics.json'), 'utf8')).venv.score, 6);
    expect([...member0.tensors.keys()].sort()).toEqual([...single.tensors.keys()].sort());
    for (const [name, t] of single.tensors) expect(Array.from(member0.tensors.get(name)!.data)).toEqual(Array.from(t.data));
  }, 240_000);

  it('refuses a bad --venv-ensemble and more than one adversarial venv', () => {
    expect(venvEnsembleOf({}, 'bc')).toBe(5);
    expect(venvEnsembleOf({}, 'revive-p')).toBe(1);
    expect(venvEnsembleOf({ 'venv-ensemble': '10' }, 'bc')).toBe(10);
    expect(venvEnsembleOf({ 'venv-ensemble': '1' }, 'revive-t')).toBe(1);
    for (const v of ['0', '11', '2.5', 'abc', 'true', '-1', '']) expect(() => venvEnsembleOf({ 'venv-ensemble': v }, 'bc')).toThrow(CliError);
    expect(() => venvEnsembleOf({ 'venv-ensemble': '3' }, 'revive-p')).toThrow(/revive-p venvs are not ensembled/);
    // the venv flags train and hyper --target policy share
    // the product's venv defaults (the server's and the bench's): 120 BC steps, 30 adversarial
    expect(venvSettingsOf({})).toEqual({ algo: 'bc', epochs: 120, adversarialEpochs: 30, members: 5 });
    expect([VENV_DEFAULTS.steps, VENV_DEFAULTS.adversarialSteps]).toEqual([120, 30]);
    expect(venvSettingsOf({ 'venv-algo': 'revive-t', 'venv-epochs': '20' })).toEqual({ algo: 'revive-t', epochs: 20, adversarialEpochs: 10, members: 1 });
    // left out, the adversarial steps are the defaults' own, not derived from the BC steps
    expect(venvSettingsOf({ 'venv-algo': 'revive-p' }).adversarialEpochs).toBe(VENV_DEFAULTS.adversarialSteps);
    expect(venvSettingsOf({ 'venv-algo': 'revive-p', 'venv-epochs': '200' }).adversarialEpochs).toBe(50);
    // tune's one venv reads the same flags with the same defaults (it derived a quarter of 120 before)
    expect(venvStepsOf({ 'venv-algo': 'revive-p' })).toEqual({ algo: 'revive-p', epochs: VENV_DEFAULTS.steps, adversarialEpochs: VENV_DEFAULTS.adversarialSteps });
    expect(venvStepsOf({ 'venv-epochs': '8', 'adversarial-epochs': '3' })).toEqual({ algo: 'bc', epochs: 8, adversarialEpochs: 3 });
    // one evaluation cadence for the CLI and the server's environment job: the defaults', at most half the steps
    expect([venvEvalEvery(undefined), venvEvalEvery(120), venvEvalEvery(4), venvEvalEvery(1)]).toEqual([VENV_DEFAULTS.evalEvery, 10, 2, 1]);
    expect([venvEvalEvery(undefined, true), venvEvalEvery(30, true), venvEvalEvery(6, true)]).toEqual([VENV_DEFAULTS.adversarialEvalEvery, 5, 3]);
    expect(() => venvSettingsOf({ 'venv-algo': 'revive-p', 'venv-ensemble': '2' })).toThrow(CliError);
    // --agents: the policy nodes named instead of inferred (inventory: sales follow the decision, an environment node by default)
    const inv = REFERENCE_TASKS.inventory.yaml;
    const role = (g: ReturnType<typeof graphOf>, n: string) => g.nodes.find((x) => x.name === n)!.role;
    expect(role(graphOf(inv), 'sales')).toBe('environment');
    expect(role(graphOf(inv, agentsOf({ agents: 'decision,sales' })), 'sales')).toBe('agent');
    expect(agentsOf({})).toBeUndefined();
    expect(() => agentsOf({ agents: 'true' })).toThrow(CliError);
    expect(() => graphOf(inv, ['stock'])).toThrow(/'stock' is not an output node/);
    const args = ['--data', join(dir, 'data.npz'), '--graph', join(dir, 'graph.yaml'), '--reward', join(dir, 'reward.py'), '--out', join(dir, 'out-refused')];
    const rv = cli(['train', ...args, '--venv-algo', 'revive-t', '--venv-ensemble', '3']);
    expect(rv.status).toBe(2);
    expect(rv.stderr).toContain('--venv-ensemble 3: revive-t venvs are not ensembled');
    const bad = cli(['train', ...args, '--venv-ensemble', '11']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--venv-ensemble must be an integer from 1 to 10, got '11'");
    expect(existsSync(join(dir, 'out-refused'))).toBe(false);
  }, 120_000);

  it('trains a revive-p venv before the policy', () => {
    const out = join(dir, 'out-revive');
    const args = ['--graph', join(dir, 'graph.yaml'), '--reward', join(dir, 'reward.py'), '--out', out, '--venv-epochs', '3', '--adversarial-epochs', '2', '--policy-epochs', '1', '--seed', '1'];
    const r = cli(['train', '--data', join(dir, 'data.npz'), '--venv-algo', 'revive-p', '--policy-algo', 'ppo', ...args]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('revive-p step 2/2');
    const m = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'));
    expect(m.venvAlgo).toBe('revive-p');
    expect(m.venv.adversarialEpochs).toBe(2);
    expect(m.venv.members).toBe(1); // adversarial venvs are not ensembled
    expect(existsSync(join(out, 'venv.member1.weights'))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, 'venv.json'), 'utf8')).algorithm).toBe('revive-p');
  }, 240_000);

  it('tunes a tunable parameter with SRACOS', () => {
    const yaml = reviveYaml([PARAMETER_0, OBS_0, ACTION_0]);
    const N = 80;
    const f = (g: (i: number) => number) => ({ dtype: 'f4' as const, shape: [N, 1], data: Float32Array.from({ length: N }, (_, i) => g(i)) });
    writeFileSync(join(dir, 'tune.npz'), writeNpz({ obs: f((i) => Math.sin(i)), action: f((i) => Math.cos(i) / 2), parameter: f(() => 0.5), index: { dtype: 'i8', shape: [4], data: BigInt64Array.from([20n, 40n, 60n, 80n]) } }));
    writeFileSync(join(dir, 'tune.yaml'), yaml);
    writeFileSync(join(dir, 'tune_reward.py'), 'def get_reward(data):\n    return -(data["parameter"][..., 0:1] - 0.3) ** 2\n');
    const out = join(dir, 'tune-out');
    const r = cli(['tune', '--data', join(dir, 'tune.npz'), '--graph', join(dir, 'tune.yaml'), '--reward', join(dir, 'tune_reward.py'), '--out', out, '--trials', '25', '--venv-epochs', '2', '--horizon', '3', '--seed', '2']);
    expect(r.status, r.stderr).toBe(0);
    const t = JSON.parse(readFileSync(join(out, 'tune.json'), 'utf8'));
    expect(t.trials.length).toBe(25);
    expect(Math.abs(t.best.candidate.parameter[0] - 0.3)).toBeLessThan(0.1);
  }, 240_000);
});

describe('learn hyper', () => {
  const common = ['--data', join(dir, 'h.npz'), '--graph', join(dir, 'h.yaml'), '--seed', '1'];

  it('searches venv settings, and policy settings in the default venv ensemble, with the hyperparameter-search trainer', () => {
    const task = REFERENCE_TASKS.thermal;
    writeFileSync(join(dir, 'h.npz'), offlineToNpz(task.generate({ trajectories: 6, steps: 30, seed: 2 })));
    writeFileSync(join(dir, 'h.yaml'), task.yaml);
    writeFileSync(join(dir, 'h_reward.py'), task.rewardPy);
    writeFileSync(join(dir, 'space.json'), JSON.stringify([{ name: 'lr', kind: 'log', min: 1e-4, max: 1e-2 }, { name: 'hidden', kind: 'choice', values: [[8], [16, 16]] }]));
    const outV = join(dir, 'hyper-venv');
    // --target venv searches one BC venv's settings: the policy target's venv flags are not read
    const v = cli(['hyper', '--target', 'venv', '--algo', 'random', '--trials', '3', '--trial-epochs', '2', '--space', join(dir, 'space.json'), '--out', outV, '--venv-algo', 'revive-p', '--venv-ensemble', '3', ...common]);
    expect(v.status, v.stderr).toBe(0);
    expect(v.stderr).not.toContain('ensemble of');
    const hv = JSON.parse(readFileSync(join(outV, 'hyper.json'), 'utf8'));
    expect(hv.target).toBe('venv');
    expect(hv.venvEnsemble).toBeUndefined();
    expect(hv.trials.length).toBe(3);
    for (const t of hv.trials) {
      expect(t.settings.lr >= 1e-4 && t.settings.lr <= 1e-2).toBe(true);
      expect([[8], [16, 16]]).toContainEqual(t.settings.hidden);
      expect(t.score).toBeGreaterThan(0); // a held-out step score, not the failure value
    }
    expect(hv.best.score).toBe(Math.max(...hv.trials.map((t: { score: number }) => t.score)));
    expect(hv.trials.map((t: { score: number }) => t.score)).toContain(hv.best.score);

    // --target policy: the venv ensemble train builds (default 5 with bc), each trial's policy
    // trained with it and scored by its worst member return (one evaluation: trial-epochs 1)
    const outP = join(dir, 'hyper-policy');
    const p = cli(['hyper', '--target', 'policy', '--reward', join(dir, 'h_reward.py'), '--policy-algo', 'ppo', '--trials', '2', '--trial-epochs', '1', '--venv-epochs', '3', '--out', outP, ...common]);
    expect(p.status, p.stderr).toBe(0);
    expect(p.stderr).toContain('ensemble of 5 BC venvs');
    const hp = JSON.parse(readFileSync(join(outP, 'hyper.json'), 'utf8'));
    expect(hp.policyAlgo).toBe('ppo');
    expect(hp.venvEnsemble).toBe(5);
    expect(hp.select).toBe('worst');
    expect(hp.trials.length).toBe(2);
    for (const t of hp.trials) {
      expect(Object.keys(t.settings).sort()).toEqual(['gamma', 'hidden', 'horizon', 'lr']);
      expect(t.settings.horizon >= 10 && t.settings.horizon <= 100).toBe(true);
      expect(t.score).toBeGreaterThan(-1e9);
      expect(t.memberReturns.length).toBe(5);
      expect(t.score).toBe(Math.min(...t.memberReturns));
    }
  }, 240_000);

  it('scores --target policy trials by the members\' mean of a --venv-ensemble 2 ensemble (SAC)', () => {
    const outE = join(dir, 'hyper-policy-2');
    const e = cli(['hyper', '--target', 'policy', '--reward', join(dir, 'h_reward.py'), '--policy-algo', 'sac', '--trials', '2', '--trial-epochs', '1', '--venv-epochs', '3', '--venv-ensemble', '2', '--out', outE, ...common]);
    expect(e.status, e.stderr).toBe(0);
    expect(e.stderr).toContain('ensemble of 2 BC venvs');
    const he = JSON.parse(readFileSync(join(outE, 'hyper.json'), 'utf8'));
    expect(he.venvEnsemble).toBe(2);
    expect(he.select).toBe('mean');
    expect(he.trials.length).toBe(2);
    for (const t of he.trials) {
      expect(t.memberReturns.length).toBe(2);
      expect(t.score).toBeGreaterThan(-1e9);
      expect(t.score).toBeCloseTo((t.memberReturns[0] + t.memberReturns[1]) / 2, 6);
    }
    expect(he.best.score).toBe(Math.max(...he.trials.map((t: { score: number }) => t.score)));
  }, 240_000);

  it('refuses an ensemble of adversarial venvs for --target policy (as train does) and an unknown --space setting', () => {
    const outR = join(dir, 'hyper-refused');
    const rv = cli(['hyper', '--target', 'policy', '--reward', join(dir, 'h_reward.py'), '--venv-ensemble', '2', '--venv-algo', 'revive-p', '--out', outR, ...common]);
    expect(rv.status).toBe(2);
    expect(rv.stderr).toContain('--venv-ensemble 2: revive-p venvs are not ensembled');
    expect(existsSync(outR)).toBe(false);
    writeFileSync(join(dir, 'bad-space.json'), JSON.stringify([{ name: 'nonsense', kind: 'float', min: 0, max: 1 }]));
    const bad = cli(['hyper', '--target', 'venv', '--space', join(dir, 'bad-space.json'), '--out', join(dir, 'hyper-venv'), ...common]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("'nonsense' is not a searchable setting");
  }, 240_000);
});
