/**
 * Environment ensembles in the modelling jobs, as the learning bench uses them (see the
 * learning engine's README, "Ensembles and uncertainty"): an environment training trains `k`
 * BC venvs on one train / validation split (member `i` from seed `seed + 1000 i`, member 0
 * being the single venv of a `k` = 1 training) and stores them in one artefact; a policy
 * training in that environment gives PPO / SAC the ensemble (`ensemble` option: rollouts in a
 * random member per row and step, the policy kept by its worst member return with PPO, by the
 * members' mean with SAC; an optional disagreement penalty).
 *
 * Hyperparameters (the spec lists no names; the training's free hyperparameter object):
 * - environment: `ensemble`, the number of members, an integer in [1, {@link MAX_ENSEMBLE_SIZE}];
 *   default {@link DEFAULT_ENSEMBLE_SIZE} for BC, 1 for revive-p / revive-t (the adversarial venvs
 *   are not ensembled: more than 1 is refused). A continued training (restore, update) keeps
 *   the member count of the training it continues unless `ensemble` is given.
 * - policy: `uncertaintyPenalty` (>= 0, default 0 as in the bench: off), `uncertaintyRelative`
 *   (PPO only; the penalty in multiples of the in-data disagreement), `ensembleRollouts`
 *   (default true with an ensemble), `select` (with an ensemble PPO's default `worst`, SAC's
 *   `mean`; `venv`), `bcUncertainty` (>= 0; the behaviour regulariser's part that follows the
 *   members' disagreement on the policy's return; default PPO 0.5 since the bench of
 *   2026-11-29, SAC 0 since 2026-11-27; refused with `select` `venv`), `bcUncertaintyBaseline` (`warmStart`, the
 *   trainers' default: only the disagreement the policy adds over the warm start's counts;
 *   `zero`: all of it). They need an environment of more than one
 *   member; with a single-model environment they are ignored (logged).
 * - policy, with or without an ensemble: `bcCoef` (>= 0, default 0: off), the behaviour
 *   regulariser's fixed coefficient (the negative log-likelihood of logged decisions added to
 *   the policy loss).
 *
 * Every model-facing use other than policy training (the environment's score, simulation and
 * decision deductions, parameter searches, comparison charts) uses member 0: the artefact's
 * `weights`, which is exactly what older readers (and older artefacts) hold.
 */
import {
  DEFAULT_ENSEMBLE_SIZE,
  EnsembleTrainer,
  MAX_ENSEMBLE_SIZE,
  type BcCheckpoint,
  type BcOptions,
  type Dataset,
  type EnsembleCheckpoint,
  type PpoOptions,
  type SacOptions,
  type StepContext,
  type StepResult,
  type Trainer,
  type VenvEnsemble,
} from '@decisio/learning';
import type { DecisionGraph } from '@decisio/domain';

/** Names of the policy hyperparameters that configure the ensemble's use. */
export const POLICY_ENSEMBLE_KEYS = ['uncertaintyPenalty', 'uncertaintyRelative', 'ensembleRollouts', 'select', 'selectTolerance', 'bcUncertainty', 'bcUncertaintyBaseline'] as const;

/** A finite number >= 0. */
const nonNegative = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Members a checkpoint holds: an ensemble checkpoint's count, 1 for a single venv's, null for none. */
export function checkpointMembers(checkpoint: unknown): number | null {
  if (!checkpoint || typeof checkpoint !== 'object') return null;
  const members = (checkpoint as { members?: unknown }).members;
  return Array.isArray(members) ? members.length : 1;
}

/**
 * The member count of an environment training: `hp.ensemble` when given, else that of the
 * checkpoint it continues (an older single-venv training stays single), else the default
 * ({@link DEFAULT_ENSEMBLE_SIZE} for BC, 1 for the adversarial algorithms).
 */
export function ensembleSize(algorithm: string, hp: Record<string, unknown>, continued: unknown): number {
  if (algorithm === 'revive_p' || algorithm === 'revive_t') return 1;
  const k = hp['ensemble'];
  if (typeof k === 'number' && Number.isInteger(k) && k >= 1) return Math.min(k, MAX_ENSEMBLE_SIZE);
  return checkpointMembers(continued) ?? DEFAULT_ENSEMBLE_SIZE;
}

/** A checkpoint as an ensemble's: a single venv's becomes member 0. */
export function asEnsembleCheckpoint(checkpoint: unknown): EnsembleCheckpoint | undefined {
  if (!checkpoint || typeof checkpoint !== 'object') return undefined;
  if (Array.isArray((checkpoint as { members?: unknown }).members)) return checkpoint as EnsembleCheckpoint;
  return { members: [checkpoint as BcCheckpoint] };
}

