import {
  AppError,
  compareDecisions,
  decisionTallyOf,
  type AnalysisReport,
  type AnalysisReportView,
  type Page,
  type ReportDecisionFigures,
  type ReportStatus,
  type ReportType,
  type analysisReportCreateSchema,
  type analysisReportListSchema,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { newId } from '../../db/ids';
import type { Logger } from '../../logger';
import { assertProjectAccess, assertSolutionAccess, type ProjectRight } from '../projects/access';

type Row = Record<string, any>;

/** Stored in `analysis_reports.result` once the analysis finished. */
interface StoredResult {
  a: ReportDecisionFigures;
  b: ReportDecisionFigures;
}

const iso = (v: unknown): string => (v instanceof Date ? v : typeof v === 'number' || /^\d+$/.test(String(v)) ? new Date(Number(v)) : new Date(String(v))).toISOString();
const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** `12.50` -> `12.5`, `007` -> `7`: the canonical decimal text of a validated real total. */
export function normaliseAmount(v: string): string {
  const [int, frac = ''] = v.split('.');
  const i = int!.replace(/^0+(?=\d)/, '');
  const f = frac.replace(/0+$/, '');
  return f ? `${i}.${f}` : i;
}

/** The measured figures of one finished decision deduction (its stored `result` and `score`). */
export function figuresOf(row: Row): ReportDecisionFigures {
  const result = typeof row.result === 'string' ? (JSON.parse(row.result) as Record<string, unknown>) : ((row.result ?? {}) as Record<string, unknown>);
  const totalReward = finite(result.reward);
  const horizon = finite(result.horizon);
  if (totalReward === null || horizon === null || horizon <= 0) throw new Error(`decision ${row.id} has no measured reward`);
  const behaviourReward = finite(result.behaviourReward);
  return {
    id: row.id,
    name: row.name,
    policyId: row.policy_id ?? null,
    horizon,
    totalReward,
    meanRewardPerStep: totalReward / horizon,
    behaviourReward,
    upliftOverBehaviour: behaviourReward === null ? null : totalReward - behaviourReward,
    score: finite(row.score === null || row.score === undefined ? null : Number(row.score)),
    datasetId: typeof result.datasetId === 'string' ? result.datasetId : null,
    tally: decisionTallyOf(result),
  };
}

/** Analysis reports: create (analysed in the background), list, detail, view, rename, delete. */
export class ReportsService {
  private readonly tasks = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Resolves when every analysis started so far has ended. */
  async settle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  private get knex() {
    return this.db.executor();
  }

  /** A decision deduction of the solution with its job's live state. */
  private decisionRow(tenantId: string, solutionId: string, id: string): Promise<Row | undefined> {
    return this.knex('deductions as d')
      .leftJoin('jobs as j', 'j.id', 'd.job_id')
      .where({ 'd.id': id, 'd.tenant_id': tenantId, 'd.solution_id': solutionId, 'd.kind': 'decision' })
      .first('d.*', 'j.state as job_state');
  }

  private async checkDecision(tenantId: string, solutionId: string, id: string, field: string): Promise<Row> {
    const row = await this.decisionRow(tenantId, solutionId, id);
    if (!row) throw new AppError('deductionNotFound', { [field]: 'validation.invalid' });
    const state = row.job_state ?? row.state;
    if (state !== 'successful' || !row.result) throw new AppError('reportDecisionUnfinished', { [field]: 'validation.invalid' });
    return row;
  }

  async create(user: ServerCallUser, input: z.output<typeof analysisReportCreateSchema>): Promise<AnalysisReport> {
    const { project, solution } = await assertSolutionAccess(this.knex, user, input.solutionId, 'edit');
    if (input.decisionAId === input.decisionBId) throw new AppError('reportDecisionsSame', { decisionBId: 'validation.invalid' });
    await this.checkDecision(user.tenantId, solution.id, input.decisionAId, 'decisionAId');
    await this.checkDecision(user.tenantId, solution.id, input.decisionBId, 'decisionBId');
    const now = this.clock.now();
    const id = newId();
    try {
      await this.knex('analysis_reports').insert({
        id,
        tenant_id: user.tenantId,
        project_id: project.id,
        solution_id: solution.id,
        name: input.name,
        name_key: input.name.toLowerCase(),
        type: input.type,
        status: 'created',
        remark: input.remark,
        decision_a_id: input.decisionAId,
        decision_b_id: input.decisionBId,
        real_revenue: normaliseAmount(input.realRevenue),
        real_orders: normaliseAmount(input.realOrders),
        real_cost: normaliseAmount(input.realCost),
        creator_id: user.id,
        created_at: now,
        updated_at: now,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('reportNameUsed', { name: 'validation.invalid' });
      throw err;
    }
    const report = await this.present((await this.knex('analysis_reports').where({ id }).first())!);
    this.background(() => this.analyse(id));
    return report;
  }

  private background(fn: () => Promise<void>): void {
    const p = fn().catch((err: unknown) => this.logger.error('report analysis failed', { err }));
    this.tasks.add(p);
    void p.finally(() => this.tasks.delete(p));
  }

  /** created -> analysing -> finished (figures stored) or failed (reason stored). */
  private async analyse(id: string): Promise<void> {
    const knex = this.db.knex;
    const moved = await knex('analysis_reports').where({ id, status: 'created' }).update({ status: 'analysing', updated_at: this.clock.now() });
    if (!moved) return;
    const report = await knex('analysis_reports').where({ id }).first();
    if (!report) return;
    try {
      const load = async (decisionId: string) => {
        const row = await this.decisionRow(report.tenant_id, report.solution_id, decisionId);
        if (!row) throw new Error('The decision deduction no longer exists');
        if ((row.job_state ?? row.state) !== 'successful' || !row.result) throw new Error('The decision deduction has not finished successfully');
        return figuresOf(row);
      };
      const result: StoredResult = { a: await load(report.decision_a_id), b: await load(report.decision_b_id) };
      const now = this.clock.now();
      await knex('analysis_reports').where({ id }).update({ status: 'finished', result: JSON.stringify(result), error: null, analysed_at: now, updated_at: now });
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      await knex('analysis_reports').where({ id }).update({ status: 'failed', error: reason, updated_at: this.clock.now() });
    }
  }

  /** The report row after checking the caller's right on its project; `reportNotFound` otherwise. */
  async access(user: ServerCallUser, id: string, need: ProjectRight): Promise<Row> {
    const row = await this.knex('analysis_reports').where({ id, tenant_id: user.tenantId }).first();
    if (!row) throw new AppError('reportNotFound');
    const solution = await this.knex('solutions').where({ id: row.solution_id }).whereNull('deleted_at').first('id');
    if (!solution) throw new AppError('reportNotFound');
    await assertProjectAccess(this.knex, user, row.project_id, need);
    return row;
  }

  async list(user: ServerCallUser, input: z.output<typeof analysisReportListSchema>): Promise<Page<AnalysisReport>> {
    await assertProjectAccess(this.knex, user, input.projectId, 'view');
    const q = this.knex('analysis_reports as r')
      .join('solutions as s', 's.id', 'r.solution_id')
      .whereNull('s.deleted_at')
      .where({ 'r.tenant_id': user.tenantId, 'r.project_id': input.projectId });
    if (input.solutionId) q.where('r.solution_id', input.solutionId);
    if (input.status) q.where('r.status', input.status);
    if (input.keyword) q.where('r.name_key', 'like', `%${input.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const [{ total }] = (await q.clone().count({ total: '*' })) as [{ total: number | string }];
    const rows = await q
      .select('r.*')
      .orderBy([{ column: 'r.created_at', order: 'desc' }, { column: 'r.id', order: 'desc' }])
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize);
    return { rows: await Promise.all(rows.map((r: Row) => this.present(r))), total: Number(total), page: input.page, pageSize: input.pageSize };
  }

  async rename(user: ServerCallUser, id: string, name: string): Promise<AnalysisReport> {
    const row = await this.access(user, id, 'edit');
    try {
      await this.knex('analysis_reports').where({ id: row.id }).update({ name, name_key: name.toLowerCase(), updated_at: this.clock.now() });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('reportNameUsed', { name: 'validation.invalid' });
      throw err;
    }
    return this.present((await this.knex('analysis_reports').where({ id: row.id }).first())!);
  }

  async remove(user: ServerCallUser, id: string): Promise<void> {
    const row = await this.access(user, id, 'edit');
    await this.knex('analysis_reports').where({ id: row.id }).delete();
  }

  async view(row: Row): Promise<AnalysisReportView> {
    const report = await this.present(row);
    const stored: StoredResult | null = row.status === 'finished' && row.result ? (typeof row.result === 'string' ? JSON.parse(row.result) : row.result) : null;
    const diff = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);
    return {
      report,
      terms: report.type,
      real: { revenue: report.realRevenue, orders: report.realOrders, cost: report.realCost },
      decisions: stored,
      difference: stored
        ? {
            totalReward: stored.b.totalReward - stored.a.totalReward,
            meanRewardPerStep: stored.b.meanRewardPerStep - stored.a.meanRewardPerStep,
            behaviourReward: diff(stored.a.behaviourReward, stored.b.behaviourReward),
            upliftOverBehaviour: diff(stored.a.upliftOverBehaviour, stored.b.upliftOverBehaviour),
          }
        : null,
      comparison:
        stored?.a.tally && stored.b.tally
          ? compareDecisions(report.type, { revenue: report.realRevenue, orders: report.realOrders, cost: report.realCost }, stored.a.tally, stored.b.tally, (stored.a.datasetId ?? null) === (stored.b.datasetId ?? null))
          : null,
      analysedAt: row.analysed_at ? iso(row.analysed_at) : null,
    };
  }

  async present(row: Row): Promise<AnalysisReport> {
    const names: Row[] = await this.knex('deductions').whereIn('id', [row.decision_a_id, row.decision_b_id]).select('id', 'name');
    const nameOf = (id: string) => names.find((n) => n.id === id)?.name ?? null;
    return {
      id: row.id,
      projectId: row.project_id,
      solutionId: row.solution_id,
      name: row.name,
      type: row.type as ReportType,
      status: row.status as ReportStatus,
      remark: row.remark ?? '',
      decisionAId: row.decision_a_id,
      decisionBId: row.decision_b_id,
      decisionAName: nameOf(row.decision_a_id),
      decisionBName: nameOf(row.decision_b_id),
      realRevenue: row.real_revenue,
      realOrders: row.real_orders,
      realCost: row.real_cost,
      error: row.error ?? null,
      creatorId: row.creator_id ?? null,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
  }
}
