/**
 * The tuning area's job kind `modelling.trainParameter` (its descriptor: `tuning.ts`).
 */
import { HYPERPARAMETER_DEFAULTS, MODELLING_JOB_KINDS } from '@decisio/domain';
import {
  parseStopConditions,
  randomSearch,
  sracos,
  tunableSpace,
  venvObjective,
  type Trial,
} from '@decisio/learning';
import type { JobKind } from '../../../jobs/queue';
import { parseJson } from '../common';
import { loadVenv } from '../engine/data';
import { initialDataset } from '../engine/initial-data';
import {
  need,
  num,
  point,
  type RecordPayload,
  type TrainingConfig,
} from '../engine/job-run';
import { withReward } from '../engine/user-code';
import type { ModellingJobEnv } from '../engine/job-run';

export function tuningJobKind({ db, blobs, codeEnv }: ModellingJobEnv): JobKind<RecordPayload> {
  const knex = () => db.knex;
  const kind: JobKind<RecordPayload> = {
    kind: MODELLING_JOB_KINDS.parameter,
    description: 'Tunable-parameter search (SRACOS/zoopt or random) scored in a trained environment.',
    async run(ctx) {
      const rec = await need(db, 'parameter_searches', ctx.payload.id, 'parameter search');
      const sim = await need(db, 'simulators', rec.simulator_id, 'environment');
      const obj = await need(db, 'objectives', rec.objective_id, 'reward');
      const config = parseJson<TrainingConfig>(rec.config, { stopConditions: { system: true }, hyperparameters: {} });
      const stop = parseStopConditions(config.stopConditions);
      const hp = config.hyperparameters;
      const { venv, dataset: simData, graph, artifact } = await loadVenv(knex(), blobs, sim);
      // The initial search dataset: its rows start the rollouts that score each candidate.
      const dataset = rec.dataset_id ? await initialDataset(knex(), blobs, String(rec.tenant_id), artifact.schemeId, graph, simData, String(rec.dataset_id), (l, level) => ctx.log(l, level)) : simData;
      const space = tunableSpace(dataset);
      if (space.length === 0) throw new Error('The decision graph has no tunable parameter to search');
      const trials = Math.max(1, Math.floor(stop.searchCount ?? num(hp['trials'], HYPERPARAMETER_DEFAULTS.parameter.trials)));
      const seed = num(hp['seed'], HYPERPARAMETER_DEFAULTS.parameter.seed);
      const started = Date.now();
      const maxMs = stop.duration ? ((stop.duration.days ?? 0) * 1440 + (stop.duration.hours ?? 0) * 60 + (stop.duration.minutes ?? 0)) * 60_000 : Infinity;
      const halt = new Error('halt');
      let best: Trial | null = null;
      await withReward(ctx, db, codeEnv, { solutionId: rec.solution_id, graph, dataset, git: config.git, objective: obj }, async (reward, nodeFunction) => {
        const objective = venvObjective(venv, dataset, reward, { horizon: Math.max(1, Math.floor(num(hp['horizon'], HYPERPARAMETER_DEFAULTS.parameter.horizon))), seed, ...(nodeFunction ? { nodeFunction } : {}) });
        const onTrial = async (t: Trial, i: number) => {
          if (!best || t.score > best.score) best = t;
          await point(ctx, (i + 1) / trials, i, { score: t.score, best: best.score });
          if (ctx.shouldStop() || Date.now() - started >= maxMs || (stop.expectedReward !== undefined && best.score >= stop.expectedReward)) throw halt;
        };
        try {
          if (rec.algorithm === 'random') await randomSearch(space, objective, { trials, seed, onTrial });
          else await sracos(space, objective, { trials, seed, onTrial });
        } catch (err) {
          if (err !== halt) throw err;
        }
      });
      const found = best as Trial | null;
      await knex()('parameter_searches')
        .where({ id: rec.id })
        .update({ result: JSON.stringify({ best: found, space }), reward: found && Number.isFinite(found.score) ? found.score : null, updated_at: new Date() });
      await ctx.log(found ? `best ${JSON.stringify(found.candidate)} score ${found.score.toFixed(4)}` : 'no trial finished');
    },
  };
  return kind;
}
