/**
 * Bounded node outputs, as REVIVE (`revive/computation/graph.py`): every continuous output of a
 * learned node is clamped to [-1, 1] in the codec's space, i.e. to the YAML's [min, max] once
 * decoded, in venv rollouts (policy training and deductions), and the ONNX export bounds the
 * policy's means the same way. A reward that takes `acos` of a cosine state (the pendulum's
 * `reward.py` in REVIVE's examples) used to fail with NaN on a venv that predicts a cosine above
 * 1; a non-finite reward now names its rows and the values it was given.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-node';
import { Generator } from '@decisio/compute';
import { buildDataset } from '../data/dataset';
import { Rng } from '../data/split';
import { importReviveYaml } from '../graph/yaml';
import { AgentPolicy } from '../policy/agent-policy';
import { modePolicy, rewardFromFunction, rolloutPolicy } from '../policy/rollout';
import { PolicyRunner, savePolicy } from '../policy/runner';
import { LearningError } from '../errors';
import { PythonSandbox, RewardFunction } from '../sandbox/python-sandbox';
import { failureLines, runTrainer, type Trainer } from '../trainer/contract';
import { VirtualEnvironment, decodeStep, OUTPUT_BOUND, type NodeModel } from './bc';

/** A cosine state in [-1, 1] (YAML bounds) and a torque in [-2, 2]. */
const YAML = `metadata:
  graph:
    action:
    - obs
    next_obs:
    - obs
    - action
  columns:
  - cos_th:
      dim: obs
      type: continuous
      min: -1
      max: 1
  - torque:
      dim: action
      type: continuous
      min: -2
      max: 2
`;

/** REVIVE's pendulum-style reward: the angle from the cosine (torch, as REVIVE users write it). */
const ACOS_REWARD = `import torch

def get_reward(data):
    th = torch.acos(data['next_obs'][..., :1])
    return -(th ** 2) - 0.001 * data['action'][..., :1] ** 2
`;

/** A reward that is NaN wherever the next cosine is above 0.5. */
const NAN_REWARD = `import numpy as np

def get_reward(data):
    return np.arccos(2 * data['next_obs'][:, :1])
`;

function cosineData(trajectories: number, steps: number) {
  const rng = new Rng(4);
  const obs: number[] = [];
  const act: number[] = [];
  const index: number[] = [];
  for (let t = 0; t < trajectories; t++) {
    let th = rng.next() * 6 - 3;
    for (let k = 0; k < steps; k++) {
      const a = Math.max(-2, Math.min(2, -th + 0.3 * rng.normal()));
      obs.push(Math.cos(th));
      act.push(a);
      th += 0.1 * a;
    }
    index.push(obs.length);
  }
  const m = (v: number[]) => ({ rows: v.length, cols: 1, data: Float64Array.from(v) });
  return { arrays: { obs: m(obs), action: m(act) }, index };
}

/** Sets a node network's last layer to output `bias` whatever its inputs (weights zero). */
function constantOutput(m: NodeModel, bias: number[]): void {
  const params = m.net.namedParameters();
  const lastW = params.filter(([k]) => k.endsWith('weight')).at(-1)!;
  const lastB = params.filter(([k]) => k.endsWith('bias')).at(-1)!;
  m.net.loadStateDict({
    ...Object.fromEntries(params.map(([k, t]) => [k, Float32Array.from(t.dataSync())])),
    [lastW[0]]: new Float32Array(lastW[1].size),
    [lastB[0]]: Float32Array.from({ length: lastB[1].size }, (_, i) => bias[i] ?? 0),
  });
}

