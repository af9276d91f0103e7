/**
 * The model market (`market/*`, issue 20 item 5). Publishing copies what a trained environment
 * or policy needs to live on elsewhere into the market's own files and rows: the scheme's
 * processed data (`processed.json`, from which the environment is rebuilt), the environment's
 * artefact (`venv.json`), for a policy its artefact (`policy.weights`, `policy.json`,
 * `policy.onnx`) and its reward's files, plus the graph and a report of the scores. The copy is
 * charged to the publisher and given back when the version is unpublished. Importing copies a
 * version into a new solution of a project the caller may edit: a completed scheme, a successful
 * environment and (a policy) a reward and a successful policy, each with its own files charged
 * to the importer, so that deductions, trainings and deploy use it as if trained there.
 *
 * Visibility: a `tenant` model is seen by its publisher's tenant only, a `public` one by every
 * tenant; publishing to every tenant needs `market:public`. Only the publisher (or a system
 * administrator) adds versions or unpublishes.
 */
import {
  AppError,
  MARKET_PUBLIC_PERMISSION,
  type Locale,
  type MarketDownload,
  type MarketImportInput,
  type MarketImportResult,
  type MarketKind,
  type MarketListRequest,
  type MarketModel,
  type MarketModelDetail,
  type MarketPage,
  type MarketPublishInput,
  type MarketReport,
  type MarketVersion,
  type MarketVisibility,
  marketListSchema,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { stateOf } from '../../jobs/record-state';
import { grants } from '../access/service';
import { parseJson, type Row } from '../modelling/common';
import { recordInScope, assertProjectAccess } from '../projects/access';
import type { ModellingRecords } from '../modelling/records';
import { artefactFiles, copyName } from '../modelling/training-rules';
import type { SolutionsService } from '../solutions/service';
import { artifactPrefix } from '../storage/artefact-keys';
import type { BlobStore } from '../storage/blob-store';
import { chargeStorage, releaseStorage } from '../storage/quota';
import { toDate } from '../storage/service';

export interface MarketDeps {
  db: Database;
  blobs: BlobStore;
  clock: Clock;
  solutions: SolutionsService;
  records: ModellingRecords;
}

/** What a version keeps of the scheme, the environment, the policy and the reward. */
interface SchemeCopy {
  name: string;
  description: string | null;
  period: string;
  startTime: string | null;
  endTime: string | null;
  data: string | null;
  rows: number | null;
}
interface TrainingCopy {
  name: string;
  algorithm: string;
  config: string | null;
  score?: number | null;
  reward?: number | null;
  nodeScores?: string | null;
}
interface ObjectiveCopy {
  name: string;
  description: string | null;
  files: Record<string, string>;
}

/** States of a training that ended with its model kept (a manual stop keeps the best so far). */
const TRAINED = new Set(['successful', 'successful by manual stop']);

const iso = (v: unknown): string => toDate(v)?.toISOString() ?? '';
const num = (v: unknown): number | null => (v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v));

/** Blob folder of a version's files. */
export function versionPrefix(modelId: string, versionId: string): string {
  return `market/${modelId}/${versionId}`;
}

export class MarketService {
  constructor(private readonly deps: MarketDeps) {}

  private get knex(): Knex {
    return this.deps.db.executor();
  }

  /** Models the caller may see: public ones, and their own tenant's. */
  private visible(user: ServerCallUser): Knex.QueryBuilder {
    return this.knex('market_models as m')
      .whereNull('m.deleted_at')
      .where((q) => q.where('m.visibility', 'public').orWhere('m.tenant_id', user.tenantId));
  }

  private async model(user: ServerCallUser, modelId: string): Promise<Row> {
    const row = (await this.visible(user).where('m.id', modelId).first('m.*')) as Row | undefined;
    if (!row) throw new AppError('marketModelNotFound');
    return row;
  }

