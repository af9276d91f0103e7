/**
 * The bench's upper bound: PPO trained directly in a reference task's TRUE simulator (online,
 * full episodes), with the same policy network, warm start (behaviour cloning on the offline
 * data), reward scaling and PPO settings as the offline PPO trained in the venv. Each
 * iteration collects `samplesPerIteration` steps (whole episodes of the task's horizon),
 * computes GAE per episode (bootstrapped with the last step's value: the horizon is a time
 * limit), and runs `epochs` passes of minibatch updates. The deterministic policy is
 * evaluated every `evalEvery` iterations on seeds distinct from the bench's test seeds; the
 * best is kept.
 */
import { Adam, Generator, MLP, add, affine, mean, square, sub, tensor, tidy, type Tensor } from '@decisio/compute';
import { decodeRows, encodeRows } from '../src/data/codec';
import type { Dataset } from '../src/data/dataset';
import { Rng } from '../src/data/split';
import { AgentPolicy, concatInputs, warmStartPolicy } from '../src/policy/agent-policy';
import { PPO_DEFAULTS, gae, optimiseStep, pick, ppoClipLoss, rewardScaleOf } from '../src/policy/ppo';
import { PolicyRunner } from '../src/policy/runner';
import { taskReward } from '../src/policy/task-reward';
import type { ReferenceTask, StepValues, TaskPolicy } from '../src/tasks/common';

export interface TrueSimOptions {
  iterations: number;
  samplesPerIteration: number;
  seed?: number;
  hidden?: number[];
  lr?: number;
  epochs?: number;
  minibatch?: number;
  gamma?: number;
  lambda?: number;
  clip?: number;
  entropyCoef?: number;
  bcUpdates?: number;
  valueWarmup?: number;
  evalEvery?: number;
  evalEpisodes?: number;
}

export interface TrueSimResult {
  policy: AgentPolicy;
  bestReturn: number;
  samples: number;
  seconds: number;
}

