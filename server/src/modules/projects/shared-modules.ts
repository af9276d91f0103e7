import type { Knex } from 'knex';
import { AppError, type ShareModule, type SharedDataAccess, type SharedGraph, type SharedModuleItem, type SharedModuleView } from '@decisio/domain';
import { stateOf, withJobState } from '../../jobs/record-state';
import { toDate } from '../storage/service';

/**
 * The read-only content of one shared module (`project/getSharedModule`), after the share
 * link's own check (`ProjectsService.shared`): per live solution of the project, the records the
 * module holds with their names, states and measured figures. Nothing a viewer could act with
 * (tokens, code, data rows, configurations) leaves the server.
 */

type Row = Record<string, unknown>;

const iso = (v: unknown): string => {
  const d = toDate(v);
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : '';
};
const num = (v: unknown): number | null => (v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v));

/** Each module's records: table, filter, and how a row becomes an item. */
const SOURCES: Partial<Record<ShareModule, { table: string; where?: Row; item: (r: Row) => Omit<SharedModuleItem, 'id' | 'name' | 'createdAt'> }>> = {
  simulator: { table: 'simulators', item: (r) => ({ state: stateOf(r), algorithm: String(r.algorithm), score: num(r.score) }) },
  policy: { table: 'policies', item: (r) => ({ state: stateOf(r), algorithm: String(r.algorithm), score: num(r.reward) }) },
  parameter: { table: 'parameter_searches', item: (r) => ({ state: stateOf(r), algorithm: String(r.algorithm), score: num(r.reward) }) },
  simulation: { table: 'deductions', where: { kind: 'simulation' }, item: (r) => ({ state: stateOf(r), algorithm: null, score: num(r.score) }) },
  decision: { table: 'deductions', where: { kind: 'decision' }, item: (r) => ({ state: stateOf(r), algorithm: null, score: num(r.score) }) },
  report: { table: 'analysis_reports', item: (r) => ({ state: String(r.status), algorithm: r.type == null ? null : String(r.type), score: null }) },
  deploy: { table: 'model_services', item: (r) => ({ state: String(r.status), algorithm: null, score: null }) },
};

function graphOf(text: unknown): SharedGraph | null {
  if (typeof text !== 'string' || !text) return null;
  try {
    const g = JSON.parse(text) as { nodes?: { name?: unknown; role?: unknown }[]; edges?: unknown[] };
    return { nodes: (g.nodes ?? []).map((n) => ({ name: String(n.name ?? ''), role: String(n.role ?? '') })), edges: (g.edges ?? []).length };
  } catch {
    return null;
  }
}

async function dataAccessOf(knex: Knex, tenantId: string, text: unknown): Promise<SharedDataAccess | null> {
  if (typeof text !== 'string' || !text) return null;
  let c: { primaryTableId?: string; trajectoryField?: string; sequenceField?: string; datetimeField?: string; relations?: { from?: string; to?: string }[] };
  try {
    c = JSON.parse(text);
  } catch {
    return null;
  }
  const ids = [c.primaryTableId, ...(c.relations ?? []).flatMap((r) => [r.from, r.to])].filter((id, i, all): id is string => typeof id === 'string' && !!id && all.indexOf(id) === i);
  const datasets = (await knex('datasets').where({ tenant_id: tenantId }).whereIn('id', ids).select('id', 'name', 'columns', 'amount')) as Row[];
  const files = (await knex('storage_files').where({ tenant_id: tenantId }).whereIn('id', ids).select('id', 'name')) as Row[];
  const tables = ids.map((id) => {
    const d = datasets.find((x) => x.id === id);
    if (d) return { name: String(d.name), columns: (JSON.parse(String(d.columns)) as unknown[]).length, rows: num(d.amount) };
    const f = files.find((x) => x.id === id);
    return { name: f ? String(f.name) : '?', columns: 0, rows: null };
  });
  return { tables, trajectoryField: c.trajectoryField ?? '', sequenceField: c.sequenceField ?? '', datetimeField: c.datetimeField ?? null, relations: (c.relations ?? []).length };
}

export async function sharedModule(knex: Knex, tenantId: string, projectId: string, module: ShareModule, allowed: readonly ShareModule[]): Promise<SharedModuleView> {
  if (!allowed.includes(module)) throw new AppError('userNotPermission', { module: 'not shared' });
  const solutions = (await knex('solutions').where({ project_id: projectId, tenant_id: tenantId }).whereNull('deleted_at').orderBy('created_at').select('id', 'name')) as Row[];
  const out: SharedModuleView = { module, solutions: [] };
  const source = SOURCES[module];
  for (const s of solutions) {
    const entry: SharedModuleView['solutions'][number] = { solutionId: String(s.id), name: String(s.name), items: [] };
    if (source) {
      // A training's state is its job's (`withJobState`); reports and services have their own.
      const trained = source.table !== 'model_services' && source.table !== 'analysis_reports';
      const q = trained ? withJobState(knex, source.table) : knex(`${source.table} as t`);
      q.where(Object.fromEntries(Object.entries({ solution_id: s.id, tenant_id: tenantId, ...(source.where ?? {}) }).map(([k, v]) => [`t.${k}`, v])));
      if (source.table === 'model_services') q.whereNull('t.deleted_at');
      const rows = (await q.orderBy('t.created_at', 'desc')) as Row[];
      entry.items = rows.map((r) => ({ id: String(r.id), name: String(r.name), createdAt: iso(r.created_at), ...source.item(r) }));
    } else {
      const pattern = (await knex('modelling_patterns').where({ solution_id: s.id }).first('graph', 'correlation')) as Row | undefined;
      if (module === 'workbench') entry.graph = graphOf(pattern?.graph);
      else entry.dataAccess = await dataAccessOf(knex, tenantId, pattern?.correlation);
    }
    out.solutions.push(entry);
  }
  return out;
}
