/**
 * The REVIVE 0.9.x compatibility matrix (README "REVIVE compatibility matrix"): one test per
 * row, each on a fixture written here — YAML text inline, data files written by numpy and h5py
 * (as a REVIVE user's scripts write them) into a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Generator } from '@decisio/compute';
import { buildDataset } from '../data/dataset';
import { decodeRows } from '../data/codec';
import { loadDataset } from '../data/load';
import { Rng } from '../data/split';
import { isLearningError, LearningError } from '../errors';
import { stepScore } from '../metrics/score';
import { tunableSpace } from '../search/search';
import { train } from '../cli/main';
import { matcherRewardSetup } from '../sandbox/matcher';
import { sandboxNodeFunctions } from '../sandbox/node-functions';
import { PythonSandbox, RewardFunction, defaultPython, type BatchArray } from '../sandbox/python-sandbox';
import { VirtualEnvironment, evaluateVenv } from '../venv/bc';
import { ReviveTrainer } from '../venv/revive';
import { unsupportedReviveFeatures } from './compat';
import { importReviveYaml } from './yaml';

/** `metadata` of a REVIVE YAML: obs -> action -> next_obs, plus `extra` lines under metadata. */
function yamlOf(columns: string, extra = '', graph = '    action:\n    - obs\n    next_obs:\n    - obs\n    - action\n'): string {
  return `metadata:\n  graph:\n${graph}  columns:\n${columns}${extra}`;
}

const OBS = '  - obs_0:\n      dim: obs\n      type: continuous\n      min: -5\n      max: 5\n';
const ACTION = '  - action_0:\n      dim: action\n      type: continuous\n      min: -1\n      max: 1\n';

/** The linear system `x' = 0.9 x + 0.5 a` as numpy writes it: `obs`, `action`, `index` (end offsets). */
const NUMPY_DATA = `
import numpy as np, sys
rng = np.random.default_rng(0)
lengths = [30, 20, 30]
obs, act = [], []
for n in lengths:
    x = rng.uniform(-2, 2)
    for _ in range(n):
        a = float(np.clip(-0.5 * x + 0.1 * rng.normal(), -1, 1))
        obs.append([x]); act.append([a])
        x = 0.9 * x + 0.5 * a
data = {'obs': np.array(obs, dtype=np.float32), 'action': np.array(act, dtype=np.float32), 'index': np.cumsum(lengths)}
np.savez_compressed(sys.argv[1] + '/data.npz', **data)
import h5py
with h5py.File(sys.argv[1] + '/data.h5', 'w') as f:
    for k, v in data.items():
        f.create_dataset(k, data=v)
`;

