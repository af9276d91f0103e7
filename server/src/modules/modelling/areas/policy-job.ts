/**
 * The policy area's job kind `modelling.trainPolicy` (its descriptor: `policy.ts`).
 */
import { HYPERPARAMETER_DEFAULTS, MODELLING_JOB_KINDS } from '@decisio/domain';
import {
  PPO_DEFAULTS,
  PpoTrainer,
  SacTrainer,
  parseStopConditions,
  savePolicy,
  type Trainer,
} from '@decisio/learning';
import type { JobKind } from '../../../jobs/queue';
import { parseJson } from '../common';
import { loadVenv } from '../engine/data';
import { policyEnsembleOptions, POLICY_ENSEMBLE_KEYS } from '../engine/ensemble';
import {
  autoSearch,
  ints,
  need,
  num,
  point,
  runAsJob,
  storeFiles,
  type RecordPayload,
  type TrainingConfig,
} from '../engine/job-run';
import { withReward } from '../engine/user-code';
import { artifactPrefix } from '../../storage/artefact-keys';
import type { ModellingJobEnv } from '../engine/job-run';


export function policyJobKind({ db, blobs, codeEnv }: ModellingJobEnv): JobKind<RecordPayload> {
  const knex = () => db.knex;
  const kind: JobKind<RecordPayload> = {
    kind: MODELLING_JOB_KINDS.policy,
    description: 'Policy training (PPO or SAC) in a trained environment with a reward.',
    async run(ctx) {
      const pol = await need(db, 'policies', ctx.payload.id, 'policy');
      const sim = await need(db, 'simulators', pol.simulator_id, 'environment');
      const obj = await need(db, 'objectives', pol.objective_id, 'reward');
      const config = parseJson<TrainingConfig>(pol.config, { stopConditions: { system: true }, hyperparameters: {} });
      const hp = config.hyperparameters;
      // The simulator's current artefact: a policy (or its update) after an environment update
      // trains in the updated environment, over the same data (scheme data plus the update's datasets).
      const { venv, ensemble, dataset, graph, artifact } = await loadVenv(knex(), blobs, sim);
      // An ensemble environment: PPO / SAC roll out in its members and keep the policy by a
      // conservative (worst member) return, as the learning bench does (`engine/ensemble.ts`).
      if (ensemble) await ctx.log(`training in the environment's ensemble of ${ensemble.members.length} members`);
      else if (POLICY_ENSEMBLE_KEYS.some((key) => hp[key] !== undefined)) await ctx.log(`the environment is a single model: ${POLICY_ENSEMBLE_KEYS.join(', ')} are ignored`, 'warn');
      // An update in an environment trained since the policy's last run: the best kept was measured in the old one.
      const envChanged = ctx.payload.extend === true && config.environmentJobId !== undefined && config.environmentJobId !== artifact.jobId;
      if (envChanged) await ctx.log('the environment was trained again since this policy\'s last run: training in the updated environment');
      const epochs = hp['epochs'] === undefined ? undefined : Math.max(1, Math.floor(num(hp['epochs'], 1)));
      await withReward(ctx, db, codeEnv, { solutionId: pol.solution_id, graph, dataset, git: config.git, objective: obj }, async (reward, nodeFunction) => {
        const build = (h: Record<string, unknown>, steps: number | undefined) => {
          // What the user did not set keeps the trainer's own defaults (the learning engine's
          // benchmarked ones: 50-step rollouts, a behaviour-clone warm start that runs until the
          // held-out likelihood stops improving).
          const given = (key: string, min: number) => (h[key] === undefined ? {} : { [key]: Math.max(min, Math.floor(num(h[key], min))) });
          const opts = {
            ...(nodeFunction ? { nodeFunction } : {}),
            ...given('horizon', 1),
            ...given('batchSize', 1),
            ...given('bcUpdates', 0),
            ...(h['hidden'] === undefined ? {} : { hidden: ints(h['hidden'], [...PPO_DEFAULTS.hidden]) }),
            evalEvery: Math.max(1, Math.floor(num(h['evalEvery'], steps ? Math.min(5, Math.max(1, Math.floor(steps / 2))) : 5))),
            evalWindows: Math.max(1, Math.floor(num(h['evalWindows'], HYPERPARAMETER_DEFAULTS.policy.evalWindows))),
            ...(typeof h['lr'] === 'number' && h['lr'] > 0 ? { lr: h['lr'] } : {}),
            ...(typeof h['gamma'] === 'number' && h['gamma'] > 0 && h['gamma'] <= 1 ? { gamma: h['gamma'] } : {}),
            ...policyEnsembleOptions(pol.algorithm, h, ensemble),
          };
          return pol.algorithm === 'sac' ? new SacTrainer(venv, reward, opts, dataset) : new PpoTrainer(venv, reward, opts, dataset);
        };
        const searched = await autoSearch(ctx, db, 'policies', pol, config, epochs, (h, steps) => build(h, steps) as Trainer<unknown>);
        if (searched === 'stopped') {
          await ctx.log('stopped during the hyperparameter search: nothing trained to keep');
          return;
        }
        const trainer = build({ ...hp, ...(searched?.best ?? {}) }, epochs);
        await runAsJob(ctx, db, trainer as Trainer<unknown>, parseStopConditions(config.stopConditions), num(hp['seed'], HYPERPARAMETER_DEFAULTS.policy.seed) + 1, epochs, config.mode === 'debug', searched ? 0.5 : 0, envChanged);
        const best = trainer.useBest();
        await point(ctx, 1, -1, { reward: best, initialReward: trainer.initialReward });
        const files = await savePolicy(trainer.policy, pol.algorithm, pol.algorithm === 'sac' ? 'tanh' : 'clip');
        const prefix = pol.artifact_key ?? artifactPrefix(ctx.userId, 'policies', pol.id);
        await storeFiles(db, blobs, ctx, prefix, files);
        // Which environment this policy was trained in, and the cloned behaviour's return on the same
        // evaluation (its warm start): the deploy form warns when the policy does not beat it (the
        // config as it is now: `update` may have written it meanwhile).
        const current = parseJson<TrainingConfig>((await knex()('policies').where({ id: pol.id }).first('config'))?.config, config);
        const measured = (v: number) => Number.isFinite(v) && v > -Number.MAX_VALUE;
        const trainedIn = {
          ...current,
          ...(artifact.jobId === undefined ? {} : { environmentJobId: artifact.jobId }),
          // a run resumed from a checkpoint measures no warm start: the stored one holds, unless the environment changed
          behaviourReward: measured(trainer.initialReward) ? trainer.initialReward : envChanged ? null : (current.behaviourReward ?? null),
        };
        await knex()('policies').where({ id: pol.id }).update({ artifact_key: prefix, reward: measured(best) ? best : null, config: JSON.stringify(trainedIn), updated_at: new Date() });
        await ctx.log(`policy return ${best.toFixed(4)} (warm start ${trainer.initialReward.toFixed(4)})`);
      });
    },
  };
  return kind;
}
