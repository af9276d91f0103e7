/**
 * The environment area's job kind `modelling.trainSimulator` (its descriptor: `environment.ts`).
 */
import os from 'node:os';
import { HYPERPARAMETER_DEFAULTS, MODELLING_JOB_KINDS, environmentNodeScores } from '@decisio/domain';
import {
  BcTrainer,
  ReviveTrainer,
  evaluateVenv,
  parseStopConditions,
  venvEvalEvery,
  type Trainer,
  type Dataset,
  type VirtualEnvironment,
} from '@decisio/learning';
import type { JobKind } from '../../../jobs/queue';
import { parseJson } from '../common';
import { environmentData, type VenvArtifact } from '../engine/data';
import { VenvEnsembleTrainer, ensembleSize } from '../engine/ensemble';
import {
  autoSearch,
  ints,
  need,
  num,
  point,
  resumedCheckpoint,
  runAsJob,
  storeFiles,
  type RecordPayload,
  type TrainingConfig,
} from '../engine/job-run';
import { withCode } from '../engine/user-code';
import { artifactPrefix } from '../../storage/artefact-keys';
import type { ModellingJobEnv } from '../engine/job-run';

/** The environment trainings' defaults (`HYPERPARAMETER_DEFAULTS` of `@decisio/domain`: one set). */
const ENV = HYPERPARAMETER_DEFAULTS.environment;