  /** A live version of a model the caller may see. */
  private async version(user: ServerCallUser, versionId: string): Promise<{ model: Row; version: Row }> {
    const version = (await this.knex('market_versions').where({ id: versionId }).whereNull('deleted_at').first()) as Row | undefined;
    if (!version) throw new AppError('marketVersionNotFound');
    const model = await this.model(user, version.model_id).catch(() => {
      throw new AppError('marketVersionNotFound');
    });
    return { model, version };
  }

  /** Only the publisher (or a system administrator) changes a model. */
  private assertPublisher(user: ServerCallUser, model: Row): void {
    if (model.user_id !== user.id && !(user.isSystemRole && model.tenant_id === user.tenantId)) throw new AppError('marketNoRight');
  }

  private assertVisibility(user: ServerCallUser, visibility: MarketVisibility): void {
    if (visibility === 'public' && !grants(user.permissions, MARKET_PUBLIC_PERMISSION)) throw new AppError('marketPublicNotAllowed');
  }

  /**
   * Publishes a successful environment or policy of a project the caller may edit, as a new
   * model or as the next version of one of theirs.
   * @throws AppError `simulatorNotFound` / `policyNotFound`, `projectNoRight`, `marketSourceNotTrained`,
   *   `marketSourceUnsupported` (an environment updated with more datasets), `marketPublicNotAllowed`,
   *   `marketModelNotFound`, `marketNoRight`, `marketKindMismatch`, `marketNameUsed`,
   *   `storageInsufficient`.
   */
  async publish(user: ServerCallUser, input: MarketPublishInput): Promise<MarketModelDetail> {
    const source = await this.source(user, input.kind, input.recordId);
    let existing: Row | null = null;
    if (input.modelId) {
      existing = await this.model(user, input.modelId);
      this.assertPublisher(user, existing);
      if (existing.kind !== input.kind) throw new AppError('marketKindMismatch');
    } else if (!input.name) {
      throw new AppError('paramInvalid', { name: 'validation.required' });
    }
    const visibility: MarketVisibility = input.visibility ?? (existing?.visibility as MarketVisibility | undefined) ?? 'tenant';
    this.assertVisibility(user, visibility);

    const modelId = existing?.id ?? newId();
    const versionId = newId();
    const prefix = versionPrefix(modelId, versionId);
    const owner = { tenantId: user.tenantId, userId: user.id };
    try {
      // The files first, outside the transaction: no write lock is held while they copy.
      const size = await this.copyFiles(source, prefix);
      return await this.deps.db.transaction(async () => {
        const now = this.deps.clock.now();
        let version = 1;
        if (existing) {
          const max = (await this.knex('market_versions').where({ model_id: modelId }).max<{ v: number | null }[]>({ v: 'version' }))[0]?.v;
          version = Number(max ?? 0) + 1;
          await this.knex('market_models')
            .where({ id: modelId })
            .update({ latest_version: version, visibility, updated_at: now, ...(input.description !== undefined ? { description: input.description || null } : {}) });
        } else {
          const clash = await this.knex('market_models').where({ user_id: user.id }).whereNull('deleted_at').whereRaw('lower(name) = ?', [input.name!.toLowerCase()]).first('id');
          if (clash) throw new AppError('marketNameUsed');
          await this.knex('market_models').insert({
            id: modelId,
            tenant_id: user.tenantId,
            user_id: user.id,
            kind: input.kind,
            name: input.name,
            description: input.description || null,
            visibility,
            latest_version: 1,
            imports: 0,
            created_at: now,
            updated_at: now,
          });
        }
        await chargeStorage(this.knex, owner, size);
        await this.knex('market_versions').insert({
          id: versionId,
          model_id: modelId,
          version,
          note: input.note || null,
          source_simulator_id: source.simulator.id,
          source_policy_id: source.policy?.id ?? null,
          graph: JSON.stringify(source.graph),
          report: JSON.stringify(source.report),
          scheme: JSON.stringify(source.scheme),
          simulator: JSON.stringify(source.simulatorCopy),
          policy: source.policyCopy ? JSON.stringify(source.policyCopy) : null,
          objective: source.objective ? JSON.stringify(source.objective) : null,
          blob_prefix: prefix,
          size,
          has_onnx: source.hasOnnx,
          created_at: now,
        });
        return this.get(user, modelId);
      });
    } catch (err) {
      await this.deps.blobs.removePrefix(prefix).catch(() => undefined);
      throw err;
    }
  }