export async function ppoInTrueSimulator(task: ReferenceTask, ds: Dataset, o: TrueSimOptions): Promise<TrueSimResult> {
  const t0 = performance.now();
  const seed = o.seed ?? 3;
  const g = new Generator(seed);
  const hidden = o.hidden ?? [...PPO_DEFAULTS.hidden];
  const policy = AgentPolicy.forDataset(ds, hidden, g);
  const inputs = ds.structure.inputs.filter((i) => ds.codecs[i]);
  const widths = inputs.map((i) => ds.codecs[i]!.width);
  const vWidth = Math.max(1, widths.reduce((a, b) => a + b, 0));
  const value = new MLP([vWidth, ...hidden, 1], { activation: 'tanh', generator: g });
  const lr = o.lr ?? PPO_DEFAULTS.lr;
  const popt = new Adam(policy.parameters(), { lr });
  const vopt = new Adam(value.parameters(), { lr: lr * 3 });
  const rng = new Rng(seed + 17);
  const rewardScale = await rewardScaleOf(ds, taskReward(task), new Rng(seed + 3));
  warmStartPolicy(policy, ds, { updates: o.bcUpdates ?? 5000, rng, splitSeed: seed });
  // heads in dependency order: an agent that reads another agent's output runs after it
  const agents = ds.structure.order.filter((n) => policy.heads.has(n)).map((n) => policy.heads.get(n)!);
  const evaluate = (): number => {
    const p = new PolicyRunner(policy).asTaskPolicy();
    let s = 0;
    const n = o.evalEpisodes ?? 3;
    for (let k = 0; k < n; k++) s += task.simulate(p, task.horizon, 5000 + k).return;
    return s / n;
  };
  let bestReturn = evaluate();
  let best = policy.weights();
  let samples = 0;
  let episodeSeed = 100_000 + seed;
  const episodes = Math.max(2, Math.round(o.samplesPerIteration / task.horizon));
  // value warm-up iterations (negative `it`): value network only, as the offline PPO's init
  for (let it = -(o.valueWarmup ?? 5); it < o.iterations; it++) {
    const xs = new Map<string, number[]>();
    const conts = new Map<string, number[]>();
    const clss = new Map<string, number[]>();
    for (const h of agents) {
      xs.set(h.name, []);
      conts.set(h.name, []);
      clss.set(h.name, []);
    }
    const vx: number[] = [];
    const allAdv: number[] = [];
    const allRet: number[] = [];
    for (let e = 0; e < episodes; e++) {
      const epValues: number[] = [];
      const act: TaskPolicy = (step: StepValues) => {
        const enc: Record<string, Float32Array> = {};
        for (const n of inputs) enc[n] = encodeRows(ds.codecs[n]!, step[n]!, 1);
        const v = concatInputs(inputs.map((n) => enc[n]!), widths, 1);
        vx.push(...v);
        epValues.push(tidy(() => value.forward(tensor(v, [1, vWidth])).dataSync()[0]!));
        const out: StepValues = {};
        for (const h of agents) {
          const x = policy.inputOf(h, enc, 1);
          const a = h.act(x, 1, 'sample', rng);
          enc[h.name] = a.enc;
          xs.get(h.name)!.push(...x);
          conts.get(h.name)!.push(...a.cont);
          clss.get(h.name)!.push(...a.cls);
          out[h.name] = Array.from(decodeRows(h.codec, a.enc, 1));
        }
        return out;
      };
      const res = task.simulate(act, task.horizon, episodeSeed++);
      const T = res.rewards.length;
      const r = res.rewards.map((x) => x * rewardScale);
      const { advantages, returns } = gae(r, epValues, [epValues[T - 1]!], T, 1, o.gamma ?? PPO_DEFAULTS.gamma, o.lambda ?? PPO_DEFAULTS.lambda);
      allAdv.push(...advantages);
      allRet.push(...returns);
    }
    const N = allAdv.length;
    if (it >= 0) samples += N;
    let am = 0;
    for (const a of allAdv) am += a;
    am /= N;
    let as = 0;
    for (const a of allAdv) as += (a - am) ** 2;
    as = Math.sqrt(as / N) + 1e-8;
    const adv = Float32Array.from(allAdv, (a) => (a - am) / as);
    const ret = Float32Array.from(allRet);
    const vxa = Float32Array.from(vx);
    const flat = new Map(agents.map((h) => [h.name, { x: Float32Array.from(xs.get(h.name)!), cont: Float32Array.from(conts.get(h.name)!), cls: Float32Array.from(clss.get(h.name)!) }]));
    const logProbOf = (rows: Int32Array | null, M: number): { logProb: Tensor; entropy: Tensor } => {
      let lp: Tensor | undefined;
      let en: Tensor | undefined;
      for (const h of agents) {
        const f = flat.get(h.name)!;
        const r = h.logProbEntropy(
          tensor(rows ? pick(f.x, rows, h.inWidth) : f.x, [M, h.inWidth]),
          rows ? pick(f.cont, rows, h.cont.length) : f.cont,
          rows ? pick(f.cls, rows, h.blocks.length) : f.cls,
          M,
        );
        lp = lp ? add(lp, r.logProb) : r.logProb;
        en = en ? add(en, r.entropy) : r.entropy;
      }
      return { logProb: lp!, entropy: en! };
    };
    const old = tidy(() => Float32Array.from(logProbOf(null, N).logProb.dataSync()));
    const M = Math.min(o.minibatch ?? PPO_DEFAULTS.minibatch, N);
    const order = Array.from({ length: N }, (_, i) => i);
    const pparams = policy.parameters();
    const vparams = value.parameters();
    for (let ep = 0; ep < (o.epochs ?? PPO_DEFAULTS.epochs); ep++) {
      rng.shuffle(order);
      for (let s = 0; s + M <= N; s += M) {
        const rows = Int32Array.from(order.slice(s, s + M));
        if (it >= 0)
          optimiseStep(
            popt,
            pparams,
            () => {
              const { logProb, entropy } = logProbOf(rows, M);
              return sub(ppoClipLoss(logProb, tensor(pick(old, rows, 1), [M]), tensor(pick(adv, rows, 1), [M]), o.clip ?? PPO_DEFAULTS.clip), affine(mean(entropy), o.entropyCoef ?? PPO_DEFAULTS.entropyCoef, 0));
            },
            0.5,
          );
        optimiseStep(vopt, vparams, () => affine(mean(square(sub(value.forward(tensor(pick(vxa, rows, vWidth), [M, vWidth])), tensor(pick(ret, rows, 1), [M, 1])))), 0.5, 0), 0.5);
      }
    }
    if (it >= 0 && ((it + 1) % (o.evalEvery ?? 2) === 0 || it + 1 === o.iterations)) {
      const r = evaluate();
      if (r > bestReturn) {
        bestReturn = r;
        best = policy.weights();
      }
    }
  }
  policy.loadWeights(best);
  return { policy, bestReturn, samples, seconds: (performance.now() - t0) / 1000 };
}
