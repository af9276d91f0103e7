/**
 * The modelling job kinds: they really train with `@decisio/learning`. Every handler reads its
 * record by id from the payload, reports progress and metrics (each metrics report is also a
 * point of structured `job_metrics` rows, the series of `train/getTrainDisplayDataList`), saves a
 * checkpoint every few steps (a job restored on another worker resumes from it), in debug mode
 * keeps the tensor summaries of its networks at each breakpoint (a `debug` log line
 * `tensors {...}`), and stores its artefacts in the blob store, charged to the job owner's
 * storage quota. Those shared steps are in `job-run.ts`, the user code (reward, node
 * functions, git) in `user-code.ts`; this file holds the kinds themselves.
 */
import os from 'node:os';
import { DeductionTally, HYPERPARAMETER_DEFAULTS, MODELLING_JOB_KINDS, MODELLING_LIMITS, environmentNodeScores, parseDecisionGraph } from '@decisio/domain';
import {
  BcTrainer,
  ReviveTrainer,
  decodeStep,
  PpoTrainer,
  SacTrainer,
  evaluateInVenv,
  evaluateVenv,
  loadPolicy,
  modePolicy,
  parseStopConditions,
  randomSearch,
  savePolicy,
  sracos,
  tunableSpace,
  venvObjective,
  type RewardCallback,
  type Trainer,
  type Trial,
  type Dataset,
  type NodeFunctionCall,
  type RolloutPolicy,
  type VirtualEnvironment,
} from '@decisio/learning';
import type { Database } from '../../../db/database';
import type { JobKind } from '../../../jobs/queue';
import type { BlobStore } from '../../storage/blob-store';
import { parseJson, toDate } from '../common';
import { HostGuard } from '../../../net/host-guard';
import type { Logger } from '../../../logger';
import { applyScheme, describeReport, parseSchemeData } from './scheme';
import { datasetOf, environmentData, loadCorrelationTable, loadVenv, neededColumns, type Correlation, type VenvArtifact } from './data';
import { VenvEnsembleTrainer, ensembleSize, policyEnsembleOptions, POLICY_ENSEMBLE_KEYS } from './ensemble';
import { HeldDataset, initialDataset } from './initial-data';
import { fieldNamesOf, loggedTally, tallied } from './decision-tally';
import { autoSearch, ints, need, num, point, resumedCheckpoint, runAsJob, storeFiles, type RecordPayload, type TrainingConfig } from './job-run';
import { withCode, withReward, type CodeEnv } from './user-code';
import { artifactPrefix } from '../../storage/artefact-keys';

/** The environment trainings' defaults (`HYPERPARAMETER_DEFAULTS` of `@decisio/domain`: one set). */
const ENV = HYPERPARAMETER_DEFAULTS.environment;

/**
 * The first trajectory of the data rolled with `policy` for up to `horizon` steps (the decision
 * deduction's detail charts): per node the decided or simulated values and the data's, in
 * original units, and the reward of each step.
 */
async function decidedTrajectory(venv: VirtualEnvironment, ds: Dataset, policy: RolloutPolicy, reward: RewardCallback, horizon: number, nodeFunction: NodeFunctionCall | undefined) {
  const start = ds.starts[0] ?? 0;
  const h = Math.max(1, Math.min(horizon, (ds.ends[0] ?? start + 1) - start));
  const steps = await venv.rollout(ds, Int32Array.of(start), h, { policy, mode: 'mode', ...(nodeFunction ? { nodeFunction } : {}) });
  const nodes: Record<string, { decided: number[][]; real: number[][] }> = {};
  const rewards: number[] = [];
  for (const [k, step] of steps.entries()) {
    const decoded = decodeStep(ds, step);
    // A long deduction's steps after the data's trajectory ends have no real values.
    const inData = !(ds instanceof HeldDataset) || ds.isData(start + k);
    for (const [name, batch] of Object.entries(decoded)) {
      const entry = (nodes[name] ??= { decided: [], real: [] });
      entry.decided.push(Array.from(batch.data));
      entry.real.push(ds.raw[name] && inData ? Array.from(ds.gather(name, [start + k], 'raw')) : []);
    }
    rewards.push(...Array.from(await reward(decoded)));
  }
  return { trajectory: 0, horizon: h, nodes, rewards };
}