  /** A record's state: its current job's (the single source), else its own column. */
  private async trainedState(row: Row): Promise<string> {
    const job = row.job_id ? ((await this.knex('jobs').where({ id: row.job_id }).first('state')) as { state: string } | undefined) : undefined;
    return stateOf({ ...row, job_state: job?.state });
  }

  /** What a publish reads of the source records (checked: trained, readable elsewhere). */
  private async source(user: ServerCallUser, kind: MarketKind, recordId: string) {
    let policy: Row | null = null;
    let simulator: Row;
    if (kind === 'policy') {
      policy = (await recordInScope(this.knex, user, 'policies', recordId, 'edit', 'policyNotFound')).row;
      if (!TRAINED.has(await this.trainedState(policy)) || !policy.artifact_key) throw new AppError('marketSourceNotTrained');
      simulator = (await this.knex('simulators').where({ id: policy.simulator_id, tenant_id: user.tenantId }).first()) as Row;
      if (!simulator) throw new AppError('marketSourceNotTrained');
    } else {
      simulator = (await recordInScope(this.knex, user, 'simulators', recordId, 'edit', 'simulatorNotFound')).row;
    }
    if (!TRAINED.has(await this.trainedState(simulator)) || !simulator.artifact_key) throw new AppError('marketSourceNotTrained');
    const venvKey = `${simulator.artifact_key}/venv.json`;
    if (!(await this.deps.blobs.stat(venvKey))) throw new AppError('marketSourceNotTrained');
    const venv = parseJson<Record<string, unknown>>((await this.deps.blobs.get(venvKey)).toString('utf8'), {});
    // The extra datasets of an environment update stay in their tenant: such an environment cannot travel.
    if (Array.isArray(venv.extraDatasetIds) && venv.extraDatasetIds.length > 0) throw new AppError('marketSourceUnsupported');
    const scheme = (await this.knex('schemes').where({ id: String(venv.schemeId ?? simulator.scheme_id), tenant_id: user.tenantId }).first()) as Row | undefined;
    if (!scheme?.processed_key || !(await this.deps.blobs.stat(scheme.processed_key))) throw new AppError('marketSourceUnsupported');
    const processed = parseJson<{ graph?: unknown }>((await this.deps.blobs.get(scheme.processed_key)).toString('utf8'), {});
    const pattern = (await this.knex('modelling_patterns').where({ solution_id: simulator.solution_id }).first('graph')) as Row | undefined;
    const graph = processed.graph ?? parseJson(pattern?.graph, null);
    const objectiveRow = policy ? ((await this.knex('objectives').where({ id: policy.objective_id, tenant_id: user.tenantId }).first()) as Row | undefined) : undefined;
    if (policy && !objectiveRow) throw new AppError('marketSourceNotTrained');
    const policyFiles = policy ? await artefactFiles(this.deps.blobs, policy.artifact_key) : [];
    const nodes = ((graph as { nodes?: { name: string; role?: string }[] } | null)?.nodes ?? []).map((n) => n);
    const config = (row: Row) => parseJson<{ hyperparameters?: Record<string, unknown>; stopConditions?: Record<string, unknown> }>(row.config, {});
    const trained = policy ?? simulator;
    const job = trained.job_id ? ((await this.knex('jobs').where({ id: trained.job_id }).first('ended_at')) as Row | undefined) : undefined;
    const report: MarketReport = {
      algorithm: String(trained.algorithm),
      score: num(simulator.score),
      reward: policy ? num(policy.reward) : null,
      hyperparameters: { ...(config(trained).hyperparameters ?? {}), ...(config(trained).stopConditions ? { stopConditions: config(trained).stopConditions } : {}) },
      memberScores: Array.isArray(venv.memberScores) ? (venv.memberScores as unknown[]).map(num) : [],
      rows: num(scheme.rows),
      nodes: nodes.map((n) => n.name),
      agent: nodes.find((n) => n.role === 'agent')?.name ?? null,
      rewardName: objectiveRow ? String(objectiveRow.name) : null,
      trainedAt: iso(job?.ended_at ?? trained.updated_at) || null,
      environment: policy ? { name: String(simulator.name), score: num(simulator.score) } : null,
    };
    const schemeCopy: SchemeCopy = {
      name: String(scheme.name),
      description: scheme.description ?? null,
      period: String(scheme.period),
      startTime: iso(scheme.start_time) || null,
      endTime: iso(scheme.end_time) || null,
      data: scheme.data ?? null,
      rows: num(scheme.rows),
    };
    const training = (row: Row, extra: Partial<TrainingCopy>): TrainingCopy => ({ name: String(row.name), algorithm: String(row.algorithm), config: row.config ?? null, ...extra });
    return {
      simulator,
      policy,
      graph,
      report,
      scheme: schemeCopy,
      schemeKey: String(scheme.processed_key),
      simulatorCopy: training(simulator, { score: num(simulator.score), nodeScores: simulator.node_scores ?? null }),
      policyCopy: policy ? training(policy, { reward: num(policy.reward) }) : null,
      objective: objectiveRow ? ({ name: String(objectiveRow.name), description: objectiveRow.description ?? null, files: parseJson<Record<string, string>>(objectiveRow.files, {}) } satisfies ObjectiveCopy) : null,
      hasOnnx: policyFiles.some((f) => f.name === 'policy.onnx'),
    };
  }

