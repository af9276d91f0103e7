/**
 * Ensembles of virtual environments for uncertainty: `k` BC venvs trained on the same
 * train / validation split from different initial weights and batch orders. Their
 * disagreement on a step (the spread of the members' predictions of every learned
 * environment node, given the same inputs) is the venv's uncertainty there; policy training
 * can subtract it from the reward (PPO's `uncertainty` option) so the policy stays where the
 * learned environment is trustworthy.
 */
import { TRAINING_LIMITS, type DecisionGraph } from '@decisio/domain';
import type { Dataset } from '../data/dataset';
import { Rng } from '../data/split';
import type { StepContext, StepResult, Trainer } from '../trainer/contract';
import { BcTrainer, type BcCheckpoint, type BcOptions, type NodeModel, type VirtualEnvironment } from './bc';

/** Replaces a learned node's prediction in {@link VirtualEnvironment.rollout} (its `sampler` option). */
export type RolloutSampler = (model: NodeModel, x: Float32Array, rows: number, base: Float32Array | undefined, t: number) => Promise<Float32Array>;

/** `k` virtual environments over the same data set (see the module comment). */
export class VenvEnsemble {
  constructor(readonly members: VirtualEnvironment[]) {
    if (members.length === 0) throw new Error('venv ensemble: no member');
  }

  /**
   * A `sampler` for one {@link VirtualEnvironment.rollout} of any member: every learned node's
   * value of a row at a step comes from a member drawn at random for that row and step (the
   * same member for every node of the step), predicted in `mode` (mean or sample). A policy
   * trained on such rollouts gains nothing from one member's particular errors: only what
   * the members agree on pays (model randomisation, as in MBPO / MOPO). Make a new sampler
   * for each rollout (the draws are kept per step).
   */
  randomMemberSampler(rng: Rng, mode: 'mode' | 'sample'): RolloutSampler {
    const k = this.members.length;
    let step = -1;
    let pickOf = new Int32Array(0);
    return async (model, x, rows, base, t) => {
      if (t !== step || pickOf.length !== rows) {
        step = t;
        pickOf = Int32Array.from({ length: rows }, () => Math.min(k - 1, Math.floor(rng.next() * k)));
      }
      const W = model.codec.width;
      const out = new Float32Array(rows * W);
      for (let j = 0; j < k; j++) {
        if (!pickOf.includes(j)) continue;
        const m = this.members[j]!.models.get(model.name);
        if (!m) throw new Error(`venv ensemble: member ${j} lacks node '${model.name}'`);
        const p = await m.predict(x, rows, mode, rng, base);
        for (let r = 0; r < rows; r++) if (pickOf[r] === j) out.set(p.subarray(r * W, (r + 1) * W), r * W);
      }
      return out;
    };
  }

  /**
   * Disagreement per row of one encoded step (every node's `[rows, width]` values): for each
   * learned environment node (agents left out), the standard deviation across members of
   * their mean predictions, averaged over the node's encoded columns, summed over nodes.
   */
  async disagreement(step: Record<string, Float32Array>, rows: number): Promise<Float32Array> {
    const out = new Float32Array(rows);
    const first = this.members[0]!;
    const values = (n: string): Float32Array => {
      const v = step[n];
      if (!v) throw new Error(`venv ensemble: step lacks node '${n}'`);
      return v;
    };
    const rng = new Rng(0);
    for (const [name, m0] of first.models) {
      if (first.dataset.structure.nodes.get(name)?.role === 'agent') continue;
      const W = m0.codec.width;
      const preds: Float32Array[] = [];
      for (const venv of this.members) {
        const m = venv.models.get(name)!;
        preds.push(await m.predict(venv.inputOf(m, values, rows), rows, 'mode', rng, venv.residualBase(m, values, rows)));
      }
      const k = preds.length;
      for (let r = 0; r < rows; r++) {
        let s = 0;
        for (let j = 0; j < W; j++) {
          let mu = 0;
          for (const p of preds) mu += p[r * W + j]!;
          mu /= k;
          let v = 0;
          for (const p of preds) v += (p[r * W + j]! - mu) ** 2;
          s += Math.sqrt(v / k);
        }
        out[r] = out[r]! + s / W;
      }
    }
    return out;
  }
}

/** Checkpoint of {@link EnsembleTrainer}: one BC checkpoint per member. */
export interface EnsembleCheckpoint {
  members: BcCheckpoint[];
}

/** Members of a BC venv ensemble when the caller does not say (the bench's, `learn train`'s and the server's default; `TRAINING_LIMITS`). */
export const DEFAULT_ENSEMBLE_SIZE: number = TRAINING_LIMITS.ensembleDefault;
/** Most members an ensemble may have (each member costs a full BC training). */
export const MAX_ENSEMBLE_SIZE: number = TRAINING_LIMITS.ensembleMax;

/**
 * Trains `k` BC venvs (one step of each per trainer step). Member `i` starts from seed
 * `seed + 1000 i`; all share the split of the run's seed. The reported score is the members'
 * mean held-out score; it converges when every member has.
 */
export class EnsembleTrainer implements Trainer<EnsembleCheckpoint> {
  readonly kind = 'venv.ensemble';
  readonly systemMaxSteps: number;
  readonly members: BcTrainer[] = [];
  private done: boolean[] = [];
  private splitSeed = 0;

  constructor(
    readonly graph: DecisionGraph,
    readonly dataset: Dataset,
    readonly k: number,
    private readonly options: BcOptions = {},
  ) {
    if (!Number.isInteger(k) || k < 1) throw new Error('venv ensemble: k must be a positive integer');
    this.systemMaxSteps = options.systemMaxSteps ?? 200;
  }

  init({ seed, checkpoint }: { seed: number; checkpoint?: EnsembleCheckpoint }): void {
    this.splitSeed = this.options.splitSeed ?? seed;
    this.members.length = 0;
    for (let i = 0; i < this.k; i++) {
      const t = new BcTrainer(this.graph, this.dataset, { ...this.options, splitSeed: this.splitSeed });
      const ck = checkpoint?.members[i];
      t.init(ck ? { seed: seed + 1000 * i, checkpoint: ck } : { seed: seed + 1000 * i });
      this.members.push(t);
    }
    this.done = this.members.map(() => false);
  }

  async step(ctx: StepContext): Promise<StepResult> {
    const metrics: Record<string, number> = {};
    const scores: number[] = [];
    for (let i = 0; i < this.members.length; i++) {
      const r = await this.members[i]!.step(ctx);
      for (const [k, v] of Object.entries(r.metrics ?? {})) metrics[`m${i}/${k}`] = v;
      if (r.score !== undefined) scores.push(r.score);
      if (r.converged) this.done[i] = true;
    }
    const out: StepResult = { metrics };
    if (scores.length > 0) out.score = scores.reduce((a, b) => a + b, 0) / scores.length;
    if (this.done.every(Boolean)) out.converged = true;
    return out;
  }

  /** The members' venvs (with their best evaluated weights when `best` is true) as an ensemble. */
  ensemble(best = true): VenvEnsemble {
    return new VenvEnsemble(
      this.members.map((t) => {
        const b = t.checkpoint().best;
        if (best && b) t.venv!.loadWeights(b);
        return t.venv!;
      }),
    );
  }

  checkpoint(): EnsembleCheckpoint {
    return { members: this.members.map((t) => t.checkpoint()) };
  }
}