describe('bounded venv outputs (REVIVE fidelity)', () => {
  const graph = importReviveYaml(YAML).graph;
  const ds = buildDataset(graph, cosineData(6, 30));
  let sandbox: PythonSandbox | undefined;
  afterAll(async () => {
    await sandbox?.close();
  });

  it('clamps a continuous prediction to the YAML bounds; the acos reward stays finite in policy rollouts', async () => {
    const venv = new VirtualEnvironment(ds, { hidden: [8] }, new Generator(1));
    // the learned next cosine: residual mean +2.5 in [-1, 1] units (up to 3.5 before, beyond any cosine)
    constantOutput(venv.models.get('next_obs')!, [2.5, -5]);
    const starts = Int32Array.from([0, 30, 60, 90]);
    const steps = await venv.rollout(ds, starts, 5, { mode: 'sample', rng: new Rng(2) });
    for (const step of steps) {
      for (const v of step['next_obs']!) expect(Math.abs(v)).toBeLessThanOrEqual(OUTPUT_BOUND);
      const next = decodeStep(ds, step)['next_obs']!;
      for (const v of next.data) {
        expect(v).toBeLessThanOrEqual(1);
        expect(v).toBeGreaterThanOrEqual(-1);
      }
      // the clamp is at the bound (the network asked for more)
      expect(Math.max(...next.data)).toBe(1);
    }
    sandbox = await PythonSandbox.start({ files: { 'reward.py': ACOS_REWARD, 'nan_reward.py': NAN_REWARD } });
    const reward = rewardFromFunction(new RewardFunction(sandbox));
    // a policy (constant torque) rolled in the venv, each step's reward from reward.py in the sandbox
    const policy = new AgentPolicy(ds.codecs, [{ name: 'action', inputs: ['obs'] }], [8], new Generator(3));
    const roll = await rolloutPolicy(venv, ds, starts, 5, modePolicy(policy), reward, { rng: new Rng(6), mode: 'sample' });
    expect(roll.rewards.length).toBe(5);
    for (const r of roll.rewards.flatMap((x) => Array.from(x))) expect(Number.isFinite(r)).toBe(true);
  }, 60_000);

  it('names the rows and the values of a non-finite reward, in both languages, and logs both', async () => {
    sandbox ??= await PythonSandbox.start({ files: { 'reward.py': ACOS_REWARD, 'nan_reward.py': NAN_REWARD } });
    const fn = new RewardFunction(sandbox, 'nan_reward.py');
    const next = [0.1, 0.9, -0.2, 0.75];
    const batch = {
      obs: { data: Float32Array.from([0, 0.5, 0, 0.5]), shape: [4, 1] as [number, number] },
      action: { data: Float32Array.from([1, -1, 0.5, 2]), shape: [4, 1] as [number, number] },
      next_obs: { data: Float32Array.from(next), shape: [4, 1] as [number, number] },
    };
    const err = await fn.compute(batch).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LearningError);
    const e = err as LearningError;
    expect(e.code).toBe('reward.nonFinite');
    expect(e.params['rows']).toBe('1, 3');
    expect(e.params['count']).toBe(2);
    expect(e.params['total']).toBe(4);
    expect(e.message).toContain('"get_reward" returned a non-finite reward (nan) on 2 of 4 rows (rows 1, 3)');
    expect(e.message).toContain('#1: obs=[0.5] action=[-1] next_obs=[0.9]');
    expect(e.message).toContain('#3: obs=[0.5] action=[2] next_obs=[0.75]');
    const zh = e.localized('zh-CN');
    expect(zh).toContain('出错的行：1, 3');
    expect(zh).toContain('#1: obs=[0.5] action=[-1] next_obs=[0.9]');

    // a trainer whose step meets it: the run fails and its log has the message in both languages
    const failing: Trainer<null> = {
      kind: 'test.failing',
      systemMaxSteps: 3,
      init: async () => {},
      step: async () => {
        await fn.compute(batch);
        return {};
      },
      checkpoint: async () => null,
    };
    const logs: string[] = [];
    const r = await runTrainer(failing, { seed: 1, stop: { system: true }, onEvent: (ev) => void (ev.type === 'log' && logs.push(ev.message)) });
    expect(r.reason).toBe('failed');
    expect(logs).toEqual([e.message, zh]);
    expect(failureLines(new Error('plain'))).toEqual(['plain']);
  }, 60_000);

  it('exports the policy to ONNX with its continuous means clipped to [-1, 1], as the runner serves them', async () => {
    const policy = new AgentPolicy(ds.codecs, [{ name: 'action', inputs: ['obs'] }], [8], new Generator(3));
    const head = policy.heads.get('action')!;
    const params = head.net.namedParameters();
    const lastW = params.filter(([k]) => k.endsWith('weight')).at(-1)!;
    const lastB = params.filter(([k]) => k.endsWith('bias')).at(-1)!;
    // mean 3 (beyond the torque's range), log-std column 0.25, whatever the input
    head.net.loadStateDict({ ...Object.fromEntries(params.map(([k, t]) => [k, Float32Array.from(t.dataSync())])), [lastW[0]]: new Float32Array(lastW[1].size), [lastB[0]]: Float32Array.from({ length: lastB[1].size }, (_, i) => (i === 0 ? 3 : 0.25)) });
    const files = await savePolicy(policy, 'ppo');
    const session = await ort.InferenceSession.create(files['policy.onnx']!);
    const obs = Float32Array.from([-1, 0, 0.5, 1]);
    const out = (await session.run({ obs: new ort.Tensor('float32', obs, [4, 1]) }))['action']!;
    expect(out.dims).toEqual([4, head.outWidth]);
    const data = out.data as Float32Array;
    const runner = new PolicyRunner(policy);
    const served = runner.run({ obs: Array.from(obs) }, 4)['action']!;
    for (let r = 0; r < 4; r++) {
      const mean = data[r * head.outWidth]!;
      expect(mean).toBeLessThanOrEqual(1);
      // decoded, the ONNX mean is the served torque (at the YAML's max, 2)
      expect(served[r]!).toBeCloseTo(2, 5);
      expect(mean).toBeCloseTo(1, 5);
      // the other columns pass unchanged (the log-std column is not clipped)
      expect(data[r * head.outWidth + 1]!).toBeCloseTo(0.25, 6);
    }
  }, 60_000);
});