/** The modelling job kinds over a database and a blob store (server and workers build the same). */
export function modellingJobKinds({ db, blobs, hostGuard, logger }: { db: Database; blobs: BlobStore; /** Default: only public hosts. */ hostGuard?: HostGuard; logger?: Logger }): JobKind<RecordPayload>[] {
  const knex = () => db.knex;
  const codeEnv: CodeEnv = { guard: hostGuard ?? new HostGuard(), logger };

  const scheme: JobKind<RecordPayload> = {
    kind: MODELLING_JOB_KINDS.scheme,
    description: 'Scheme data processing: reads the primary table joined with its related tables, checks it against the decision graph, keeps the processed copy.',
    async run(ctx) {
      const row = await need(db, 'schemes', ctx.payload.id, 'scheme');
      try {
        const pattern = await knex()('modelling_patterns').where({ solution_id: row.solution_id }).first();
        const graphDoc = parseJson<unknown>(pattern?.graph, null);
        const correlation = parseJson<Correlation | null>(pattern?.correlation, null);
        if (!graphDoc || !correlation) throw new Error('The solution has no decision graph or table correlation');
        const graph = parseDecisionGraph(graphDoc);
        // The primary table left-joined with the tables its relations name (engine/join.ts).
        const { table: read } = await loadCorrelationTable(knex(), blobs, ctx.tenantId, correlation, (line, level) => ctx.log(line, level));
        await ctx.reportMetrics(0.3, {});
        // The scheme's range, derived fields, types, filter, partial order and period aggregation.
        const data = parseSchemeData(parseJson<unknown>(row.data, {}));
        const { table: shaped, report } = applyScheme(read, data, { period: row.period ?? null, start: toDate(row.start_time), end: toDate(row.end_time), ...correlation });
        for (const note of report.notes) await ctx.log(`scheme: ${note}`, 'warn');
        await ctx.log(`scheme: ${describeReport(report)}`);
        const dims = data.dimensions;
        const table = neededColumns(graph, shaped, correlation, [...dims.agent, ...dims.otherAgents, ...dims.environment]);
        await ctx.reportMetrics(0.6, {});
        const ds = datasetOf(graph, table, correlation);
        await ctx.log(`${ds.rows} rows, ${ds.trajectoryCount} trajectories`);
        const prefix = artifactPrefix(ctx.userId, 'schemes', row.id);
        const bytes = Buffer.from(JSON.stringify({ graph: graphDoc, correlation, report, columns: Object.fromEntries(Object.entries(table).map(([k, v]) => [k, Array.from(v as ArrayLike<unknown>)])) }));
        await storeFiles(db, blobs, ctx, prefix, { 'processed.json': bytes });
        await knex()('schemes').where({ id: row.id }).update({ process_state: 'completed', processed_key: `${prefix}/processed.json`, rows: ds.rows, updated_at: new Date() });
      } catch (err) {
        await knex()('schemes').where({ id: row.id }).update({ process_state: 'failed', updated_at: new Date() });
        throw err;
      }
    },
  };

  const simulator: JobKind<RecordPayload> = {
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
          const evalEvery = Math.max(1, Math.floor(num(h['evalEvery'], steps ? Math.min(10, Math.max(1, Math.floor(steps / 2))) : 10)));
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
          return sim.algorithm === 'revive_p' || sim.algorithm === 'revive_t'
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

  const policy: JobKind<RecordPayload> = {
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
            ...(h['hidden'] === undefined ? {} : { hidden: ints(h['hidden'], [...ENV.hidden]) }),
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
        // Which environment this policy was trained in (the config as it is now: `update` may have written it meanwhile).
        const current = parseJson<TrainingConfig>((await knex()('policies').where({ id: pol.id }).first('config'))?.config, config);
        const trainedIn = artifact.jobId === undefined ? {} : { config: JSON.stringify({ ...current, environmentJobId: artifact.jobId }) };
        await knex()('policies').where({ id: pol.id }).update({ artifact_key: prefix, reward: Number.isFinite(best) && best > -Number.MAX_VALUE ? best : null, ...trainedIn, updated_at: new Date() });
        await ctx.log(`policy return ${best.toFixed(4)} (warm start ${trainer.initialReward.toFixed(4)})`);
      });
    },
  };

  const parameter: JobKind<RecordPayload> = {
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

  /** Rollout windows of a deduction (initial states: trajectories of the initial dataset). */
  const WINDOWS = 64;
  const deduction = (kind: 'simulation' | 'decision'): JobKind<RecordPayload> => ({
    kind: MODELLING_JOB_KINDS[kind],
    description: kind === 'simulation' ? 'Simulation deduction: rolls the environment over the data and scores it.' : 'Decision deduction: runs a policy in the environment and scores it with the reward.',
    async run(ctx) {
      const rec = await need(db, 'deductions', ctx.payload.id, 'deduction');
      const sim = await need(db, 'simulators', rec.simulator_id, 'environment');
      const { venv, dataset: simData, graph, artifact } = await loadVenv(knex(), blobs, sim);
      // The chosen initial dataset (else the environment's data) gives the initial states.
      const dataset = rec.dataset_id ? await initialDataset(knex(), blobs, String(rec.tenant_id), artifact.schemeId, graph, simData, String(rec.dataset_id), (l, level) => ctx.log(l, level)) : simData;
      const steps = Math.max(1, Math.min(Math.floor(Number(rec.step_size)), MODELLING_LIMITS.deductionStepMax));
      let result: Record<string, unknown>;
      let score: number;
      if (kind === 'simulation') {
        // Scored against the data: as many steps as the data's shortest trajectory holds.
        await ctx.log(`simulation deduction over ${steps} steps (scored over the data's trajectories)`);
        const r = await withCode(ctx, db, codeEnv, { solutionId: rec.solution_id, graph, dataset }, ({ nodeFunction }) => evaluateVenv(venv, dataset, { horizon: steps, windows: WINDOWS, ...(nodeFunction ? { nodeFunction } : {}) }));
        if (r.horizon < steps) await ctx.log(`the data's shortest trajectory has ${r.horizon} steps: scored over ${r.horizon} of the ${steps} steps asked`, 'warn');
        result = { score: r.score, mae: r.mae, horizon: r.horizon, steps, nodes: r.nodes, datasetId: rec.dataset_id ?? null };
        score = r.score;
      } else {
        const pol = await need(db, 'policies', rec.policy_id, 'policy');
        if (!pol.artifact_key) throw new Error('The policy has not finished training');
        const obj = await need(db, 'objectives', rec.objective_id ?? pol.objective_id, 'reward');
        const { policy } = loadPolicy(new Uint8Array(await blobs.get(`${pol.artifact_key}/policy.weights`)));
        // Every step asked: trajectories of the initial data extended to `steps` (see `HeldDataset`).
        const held = new HeldDataset(dataset, steps, WINDOWS);
        await ctx.log(`decision deduction over ${steps} steps from ${held.trajectoryCount} initial states`);
        // Three rollouts of `steps` steps (policy, behaviour, detail trajectory), one reward call per step.
        const calls = 3 * steps;
        let done = 0;
        let reported = 0;
        const halt = new Error('halt');
        const started = Date.now();
        const stopped = await withReward(ctx, db, codeEnv, { solutionId: rec.solution_id, graph, dataset, objective: obj }, async (inner, nodeFunction) => {
          const reward: RewardCallback = async (batch) => {
            if (ctx.shouldStop()) throw halt;
            const out = await inner(batch);
            done += 1;
            if (done - reported >= Math.max(1, Math.floor(calls / 100))) {
              reported = done;
              await ctx.reportMetrics(Math.min(0.99, done / calls), {});
            }
            return out;
          };
          try {
            // Per-field means and scenario measures of each rollout and of the logged data (`decision-tally.ts`).
            const tallies = { policy: new DeductionTally(), behaviour: new DeductionTally() };
            const withPolicy = await evaluateInVenv(venv, held, modePolicy(policy), tallied(reward, tallies.policy), { horizon: steps, windows: WINDOWS, seed: 0, nodeFunction });
            const behaviour = await evaluateInVenv(venv, held, undefined, tallied(reward, tallies.behaviour), { horizon: steps, windows: WINDOWS, seed: 0, nodeFunction });
            const trajectory = await decidedTrajectory(venv, held, modePolicy(policy), reward, steps, nodeFunction);
            const logged = await loggedTally(held, async (batch) => {
              if (ctx.shouldStop()) throw halt;
              return inner(batch);
            }, (line) => ctx.log(line, 'warn'), halt);
            const tally = { policy: tallies.policy.summary(), behaviour: tallies.behaviour.summary(), logged, fieldNames: fieldNamesOf(graph) };
            result = { reward: withPolicy, behaviourReward: behaviour, horizon: steps, steps, datasetId: rec.dataset_id ?? null, trajectory, tally };
            score = withPolicy;
            return false;
          } catch (err) {
            if (err === halt) return true;
            throw err;
          }
        });
        if (stopped) {
          await ctx.log(`stopped after ${done} of ${calls} reward calls`);
          return;
        }
        await ctx.log(`rolled ${steps} steps in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      await point(ctx, 1, 0, { score: score! });
      await knex()('deductions').where({ id: rec.id }).update({ result: JSON.stringify(result!), score: Number.isFinite(score!) ? score! : null, updated_at: new Date() });
    },
  });

  return [scheme, simulator, policy, parameter, deduction('simulation'), deduction('decision')];
}