  /** Copies the source's files under `prefix` (streamed): `processed.json`, `venv/*`, `policy/*`; resolves with their bytes. */
  private async copyFiles(source: Awaited<ReturnType<MarketService['source']>>, prefix: string): Promise<number> {
    const copy = async (from: string, to: string) => (await this.deps.blobs.put(to, this.deps.blobs.openRead(from))).size;
    let size = await copy(source.schemeKey, `${prefix}/processed.json`);
    for (const f of await artefactFiles(this.deps.blobs, source.simulator.artifact_key)) size += await copy(`${source.simulator.artifact_key}/${f.name}`, `${prefix}/venv/${f.name}`);
    if (source.policy) for (const f of await artefactFiles(this.deps.blobs, source.policy.artifact_key)) size += await copy(`${source.policy.artifact_key}/${f.name}`, `${prefix}/policy/${f.name}`);
    return size;
  }

  /** `market/list`: newest first; keyword in the name or description. */
  async list(user: ServerCallUser, q: MarketListRequest): Promise<MarketPage> {
    const { keyword, kind, scope, page, pageSize } = marketListSchema.parse(q);
    const base = () => {
      const b = this.visible(user);
      if (kind) b.where('m.kind', kind);
      if (scope === 'mine') b.where('m.user_id', user.id);
      else if (scope === 'tenant') b.where('m.tenant_id', user.tenantId);
      else if (scope === 'public') b.where('m.visibility', 'public');
      if (keyword) {
        // `!` escapes the wildcards: SQLite has no default escape character, MariaDB reads `\\` in literals.
        const like = `%${keyword.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
        b.where((w) => w.whereRaw("lower(m.name) like ? escape '!'", [like]).orWhereRaw("lower(coalesce(m.description, '')) like ? escape '!'", [like]));
      }
      return b;
    };
    const total = Number(((await base().count<{ n: number }[]>({ n: '*' })) as { n: number }[])[0]?.n ?? 0);
    const rows = (await base()
      .select('m.*')
      .orderBy('m.updated_at', 'desc')
      .orderBy('m.id', 'asc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)) as Row[];
    // The page's latest versions and publishers in two reads.
    const ids = rows.map((r) => String(r.id));
    const latest = new Map<string, Row>();
    if (ids.length) {
      const versions = (await this.knex('market_versions').whereIn('model_id', ids).whereNull('deleted_at').orderBy('version', 'asc')) as Row[];
      for (const v of versions) latest.set(String(v.model_id), v);
    }
    const publishers = await this.publishers(rows.map((r) => String(r.user_id)));
    return { rows: rows.map((r) => this.presentRow(user, r, latest.get(String(r.id)), publishers.get(String(r.user_id)))), total, page, pageSize };
  }

  /** Display names of users by id (nickname, else username). */
  private async publishers(userIds: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(userIds)];
    const rows = unique.length ? ((await this.knex('users').whereIn('id', unique).select('id', 'username', 'nickname')) as Row[]) : [];
    return new Map(rows.map((u) => [String(u.id), String(u.nickname || u.username || '')]));
  }

  /** `market/get`: the model with its live versions (newest first) and the latest graph. */
  async get(user: ServerCallUser, modelId: string): Promise<MarketModelDetail> {
    const model = await this.model(user, modelId);
    const versions = (await this.knex('market_versions').where({ model_id: modelId }).whereNull('deleted_at').orderBy('version', 'desc')) as Row[];
    const publishers = await this.publishers([String(model.user_id)]);
    return { ...this.presentRow(user, model, versions[0], publishers.get(String(model.user_id))), versions: versions.map(presentVersion), graph: versions[0] ? parseJson(versions[0].graph, null) : null };
  }

  private presentRow(user: ServerCallUser, m: Row, v: Row | undefined, publisherName: string | undefined): MarketModel {
    const report = v ? parseJson<MarketReport>(v.report, null as never) : null;
    return {
      modelId: m.id,
      name: m.name,
      description: m.description ?? null,
      kind: m.kind,
      visibility: m.visibility,
      publisherName: publisherName ?? '',
      mine: m.user_id === user.id,
      ownTenant: m.tenant_id === user.tenantId,
      latestVersion: Number(m.latest_version),
      latestVersionId: v?.id ?? '',
      score: report?.score ?? null,
      reward: report?.reward ?? null,
      algorithm: report?.algorithm ?? '',
      imports: Number(m.imports ?? 0),
      createdAt: iso(m.created_at),
      updatedAt: iso(m.updated_at),
    };
  }

  /**
   * `market/unpublish`: one version (the model goes with its last one) or the whole model; their
   * files are removed and their bytes given back to the publisher. Copies already imported stay.
   */
  async unpublish(user: ServerCallUser, input: { modelId: string; versionId?: string }): Promise<{ modelId: string; removed: boolean }> {
    const model = await this.model(user, input.modelId);
    this.assertPublisher(user, model);
    const prefixes: string[] = [];
    const removed = await this.deps.db.transaction(async () => {
      const now = this.deps.clock.now();
      const q = this.knex('market_versions').where({ model_id: model.id }).whereNull('deleted_at');
      if (input.versionId) q.where({ id: input.versionId });
      const versions = (await q) as Row[];
      if (input.versionId && versions.length === 0) throw new AppError('marketVersionNotFound');
      for (const v of versions) {
        await this.knex('market_versions').where({ id: v.id }).update({ deleted_at: now });
        prefixes.push(v.blob_prefix);
      }
      const bytes = versions.reduce((s, v) => s + Number(v.size), 0);
      await releaseStorage(this.knex, { tenantId: model.tenant_id, userId: model.user_id }, bytes);
      const left = (await this.knex('market_versions').where({ model_id: model.id }).whereNull('deleted_at').max<{ v: number | null }[]>({ v: 'version' }))[0]?.v;
      if (!left) {
        await this.knex('market_models').where({ id: model.id }).update({ deleted_at: now, updated_at: now });
        return true;
      }
      await this.knex('market_models').where({ id: model.id }).update({ latest_version: Number(left), updated_at: now });
      return false;
    });
    for (const p of prefixes) await this.deps.blobs.removePrefix(p).catch(() => undefined);
    return { modelId: model.id, removed };
  }

  /**
   * `market/import`: a copy of a version in a new solution of a project the caller may edit.
   * Rows and quota charges in one transaction; the copied files are removed when it fails.
   * @throws AppError `marketVersionNotFound`, `projectNotFound`, `projectNoRight`, `storageInsufficient`.
   */
  async import(user: ServerCallUser, input: MarketImportInput, locale: Locale): Promise<MarketImportResult> {
    const { model, version } = await this.version(user, input.versionId);
    await assertProjectAccess(this.knex, user, input.projectId, 'edit');
    const src = version.blob_prefix as string;
    const scheme = parseJson<SchemeCopy>(version.scheme, null as never);
    const simulator = parseJson<TrainingCopy>(version.simulator, null as never);
    const policy = parseJson<TrainingCopy | null>(version.policy, null);
    const objective = parseJson<ObjectiveCopy | null>(version.objective, null);
    const schemeId = newId();
    const simulatorId = newId();
    const policyId = policy ? newId() : null;
    const prefixes = [artifactPrefix(user.id, 'schemes', schemeId), artifactPrefix(user.id, 'simulators', simulatorId), ...(policyId ? [artifactPrefix(user.id, 'policies', policyId)] : [])];
    try {
      // The files first, outside the transaction: no write lock is held while they copy.
      const processedKey = `${prefixes[0]}/processed.json`;
      let size = (await this.deps.blobs.put(processedKey, this.deps.blobs.openRead(`${src}/processed.json`))).size;
      // The environment: its files, with `venv.json` pointing at the copied scheme.
      for (const f of await artefactFiles(this.deps.blobs, `${src}/venv`)) {
        if (f.name === 'venv.json') {
          const venv = JSON.parse((await this.deps.blobs.get(`${src}/venv/${f.name}`)).toString('utf8')) as Record<string, unknown>;
          venv.schemeId = schemeId;
          delete venv.jobId;
          size += (await this.deps.blobs.put(`${prefixes[1]}/${f.name}`, Buffer.from(JSON.stringify(venv), 'utf8'))).size;
        } else size += (await this.deps.blobs.put(`${prefixes[1]}/${f.name}`, this.deps.blobs.openRead(`${src}/venv/${f.name}`))).size;
      }
      if (policyId) for (const f of await artefactFiles(this.deps.blobs, `${src}/policy`)) size += (await this.deps.blobs.put(`${prefixes[2]}/${f.name}`, this.deps.blobs.openRead(`${src}/policy/${f.name}`))).size;
      return await this.deps.db.transaction(async () => {
        const now = this.deps.clock.now();
        const solutionName = input.name ?? `${model.name} v${version.version}`.slice(0, 50);
        const solution = await this.createSolution(user, input.projectId, solutionName, String(model.name), String(model.description ?? ''));
        const solutionId = solution.solutionId;
        await this.deps.records.setPattern(user, { solutionId, graph: parseJson(version.graph, null) }, locale);
        const row = { tenant_id: user.tenantId, project_id: input.projectId, solution_id: solutionId, creator_id: user.id, created_at: now, updated_at: now };
        await this.knex('schemes').insert({
          id: schemeId,
          ...row,
          name: scheme.name,
          description: scheme.description,
          period: scheme.period,
          start_time: scheme.startTime ? new Date(scheme.startTime) : null,
          end_time: scheme.endTime ? new Date(scheme.endTime) : null,
          data: scheme.data,
          process_state: 'completed',
          process_job_id: null,
          processed_key: processedKey,
          rows: scheme.rows,
        });
        await this.knex('simulators').insert({
          id: simulatorId,
          ...row,
          name: await copyNameFree(this.knex, 'simulators', input.projectId, simulator.name),
          algorithm: simulator.algorithm,
          job_id: null,
          state: 'successful',
          config: simulator.config,
          scheme_id: schemeId,
          score: simulator.score ?? null,
          artifact_key: prefixes[1],
          // Per-node scores, where the source's database had them (the same column here).
          ...(simulator.nodeScores ? { node_scores: simulator.nodeScores } : {}),
        });
        let objectiveId: string | null = null;
        if (policy && policyId && objective) {
          const created = await this.deps.records.createObjective(user, { solutionId, name: objective.name, description: objective.description ?? undefined, files: objective.files }, locale);
          objectiveId = String(created.id);
          await this.knex('policies').insert({
            id: policyId,
            ...row,
            name: await copyNameFree(this.knex, 'policies', input.projectId, policy.name),
            algorithm: policy.algorithm,
            job_id: null,
            state: 'successful',
            config: policy.config,
            simulator_id: simulatorId,
            objective_id: objectiveId,
            reward: policy.reward ?? null,
            artifact_key: prefixes[2],
          });
        }
        await chargeStorage(this.knex, { tenantId: user.tenantId, userId: user.id }, size);
        await this.knex('market_models').where({ id: model.id }).increment('imports', 1);
        return { projectId: input.projectId, solutionId, schemeId, simulatorId, policyId, objectiveId };
      });
    } catch (err) {
      for (const p of prefixes) await this.deps.blobs.removePrefix(p).catch(() => undefined);
      throw err;
    }
  }

  /** A new solution; its name numbered (`name 2`, ...) while the project has one of that name. */
  private async createSolution(user: ServerCallUser, projectId: string, name: string, fallback: string, description: string) {
    for (let n = 1; n <= 50; n++) {
      const suffix = n === 1 ? '' : ` ${n}`;
      try {
        return await this.deps.solutions.create(user, {
          projectId,
          name: (name || fallback).slice(0, 50 - suffix.length).trimEnd() + suffix,
          dataType: 'data_driven',
          goalType: 'policy_search',
          description: description.slice(0, 200) || null,
        });
      } catch (err) {
        if (!(err instanceof AppError && err.codeName === 'solutionNameUsed') || n === 50) throw err;
      }
    }
    throw new AppError('solutionNameUsed');
  }

  /** `market/getOnnxDownloadUrl`: where the version's `policy.onnx` downloads. */
  async onnx(user: ServerCallUser, versionId: string): Promise<MarketDownload & { blobKey: string }> {
    const { model, version } = await this.version(user, versionId);
    const blobKey = `${version.blob_prefix}/policy/policy.onnx`;
    const stat = version.has_onnx ? await this.deps.blobs.stat(blobKey) : null;
    if (!stat) throw new AppError('marketOnnxMissing');
    const safe = String(model.name).replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 40) || 'policy';
    return { url: `/api/market/download/${version.id}`, name: `${safe}-v${version.version}.onnx`, size: stat.size, blobKey };
  }
}

/** The name if the project has no record of that name, else its `_copy` name. */
async function copyNameFree(knex: Knex, table: string, projectId: string, name: string): Promise<string> {
  const used = await knex(table).where({ project_id: projectId, name }).first('id');
  return used ? copyName(knex, table, projectId, name, 50) : name;
}

function presentVersion(v: Row): MarketVersion {
  return {
    versionId: v.id,
    version: Number(v.version),
    note: v.note ?? null,
    report: parseJson<MarketReport>(v.report, null as never),
    size: Number(v.size),
    hasOnnx: Boolean(v.has_onnx),
    createdAt: iso(v.created_at),
  };
}
