import { describe, expect, it } from 'vitest';
import { Generator } from '@decisio/compute';
import { buildDataset } from '../data/dataset';
import { Rng } from '../data/split';
import { importReviveYaml } from '../graph/yaml';
import { ACTION_0, OBS_0, PARAMETER_0, reviveYaml } from '../testing/fixtures';
import { VirtualEnvironment } from '../venv/bc';
import { candidateAt, randomSearch, sracos, tunableSpace, venvObjective, withTunables, type Candidate } from './search';

const YAML = reviveYaml([
  PARAMETER_0,
  { name: 'p_1', dim: 'parameter', type: 'discrete', max: 1, min: -1, num: 3 },
  { name: 'p_2', dim: 'parameter', type: 'category', values: [3, 5, 10, 15] },
  OBS_0,
  ACTION_0,
]);

function data() {
  const rng = new Rng(1);
  const N = 10 * 20;
  const m = (cols: number, f: (i: number, c: number) => number) => ({ rows: N, cols, data: Float64Array.from({ length: N * cols }, (_, k) => f(Math.floor(k / cols), k % cols)) });
  return {
    arrays: {
      obs: m(1, () => rng.next() * 2 - 1),
      action: m(1, () => rng.next() * 2 - 1),
      parameter: m(3, (_, c) => (c === 0 ? 0.5 : c === 1 ? 0 : 5)),
    },
    index: Array.from({ length: 10 }, (_, t) => (t + 1) * 20),
  };
}

// optimum: p_0 = 0.7, p_1 = 1, p_2 = 10
const target = (c: Candidate) => -((c['parameter']![0]! - 0.7) ** 2) - (c['parameter']![1] === 1 ? 0 : 0.5) - (c['parameter']![2] === 10 ? 0 : 0.5);

describe('parameter search', () => {
  const graph = importReviveYaml(YAML).graph;
  const ds = buildDataset(graph, data());

  it('builds the space of the tunable fields and maps the unit cube onto it', () => {
    const space = tunableSpace(ds);
    expect(space.map((d) => d.kind)).toEqual(['continuous', 'discrete', 'category']);
    expect(space[1]!.values).toEqual([-1, 0, 1]);
    expect(space[2]!.values).toEqual([3, 5, 10, 15]);
    expect(candidateAt(space, [0.25, 0.99, 0.6])).toEqual({ parameter: [0.25, 1, 10] });
    const w = withTunables(ds, { parameter: [0.7, 1, 15] });
    expect(Array.from(w.gather('parameter', [0, 150], 'raw'))).toEqual([Math.fround(0.7), 1, 15, Math.fround(0.7), 1, 15]);
  });

  it('SRACOS finds the optimum of a known objective better than random search', async () => {
    const space = tunableSpace(ds);
    const r = await randomSearch(space, target, { trials: 40, seed: 3 });
    const s = await sracos(space, target, { trials: 40, seed: 3 });
    expect(s.trials.length).toBe(40);
    expect(s.best.candidate['parameter']!.slice(1)).toEqual([1, 10]);
    expect(Math.abs(s.best.candidate['parameter']![0]! - 0.7)).toBeLessThan(0.1);
    expect(s.best.score).toBeGreaterThanOrEqual(r.best.score - 1e-3);
  });

  it('scores candidates by venv rollouts with the tunables set', async () => {
    const venv = new VirtualEnvironment(ds, { hidden: [8] }, new Generator(0));
    const seen: number[][] = [];
    const objective = venvObjective(venv, ds, (b) => {
      const p = b['parameter']!;
      const out = new Float32Array(p.shape[0]);
      for (let i = 0; i < out.length; i++) {
        seen.push([p.data[i * 3]!, p.data[i * 3 + 1]!, p.data[i * 3 + 2]!]);
        out[i] = target({ parameter: [p.data[i * 3]!, p.data[i * 3 + 1]!, p.data[i * 3 + 2]!] });
      }
      return out;
    }, { horizon: 5, windows: 8 });
    const best = await objective({ parameter: [0.7, 1, 10] });
    const worse = await objective({ parameter: [0.1, -1, 3] });
    expect(best).toBeCloseTo(0, 4);
    expect(worse).toBeLessThan(best);
    expect(seen[0]![2]).toBe(10);
  });
});