export function environmentJobKind({ db, blobs, codeEnv }: ModellingJobEnv): JobKind<RecordPayload> {
  const knex = () => db.knex;
  const kind: JobKind<RecordPayload> = {
    kind: MODELLING_JOB_KINDS.environment,
    description: 'Environment training (BC, revive-p or revive-t) on a processed scheme.',
    async run(ctx) {
      const sim = await need(db, 'simulators', ctx.payload.id, 'environment');
      const config = parseJson<TrainingConfig>(sim.config, { stopConditions: { system: true }, hyperparameters: {} });
      const hp = config.hyperparameters;
      // Memory rule of the spec (about 20 GB per GB of data), on the machine that runs the job.
      const scheme = await need(db, 'schemes', sim.scheme_id, 'scheme');
      const dataBytes = scheme.processed_key ? ((await blobs.stat(scheme.processed_key))?.size ?? 0) : 0;
      if (dataBytes * 20 > os.totalmem()) throw new Error('Insufficient computing power or resources: the data needs about 20 times its size in memory');
      // An update with new data (`config.datasetIds`): their rows follow the scheme's (logged per table).
      const extraDatasetIds = Array.isArray(config.datasetIds) ? config.datasetIds.map(String) : [];
      const { graph, dataset } = await environmentData(knex(), blobs, String(sim.tenant_id), sim.scheme_id, extraDatasetIds, (line, level) => ctx.log(line, level));
      await ctx.log(`environment training (${sim.algorithm}): ${dataset.rows} rows, ${dataset.trajectoryCount} trajectories`);
      // What the continued training was trained on (its artefact): other data, other best score.
      const before = ctx.payload.extend && sim.artifact_key ? await blobs.get(`${sim.artifact_key}/venv.json`).then((b) => parseJson<Partial<VenvArtifact>>(b.toString('utf8'), {}), () => ({}) as Partial<VenvArtifact>) : null;
      const dataChanged = before !== null && [...(before.extraDatasetIds ?? [])].sort().join(',') !== [...extraDatasetIds].sort().join(',');
      if (dataChanged) await ctx.log('the data differs from the continued training\'s: its best weights and score are not kept');
      const seed = num(hp['seed'], ENV.seed);
      const epochs = hp['epochs'] === undefined ? undefined : Math.max(1, Math.floor(num(hp['epochs'], 1)));
      // Ensemble members (`engine/ensemble.ts`): BC trains k venvs on one split; the adversarial venvs train one.
      const continued = await resumedCheckpoint(ctx, db);
      const members = ensembleSize(sim.algorithm, hp, continued);
      if (members === 1 && typeof hp['ensemble'] === 'number' && hp['ensemble'] > 1) await ctx.log(`${sim.algorithm} environments are not ensembled: training one model`, 'warn');
      const outcome = await withCode(ctx, db, codeEnv, { solutionId: sim.solution_id, graph, dataset, git: config.git }, async ({ nodeFunction }) => {
        /** The trainer: `k` = null for one model as before (the search's trials), else BC's ensemble of `k` members. */
        const build = (h: Record<string, unknown>, steps: number | undefined, k: number | null = null) => {
          const adversarial = sim.algorithm === 'revive_p' || sim.algorithm === 'revive_t';
          const evalEvery = Math.max(1, Math.floor(num(h['evalEvery'], venvEvalEvery(steps, adversarial))));
          const batchSize = Math.max(1, Math.floor(num(h['batchSize'], ENV.batchSize)));
          const hidden = ints(h['hidden'], [...ENV.hidden]);
          const bcOptions = {
            hidden,
            evalEvery,
            updatesPerStep: Math.max(1, Math.floor(num(h['updatesPerStep'], ENV.updatesPerStep))),
            batchSize,
            lr: num(h['lr'], ENV.lr),
            ...(nodeFunction ? { nodeFunction } : {}),
          };
          // revive-p / revive-t: adversarial imitation warm-started from BC (same node networks, so
          // the stored venv loads like a BC one); each job step is one adversarial step.
          return adversarial
            ? new ReviveTrainer(graph, dataset, sim.algorithm === 'revive_p' ? 'p' : 't', {
                hidden,
                batchSize,
                evalEvery,
                bcSteps: Math.max(1, Math.floor(num(h['bcSteps'], ENV.bcSteps))),
                bcUpdatesPerStep: Math.max(1, Math.floor(num(h['updatesPerStep'], ENV.updatesPerStep))),
                bcLr: num(h['lr'], ENV.lr),
                lr: num(h['generatorLr'], ENV.generatorLr),
                rollouts: Math.max(1, Math.floor(num(h['rollouts'], ENV.rollouts))),
                ...(nodeFunction ? { nodeFunction } : {}),
              })
            : k === null
              ? new BcTrainer(graph, dataset, bcOptions)
              : new VenvEnsembleTrainer(graph, dataset, k, bcOptions);
        };
        // The search's trials train one model each (its settings are per member; k times cheaper).
        const searched = await autoSearch(ctx, db, 'simulators', sim, config, epochs, (h, steps) => build(h, steps) as Trainer<unknown>);
        if (searched === 'stopped') return null;
        const settings = { ...hp, ...(searched?.best ?? {}) };
        const hidden = ints(settings['hidden'], [...ENV.hidden]);
        const evaluate = (venv: VirtualEnvironment, validation: Dataset) => evaluateVenv(venv, validation, { horizon: 10, windows: 64, ...(nodeFunction ? { nodeFunction } : {}) });
        if (sim.algorithm !== 'revive_p' && sim.algorithm !== 'revive_t') {
          const trainer = build(settings, epochs, members) as VenvEnsembleTrainer;
          await ctx.log(`environment ensemble: ${members} member${members === 1 ? '' : 's'} (one split; member i from seed ${seed} + 1000 i; member 0 is the environment)`);
          await runAsJob(ctx, db, trainer as Trainer<unknown>, parseStopConditions(config.stopConditions), seed, epochs, config.mode === 'debug', searched ? 0.5 : 0, dataChanged);
          // Every member's best evaluated weights; member 0's score is the environment's.
          const ensemble = trainer.ensemble();
          const reports = [];
          for (const venv of ensemble.members) reports.push(await evaluate(venv, trainer.split!.validation));
          if (members > 1) await ctx.log(`member scores ${reports.map((r) => r.score.toFixed(2)).join(', ')}`);
          const [first, ...rest] = ensemble.members.map((v) => v.weights());
          return { hidden, weights: first!, members: rest, memberScores: reports.map((r) => (Number.isFinite(r.score) ? r.score : null)), report: reports[0]! };
        }
        const trainer = build(settings, epochs) as ReviveTrainer;
        await runAsJob(ctx, db, trainer as Trainer<unknown>, parseStopConditions(config.stopConditions), seed, epochs, config.mode === 'debug', searched ? 0.5 : 0, dataChanged);
        const ck = await trainer.checkpoint();
        const best = ck.best ?? ck.weights;
        trainer.venv!.loadWeights(best);
        return { hidden, weights: best, members: [], memberScores: [], report: await evaluate(trainer.venv!, trainer.split!.validation) };
      });
      if (!outcome) {
        await ctx.log('stopped during the hyperparameter search: nothing trained to keep');
        return;
      }
      const { hidden, weights, members: others, memberScores, report } = outcome;
      await point(ctx, 1, -1, { score: report.score, mae: report.mae });
      const artifact: VenvArtifact = {
        format: 'decisio.venv',
        algorithm: sim.algorithm === 'revive_p' || sim.algorithm === 'revive_t' ? sim.algorithm : 'bc',
        seed,
        hidden,
        schemeId: sim.scheme_id,
        score: Number.isFinite(report.score) ? report.score : null,
        weights,
        // A single model's artefact stays as it was (no `members`).
        ...(others.length > 0 ? { members: others, memberScores } : {}),
        extraDatasetIds,
        jobId: ctx.jobId,
      };
      // Trained again (restore, update, maybe by another user): the files stay in the record's folder.
      const prefix = sim.artifact_key ?? artifactPrefix(ctx.userId, 'simulators', sim.id);
      await storeFiles(db, blobs, ctx, prefix, { 'venv.json': Buffer.from(JSON.stringify(artifact)) });
      // Per-node figures of the same held-out evaluation, kept with the record (the environment detail's table).
      await knex()('simulators').where({ id: sim.id }).update({ artifact_key: prefix, score: artifact.score, node_scores: JSON.stringify(environmentNodeScores(report)), updated_at: new Date() });
      await ctx.log(`environment score ${report.score.toFixed(2)}`);
      await ctx.log(`node scores: ${Object.entries(report.nodes).map(([n, e]) => `${n} ${e.score.toFixed(2)} (MAE ${e.mae.toPrecision(3)}, R² ${Number.isFinite(e.r2) ? e.r2.toFixed(3) : '-'})`).join('; ')}`);
    },
  };
  return kind;
}
