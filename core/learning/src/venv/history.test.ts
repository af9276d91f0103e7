import { describe, expect, it } from 'vitest';
import { Generator } from '@decisio/compute';
import { buildDataset } from '../data/dataset';
import { decodeRows } from '../data/codec';
import { Rng } from '../data/split';
import { importReviveYaml } from '../graph/yaml';
import { REFERENCE_TASKS, offlineToRaw } from '../tasks/index';
import { TINY_YAML, linearTrajectories } from '../testing/fixtures';
import { VirtualEnvironment } from './bc';
import { historyPlan, inputsAfter } from './history';

/** The tiny graph with the action reading the history `ts_obs` (3 frames) while the graph carries `obs`. */
const CARRIED_X = `${TINY_YAML.replace('    action:\n    - obs\n', '    action:\n    - ts_obs\n')}  nodes:\n    obs:\n      ts: 3\n`;

describe('history nodes in rollouts', () => {
  it('a learned history transition (next_ts_X) keeps the older frames exactly: they are the state shifted by one frame', async () => {
    const task = REFERENCE_TASKS.plant;
    const ds = buildDataset(task.graph(), offlineToRaw(task.generate({ trajectories: 3, steps: 30, seed: 2 })));
    expect(historyPlan(ds).shifted).toEqual([{ state: 'ts_tank', next: 'next_ts_tank', frameWidth: 2 }]);
    // worked out once per dataset: every rollout step and value bootstrap asks for it
    expect(historyPlan(ds)).toBe(historyPlan(ds));
    // an untrained venv predicts every frame wrongly; the older ones must still be the state's
    const venv = new VirtualEnvironment(ds, { hidden: [8] }, new Generator(3));
    const starts = Int32Array.from([0, 31, 62]);
    const steps = await venv.rollout(ds, starts, 6, { mode: 'sample', rng: new Rng(4) });
    for (const step of steps) {
      const state = step['ts_tank']!;
      const next = step['next_ts_tank']!;
      for (let r = 0; r < starts.length; r++) {
        expect(Array.from(next.subarray(r * 6, r * 6 + 4))).toEqual(Array.from(state.subarray(r * 6 + 2, r * 6 + 6)));
        // the newest frame is the model's, not a copy
        expect(Array.from(next.subarray(r * 6 + 4, r * 6 + 6))).not.toEqual(Array.from(state.subarray(r * 6 + 4, r * 6 + 6)));
      }
    }
    // carried: the next step's state is this step's transition
    expect(Array.from(steps[1]!['ts_tank']!)).toEqual(Array.from(steps[0]!['next_ts_tank']!));
  });

  it('a history the graph does not carry (ts_X beside next_X) follows the rollout, not the logged rows', async () => {
    const ds = buildDataset(importReviveYaml(CARRIED_X).graph, linearTrajectories(2, 12, 1));
    expect(historyPlan(ds)).toEqual({ shifted: [], rebuilt: [{ node: 'ts_obs', base: 'obs' }] });
    const venv = new VirtualEnvironment(ds, { hidden: [8] }, new Generator(5));
    const starts = Int32Array.from([0, 12]);
    const B = starts.length;
    // a policy far from the logged one, so the rollout's obs leaves the data's
    const steps = await venv.rollout(ds, starts, 5, { mode: 'mode', policy: (_node, _inputs, rows) => new Float32Array(rows).fill(1) });
    const raw = (step: Record<string, Float32Array>, node: string) => Array.from(decodeRows(ds.codecs[node]!, step[node]!, B));
    for (let t = 1; t < steps.length; t++) {
      const prev = raw(steps[t - 1]!, 'ts_obs');
      const obs = raw(steps[t]!, 'obs');
      const hist = raw(steps[t]!, 'ts_obs');
      for (let r = 0; r < B; r++) {
        const want = [prev[r * 3 + 1]!, prev[r * 3 + 2]!, obs[r]!];
        hist.slice(r * 3, r * 3 + 3).forEach((v, j) => expect(v).toBeCloseTo(want[j]!, 5));
      }
    }
    // the rollout's history differs from the logged one
    const logged = Array.from(decodeRows(ds.codecs['ts_obs']!, ds.gather('ts_obs', Int32Array.from([4, 16])), B));
    expect(raw(steps[4]!, 'ts_obs')).not.toEqual(logged);
    // the value bootstrap after the window sees the same history the next step would
    const last = steps[4]!;
    const after = inputsAfter(ds, last, ['obs', 'ts_obs'], Int32Array.from([5, 17]));
    expect(Array.from(after['obs']!)).toEqual(Array.from(last['next_obs']!));
    const h = Array.from(decodeRows(ds.codecs['ts_obs']!, after['ts_obs']!, B));
    const lastHist = raw(last, 'ts_obs');
    const nextObs = Array.from(decodeRows(ds.codecs['obs']!, last['next_obs']!, B));
    for (let r = 0; r < B; r++) [lastHist[r * 3 + 1]!, lastHist[r * 3 + 2]!, nextObs[r]!].forEach((v, j) => expect(h[r * 3 + j]!).toBeCloseTo(v, 5));
  });
});