/**
 * The environment job's BC trainer: the learning engine's {@link EnsembleTrainer} of `k`
 * members, reporting like a single BC venv so charts, the hyperparameter search (`val/mse`)
 * and stop conditions read the same names: each metric is the mean over the members that
 * reported it (the members' own, `m<i>/...`, are left out; `ensemble/members` is `k`), the
 * score the members' mean score. Resumes from an ensemble checkpoint or from a single BC
 * venv's (member 0; further members start fresh). `namedParameters` (the debug page's
 * tensor summaries) are member 0's, named as a single venv's: member 0 is the environment
 * (the other members are trained the same way, from other seeds; k times the tensors would
 * mostly overflow the summary's size limit).
 */
export class VenvEnsembleTrainer implements Trainer<EnsembleCheckpoint> {
  readonly kind = 'venv.ensemble';
  readonly inner: EnsembleTrainer;

  constructor(graph: DecisionGraph, dataset: Dataset, readonly k: number, options: BcOptions) {
    this.inner = new EnsembleTrainer(graph, dataset, k, options);
  }

  get systemMaxSteps(): number {
    return this.inner.systemMaxSteps;
  }

  /** Member 0's venv (the environment's own model). */
  get venv() {
    return this.inner.members[0]?.venv;
  }

  /** The shared train / validation split. */
  get split() {
    return this.inner.members[0]?.split;
  }

  init({ seed, checkpoint }: { seed: number; checkpoint?: EnsembleCheckpoint | BcCheckpoint }): void {
    const ck = asEnsembleCheckpoint(checkpoint);
    this.inner.init(ck ? { seed, checkpoint: ck } : { seed });
  }

  async step(ctx: StepContext): Promise<StepResult> {
    const r = await this.inner.step(ctx);
    const sums = new Map<string, { s: number; n: number }>();
    for (const [key, v] of Object.entries(r.metrics ?? {})) {
      const m = /^m\d+\/(.+)$/.exec(key);
      if (!m || !Number.isFinite(v)) continue;
      const e = sums.get(m[1]!) ?? { s: 0, n: 0 };
      e.s += v;
      e.n++;
      sums.set(m[1]!, e);
    }
    const metrics: Record<string, number> = { 'ensemble/members': this.k };
    for (const [key, { s, n }] of sums) metrics[key] = s / n;
    return { ...r, metrics };
  }

  checkpoint(): EnsembleCheckpoint {
    return this.inner.checkpoint();
  }

  /** The members with their best evaluated weights loaded. */
  ensemble(): VenvEnsemble {
    return this.inner.ensemble(true);
  }

  namedParameters() {
    return this.inner.members[0]?.namedParameters() ?? [];
  }
}

/** The options {@link policyEnsembleOptions} sets (PPO's names; SAC's are the same, `uncertainty.relative` aside). */
export type PolicyEnsembleOptions = Pick<PpoOptions, 'ensemble' | 'uncertainty' | 'ensembleRollouts' | 'select' | 'bcCoef' | 'bcUncertainty' | 'bcUncertaintyBaseline'> & Pick<SacOptions, 'selectTolerance'>;

/**
 * PPO / SAC options for the ensemble of a policy training's environment and the behaviour
 * regulariser: `bcCoef` from the hyperparameters with or without an ensemble; with one,
 * `ensemble`, and from the hyperparameters the penalty (`uncertainty`), `ensembleRollouts`,
 * `select`, SAC's `selectTolerance`, `bcUncertainty` and `bcUncertaintyBaseline`. Unset ones keep the trainers' defaults (with an ensemble the
 * bench's).
 */
export function policyEnsembleOptions(algorithm: string, hp: Record<string, unknown>, ensemble: VenvEnsemble | undefined): PolicyEnsembleOptions {
  const bcCoef = nonNegative(hp['bcCoef']) ? { bcCoef: hp['bcCoef'] } : {};
  if (!ensemble) return bcCoef;
  const penalty = typeof hp['uncertaintyPenalty'] === 'number' && hp['uncertaintyPenalty'] > 0 ? hp['uncertaintyPenalty'] : 0;
  const relative = hp['uncertaintyRelative'] === true && algorithm !== 'sac';
  const s = hp['select'];
  const bcU = hp['bcUncertainty'];
  return {
    ensemble,
    ...bcCoef,
    // with `select: 'venv'` only 0 (the trainers refuse more; the create checks refuse it too)
    ...(nonNegative(bcU) && (bcU === 0 || s !== 'venv') ? { bcUncertainty: bcU } : {}),
    ...(hp['bcUncertaintyBaseline'] === 'warmStart' || hp['bcUncertaintyBaseline'] === 'zero' ? { bcUncertaintyBaseline: hp['bcUncertaintyBaseline'] } : {}),
    ...(penalty > 0 ? { uncertainty: { ensemble, weight: penalty, ...(relative ? { relative: true } : {}) } } : {}),
    ...(typeof hp['ensembleRollouts'] === 'boolean' ? { ensembleRollouts: hp['ensembleRollouts'] } : {}),
    ...(s === 'venv' || s === 'mean' || s === 'worst' ? { select: s } : {}),
    ...(algorithm === 'sac' && nonNegative(hp['selectTolerance']) ? { selectTolerance: hp['selectTolerance'] } : {}),
  };
}