function python(script: string, ...args: string[]): void {
  const r = spawnSync(defaultPython(), ['-c', script, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
}

/** Rows of the linear system in memory (for tests that need no file). */
function linear(lengths: number[], extra: (x: number, a: number) => number[] = () => []) {
  const rng = new Rng(7);
  const obs: number[][] = [];
  const act: number[] = [];
  const index: number[] = [];
  for (const n of lengths) {
    let x = rng.next() * 4 - 2;
    for (let k = 0; k < n; k++) {
      const a = Math.max(-1, Math.min(1, -0.5 * x + 0.1 * rng.normal()));
      obs.push([x, ...extra(x, a)]);
      act.push(a);
      x = 0.9 * x + 0.5 * a;
    }
    index.push(obs.length);
  }
  const w = obs[0]!.length;
  return { arrays: { obs: { rows: obs.length, cols: w, data: Float64Array.from(obs.flat()) }, action: { rows: act.length, cols: 1, data: Float64Array.from(act) } }, index };
}

function refusal(fn: () => unknown): LearningError {
  try {
    fn();
  } catch (e) {
    if (isLearningError(e)) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('REVIVE 0.9.x compatibility matrix', () => {
  let dir = '';
  let sandbox: PythonSandbox | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'decisio-revive-compat-'));
    python(NUMPY_DATA, dir);
  });
  afterAll(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('graph: output: [inputs] in input order, roles inferred (state, agent, environment)', () => {
    const g = importReviveYaml(yamlOf(OBS + ACTION)).graph;
    const role = (n: string) => g.nodes.find((x) => x.name === n)!.role;
    expect([role('obs'), role('action'), role('next_obs')]).toEqual(['state', 'agent', 'environment']);
    expect(g.edges.filter((e) => e.target === 'next_obs').map((e) => e.source)).toEqual(['obs', 'action']);
  });

  it('npz written by numpy: index as cumulative trajectory ends, no transition across trajectories', async () => {
    const g = importReviveYaml(yamlOf(OBS + ACTION)).graph;
    const ds = await loadDataset(new Uint8Array(readFileSync(join(dir, 'data.npz'))), 'npz', g);
    expect(ds.trajectoryCount).toBe(3);
    // next_obs built by shifting inside each trajectory: the last step of each is dropped
    expect(ds.rows).toBe(29 + 19 + 29);
    for (let t = 0; t < 3; t++) {
      for (let r = ds.starts[t]!; r < ds.ends[t]! - 1; r++) expect(ds.raw['next_obs']![r]).toBeCloseTo(ds.raw['obs']![r + 1]!, 6);
    }
  });

  it('h5 written by h5py: the same data set as the npz', async () => {
    const g = importReviveYaml(yamlOf(OBS + ACTION)).graph;
    const a = await loadDataset(new Uint8Array(readFileSync(join(dir, 'data.npz'))), 'npz', g);
    const b = await loadDataset(new Uint8Array(readFileSync(join(dir, 'data.h5'))), 'h5', g);
    expect(Array.from(b.ends)).toEqual(Array.from(a.ends));
    expect(Array.from(b.raw['obs']!)).toEqual(Array.from(a.raw['obs']!));
    expect(Array.from(b.raw['action']!)).toEqual(Array.from(a.raw['action']!));
  });

  it('columns: dim groups columns into nodes; continuous min/max kept from the YAML, else from the data', () => {
    const raw = linear([20, 20], (x) => [2 * x]);
    const withBounds = yamlOf(OBS + '  - obs_1:\n      dim: obs\n      type: continuous\n' + ACTION);
    const ds = buildDataset(importReviveYaml(withBounds).graph, raw);
    const [f0, f1] = ds.codecs['obs']!.fields;
    expect(ds.codecs['obs']!.dim).toBe(2);
    expect([f0!.min, f0!.max]).toEqual([-5, 5]); // YAML's, wider than the data
    const col1 = Array.from({ length: raw.arrays.obs.rows }, (_, r) => raw.arrays.obs.data[r * 2 + 1]!);
    expect(f1!.min).toBeCloseTo(Math.min(...col1), 5); // the data's
    expect(f1!.max).toBeCloseTo(Math.max(...col1), 5);
  });

  it('columns: discrete with num is a grid, category with values is one-hot (a value outside refused)', () => {
    const cols = OBS + '  - level:\n      dim: action\n      type: discrete\n      min: 0\n      max: 4\n      num: 5\n';
    const raw = linear([15, 15]);
    raw.arrays.action.data = raw.arrays.action.data.map((a) => Math.round((a + 1) * 2));
    const ds = buildDataset(importReviveYaml(yamlOf(cols)).graph, raw);
    const c = ds.codecs['action']!;
    expect(c.fields[0]).toMatchObject({ dataType: 'discrete', count: 5, min: 0, max: 4 });
    const venv = new VirtualEnvironment(ds, { hidden: [8] }, new Generator(1));
    return venv.rollout(ds, Int32Array.from([0, 3]), 2, { mode: 'sample', rng: new Rng(1) }).then((steps) => {
      for (const v of decodeRows(c, steps[1]!['action']!, 2)) expect([0, 1, 2, 3, 4]).toContain(Math.round(v * 1e4) / 1e4);
      const cat = OBS + '  - price:\n      dim: action\n      type: category\n      values: [0, 1, 2, 3, 4]\n';
      const dc = buildDataset(importReviveYaml(yamlOf(cat)).graph, raw);
      expect(dc.codecs['action']!.width).toBe(5);
      const bad = linear([15, 15]);
      bad.arrays.action.data = bad.arrays.action.data.map(() => 7);
      expect(refusal(() => buildDataset(importReviveYaml(yamlOf(cat)).graph, bad)).code).toBe('data.categoryValue');
    });
  });

  it('columns: fit: false leaves a column out of the likelihood and of the errors', async () => {
    const cols = OBS + '  - obs_aux:\n      dim: obs\n      type: continuous\n      fit: false\n' + ACTION;
    const raw = linear([20, 20], (x) => [x * x]);
    const ds = buildDataset(importReviveYaml(yamlOf(cols)).graph, raw);
    expect(Array.from(ds.codecs['next_obs']!.fitMask)).toEqual([1, 0]);
    const venv = new VirtualEnvironment(ds, { hidden: [8] }, new Generator(2));
    const m = venv.models.get('next_obs')!;
    expect(Array.from(m.fitCont)).toEqual([1, 0]);
    const report = await evaluateVenv(venv, ds, { horizon: 3 });
    // counted columns: one per row and step for next_obs (the unfitted one left out)
    expect(report.nodes['next_obs']!.count).toBe(report.windows * report.horizon);
  });

  it('nodes: ts builds the history node ts_X from the last k frames (first frame repeated)', () => {
    const y = yamlOf(OBS + ACTION, '  nodes:\n    obs:\n      ts: 3\n', '    action:\n    - ts_obs\n    next_obs:\n    - obs\n    - action\n');
    const ds = buildDataset(importReviveYaml(y).graph, linear([10, 10]));
    expect(ds.codecs['ts_obs']!.dim).toBe(3);
    const row = Array.from(ds.raw['ts_obs']!.subarray(0, 3));
    expect(row).toEqual([ds.raw['obs']![0], ds.raw['obs']![0], ds.raw['obs']![0]]);
    const r2 = Array.from(ds.raw['ts_obs']!.subarray(2 * 3, 3 * 3));
    expect(r2).toEqual([ds.raw['obs']![0], ds.raw['obs']![1], ds.raw['obs']![2]]);
  });

  for (const [option, value, feature] of [
    ['traj_id', 'true', 'nodes.next_obs.traj_id'],
    ['freeze', 'true', 'nodes.next_obs.freeze'],
    ['loss_type', 'mae', 'nodes.next_obs.loss_type: mae'],
  ] as const) {
    it(`nodes: ${option} is refused with a message naming it`, () => {
      const g = importReviveYaml(yamlOf(OBS + ACTION, `  nodes:\n    next_obs:\n      ${option}: ${value}\n`)).graph;
      const e = refusal(() => buildDataset(g, linear([10, 10])));
      expect(e.code).toBe('revive.unsupported');
      expect(e.message).toContain(`"${feature}"`);
      expect(e.localized('zh-CN')).toContain(`"${feature}"`);
    });
  }

  it("nodes: step_input gives the node REVIVE's step_node_ (the step index within the trajectory) as an input", async () => {
    const g = importReviveYaml(yamlOf(OBS + ACTION, '  nodes:\n    action:\n      step_input: True\n')).graph;
    const ds = buildDataset(g, linear([12, 8]));
    expect(ds.structure.nodes.get('action')!.inputs).toEqual(['obs', 'step_node_']);
    expect(ds.structure.externals).toContain('step_node_');
    // next_obs built by shifting: 11 and 7 rows; the index restarts with each trajectory
    expect(Array.from(ds.raw['step_node_']!.subarray(9, 13))).toEqual([9, 10, 0, 1]);
    const venv = new VirtualEnvironment(ds, { hidden: [8] }, new Generator(5));
    expect(venv.models.get('action')!.inWidth).toBe(2);
    const steps = await venv.rollout(ds, Int32Array.from([0, 11]), 3, { mode: 'mode' });
    expect(Array.from(decodeRows(ds.codecs['step_node_']!, steps[2]!['step_node_']!, 2), (v) => Math.round(v))).toEqual([2, 2]);
  });

  it('nodes: loss_type nll (the likelihood every node is trained with) is accepted', () => {
    const g = importReviveYaml(yamlOf(OBS + ACTION, '  nodes:\n    next_obs:\n      loss_type: nll\n')).graph;
    expect(unsupportedReviveFeatures(g)).toEqual([]);
    expect(buildDataset(g, linear([10, 10])).rows).toBeGreaterThan(0);
  });

  it('custom_nodes (a user torch network) is refused with a message naming it', () => {
    const g = importReviveYaml(yamlOf(OBS + ACTION, "  custom_nodes:\n    next_obs: 'custom_node.Dynamics'\n")).graph;
    const e = refusal(() => buildDataset(g, linear([10, 10])));
    expect(e.code).toBe('revive.unsupported');
    expect(e.message).toContain('"custom_nodes.next_obs"');
  });

  for (const flavour of ['numpy', 'torch'] as const) {
    it(`expert_functions in ${flavour} compute their node in rollouts (sandbox), in original units`, async () => {
      const y = yamlOf(OBS + ACTION, "  expert_functions:\n    next_obs:\n      'node_function' : 'expert_function.dynamics'\n");
      const g = importReviveYaml(y).graph;
      const code =
        flavour === 'numpy'
          ? 'import numpy as np\n\ndef dynamics(data):\n    return np.clip(0.9 * data["obs"] + 0.5 * data["action"], -5, 5)\n'
          : 'import torch\n\ndef dynamics(data):\n    return torch.clamp(0.9 * data["obs"] + 0.5 * data["action"], -5, 5)\n';
      g.nodes.find((n) => n.name === 'next_obs')!.function = { kind: 'python', file: 'expert_function.py', function: 'dynamics', code };
      const ds = buildDataset(g, linear([10, 10]));
      await sandbox?.close();
      sandbox = await PythonSandbox.start({ files: { 'expert_function.py': code } });
      const dims = Object.fromEntries(Object.entries(ds.codecs).map(([k, c]) => [k, c.dim]));
      const venv = new VirtualEnvironment(ds, { hidden: [8] }, new Generator(3));
      const steps = await venv.rollout(ds, Int32Array.from([0, 10]), 1, { agents: 'data', nodeFunction: sandboxNodeFunctions(sandbox, g, dims) });
      const next = decodeRows(ds.codecs['next_obs']!, steps[0]!['next_obs']!, 2);
      for (const [i, r] of [0, 10].entries()) expect(next[i]!).toBeCloseTo(0.9 * ds.raw['obs']![r]! + 0.5 * ds.raw['action']![r]!, 4);
    }, 60_000);
  }

  it('tunable: a leaf listed under tunable is a tunable parameter, constant per trajectory, searched over its range', () => {
    const cols = OBS + ACTION + '  - p_0:\n      dim: parameter\n      type: continuous\n      min: 0\n      max: 2\n';
    const y = yamlOf(cols, '  tunable:\n  - parameter\n', '    action:\n    - obs\n    - parameter\n    next_obs:\n    - obs\n    - action\n');
    const g = importReviveYaml(y).graph;
    expect(g.nodes.find((n) => n.name === 'parameter')!.role).toBe('tunable');
    const raw = linear([10, 10]);
    const withP = { ...raw, arrays: { ...raw.arrays, parameter: { rows: raw.arrays.obs.rows, cols: 1, data: new Float64Array(raw.arrays.obs.rows).fill(1) } } };
    const ds = buildDataset(g, withP);
    expect(tunableSpace(ds)).toEqual([expect.objectContaining({ node: 'parameter', min: 0, max: 2 })]);
  });

  it('metric_nodes: the overall venv score is over the named nodes only', async () => {
    const plain = buildDataset(importReviveYaml(yamlOf(OBS + ACTION)).graph, linear([20, 20]));
    const metric = buildDataset(importReviveYaml(yamlOf(OBS + ACTION, '  metric_nodes:\n  - next_obs\n')).graph, linear([20, 20]));
    expect(metric.structure.metricNodes).toEqual(['next_obs']);
    const venv = new VirtualEnvironment(plain, { hidden: [8] }, new Generator(4));
    const a = await evaluateVenv(venv, plain, { horizon: 3 });
    const venv2 = new VirtualEnvironment(metric, { hidden: [8] }, new Generator(4));
    const b = await evaluateVenv(venv2, metric, { horizon: 3 });
    expect(a.mae).toBeCloseTo((a.nodes['next_obs']!.mae + a.nodes['action']!.mae) / 2, 6);
    expect(b.mae).toBeCloseTo(b.nodes['next_obs']!.mae, 6);
    expect(b.score).toBeCloseTo(stepScore(b.nodes['next_obs']!.mae), 6);
  });

  it("revive-p's rule-based matcher reward file runs in the sandbox and adds to every node's reward; revive-t refuses it", async () => {
    const g = importReviveYaml(yamlOf(OBS + ACTION)).graph;
    const ds = buildDataset(g, linear([20, 20, 20]));
    await sandbox?.close();
    // a REVIVE rule file: module-level weight and normalize, get_reward(data, graph) -> [B, 1]
    const rule = 'import torch\n\nnormalize = False\nweight = 0.5\n\ndef get_reward(data, graph):\n    return -torch.abs(data["next_obs"][..., :1] - 0.9 * data["obs"][..., :1] - 0.5 * data["action"][..., :1])\n';
    const setup = matcherRewardSetup(rule);
    expect(setup.weight).toBe(0.5);
    sandbox = await PythonSandbox.start({ files: setup.files });
    const fn = new RewardFunction(sandbox, setup.file);
    const seen: Array<Record<string, BatchArray>> = [];
    const matcherReward = async (b: Record<string, BatchArray>) => {
      seen.push(b);
      return fn.compute(b);
    };
    const small = { hidden: [16], bcSteps: 2, bcUpdatesPerStep: 2, rollouts: 8, rolloutHorizon: 3, discHidden: [8], minibatch: 16, evalEvery: 100, evalWindows: 8 };
    const t = new ReviveTrainer(g, ds, 'p', { ...small, matcherReward });
    await t.init({ seed: 1 });
    const r = await t.step({ step: 0, signal: new AbortController().signal });
    expect(seen.length).toBe(3); // one call per rollout step
    expect(Object.keys(seen[0]!).sort()).toEqual(['action', 'next_obs', 'obs']);
    expect(seen[0]!['obs']!.shape).toEqual([8, 1]);
    const m = r.metrics!['gen/matcher']!;
    expect(m).toBeLessThan(0);
    expect(Number.isFinite(m)).toBe(true);
    expect(refusal(() => new ReviveTrainer(g, ds, 't', { ...small, matcherReward })).code).toBe('revive.matcherReward');
    // REVIVE's own example asks the graph for a node's output: refused by name
    const usesGraph = refusal(() => matcherRewardSetup('def get_reward(data, graph):\n    return graph.compute_node("next_obs", data).mode\n'));
    expect(usesGraph.message).toContain('"matcher reward: graph.compute_node / graph.get_node"');
    await expect(train({ data: 'd.npz', graph: 'g.yaml', reward: 'r.py', out: 'o', 'venv-algo': 'bc', 'matcher-reward': 'rule.py' })).rejects.toThrow(/matcher reward file \(--matcher-reward\) needs the revive-p venv algorithm, not bc/);
    expect(refusal(() => matcherRewardSetup('normalize = True\ndef get_reward(data, graph):\n    return data["obs"]\n')).message).toContain('normalize = True');
  }, 120_000);
});
