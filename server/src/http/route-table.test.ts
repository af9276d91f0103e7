/**
 * Tests generated from the server's route table (nothing here names a route one by one):
 * 1. every route is listed in `ROUTE_PERMISSIONS`, so the central permission check covers it;
 * 2. tenant isolation: for every call that takes an id (a path `:param` or an `...Id` / `id`
 *    field of its validated input), a user of another tenant, holding every permission short of
 *    the system role, sends the id of a row of tenant A and must get not-found (HTTP 404). A new
 *    route is covered by adding it to the server; it fails here if it answers anything else.
 *
 * Tenant A's rows are synthesised for every table that has a `tenant_id` column, from the
 * database's own column list, with their `<x>_id` columns pointing at tenant A's other rows; the
 * rest of each request body is sampled from the route's zod schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { PERMISSIONS, ROUTE_PERMISSIONS, routeSegment } from '@decisio/domain';
import { newId } from '../db/ids';
import { createTenant, createUser, issueToken } from '../test/factories';
import { databases, startTestServer, type TestServer } from '../test/server';
import { validationSteps } from './validate';

interface Layer {
  path: string | RegExp;
  methods: string[];
  paramNames: { name: string }[];
  stack: unknown[];
}

/** Every route of the running server (all routers Koa mounts). */
function routesOf(server: TestServer): Layer[] {
  const routers = (server.app.app.middleware as unknown as { router?: { stack: Layer[] } }[]).filter((m) => m.router).map((m) => m.router!);
  return routers.flatMap((r) => r.stack).filter((l) => l.methods.length > 0);
}

/** Table of an id field, by the field's name (`projectId` -> `projects`). */
const FIELD_TABLES: Record<string, string> = {
  projectId: 'projects',
  solutionId: 'solutions',
  schemeId: 'schemes',
  simulatorId: 'simulators',
  policyId: 'policies',
  objectiveId: 'objectives',
  tableId: 'datasets',
  datasetId: 'datasets',
  datasetIds: 'datasets',
  fileId: 'storage_files',
  uploadId: 'uploads',
  jobId: 'jobs',
  jobIds: 'jobs',
  userId: 'users',
  roleId: 'roles',
  roleIds: 'roles',
  orgId: 'organisations',
  connectionId: 'data_connections',
  dataSourceId: 'data_connections',
  batchId: 'model_service_batches',
  recordIds: 'model_service_records',
  decisionAId: 'deductions',
  decisionBId: 'deductions',
  pidDataId: 'pid_data',
  recognitionId: 'template_recognitions',
  modelId: 'market_models',
};

/** Table of a plain `id` (body field or `:id`), by the call's segment. */
const SEGMENT_TABLES: Record<string, string> = {
  project: 'projects',
  solution: 'solutions',
  scheme: 'schemes',
  simulator: 'simulators',
  simulation: 'deductions',
  decision: 'deductions',
  policy: 'policies',
  objective: 'objectives',
  trainParameter: 'parameter_searches',
  trainPolicy: 'policies',
  trainSimulator: 'simulators',
  train: 'policies',
  modeldeploy: 'model_services',
  hyperparameter: 'hyperparameter_sets',
  report: 'analysis_reports',
  businessDecision: 'business_decisions',
  jobJdbcDatasource: 'data_connections',
  metadata: 'data_connections',
  table: 'datasets',
  workOrder: 'work_orders',
  message: 'messages',
  roles: 'roles',
  orgs: 'organisations',
  users: 'users',
  jobs: 'scheduled_jobs',
  pidData: 'pid_data',
  userCenter: 'service_managements',
  sdkLicense: 'sdk_licences',
};

/**
 * Ids that name no tenant's row: the shared catalogue (menus, SDK versions, templates), a page
 * cursor, a captcha, the tenant filter of system admins (answered `authorizationFailed`), the
 * parent of a new row, the worker machines every tenant shares.
 */
const NOT_TENANT_DATA = new Set(['menuIds', 'parentId', 'tenantId', 'afterId', 'captchaId', 'workerId', 'templateId', 'exceptUserId']);
const SHARED_SEGMENTS = new Set(['menus', 'sdkVersion', 'tenant']);

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

/** Values of fields a sampler cannot guess (a confirmation, an SQL text, a JDBC URL, amounts). */
const FIELD_VALUES: Record<string, unknown> = {
  sql: 'select 1',
  url: 'jdbc:mysql://db.example.com:3306/db',
  realRevenue: '1',
  realOrders: '1',
  realCost: '1',
};
/** The same, set even where the field is optional (a delete's acknowledgement; an import's table). */
const OPTIONAL_VALUES: Record<string, unknown> = { acknowledged: true, table: 'x' };

const STRING_CANDIDATES = ['abc_12345', 'Abcdef12', 'abc-123', 'test name', 'a@example.com', '13800000000', '0 0 * * *', 'x', '/x', 'a.b', 'AB', '2026-01-01', '2026-01-01T00:00:00.000Z', newId()];

/** A value that passes `schema` where a sampler can tell (best effort; ids come from `idFor`). */
function sample(schema: unknown, key: string, idFor: (key: string) => string | undefined, depth = 0): unknown {
  const def = defOf(schema);
  if (depth > 6) return undefined;
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) {
        const id = idFor(k);
        const inner = defOf(v);
        if (k in OPTIONAL_VALUES) {
          out[k] = OPTIONAL_VALUES[k];
          continue;
        }
        if (id !== undefined) {
          out[k] = inner.type === 'array' || (inner.type === 'optional' && defOf(inner.innerType).type === 'array') ? [id] : id;
          continue;
        }
        if (inner.type === 'optional' || inner.type === 'default') continue;
        out[k] = k in FIELD_VALUES ? FIELD_VALUES[k] : sample(v, k, idFor, depth + 1);
      }
      return out;
    }
    case 'pipe':
      return sample(def.in, key, idFor, depth + 1);
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return sample(def.innerType, key, idFor, depth + 1);
    case 'nullable':
      return null;
    case 'union':
      return sample((def.options as unknown[])[0], key, idFor, depth + 1);
    case 'intersection':
      return { ...(sample(def.left, key, idFor, depth + 1) as object), ...(sample(def.right, key, idFor, depth + 1) as object) };
    case 'lazy':
      return sample((def.getter as () => unknown)(), key, idFor, depth + 1);
    case 'string': {
      const checks = ((def.checks as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? []).map((c) => c._zod.def);
      const min = Number(checks.find((c) => c.check === 'min_length')?.minimum ?? 0);
      const max = Number(checks.find((c) => c.check === 'max_length')?.maximum ?? Infinity);
      const pattern = checks.find((c) => c.format === 'regex')?.pattern as RegExp | undefined;
      const format = def.format ?? checks.find((c) => c.check === 'string_format')?.format;
      if (format === 'email') return 'someone@example.com';
      const fits = (s: string) => s.length >= min && s.length <= max && (!pattern || pattern.test(s));
      return STRING_CANDIDATES.find(fits) ?? 'x'.repeat(Math.max(min, 1));
    }
    case 'number':
    case 'int': {
      const checks = ((def.checks as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? []).map((c) => c._zod.def);
      const min = checks.find((c) => c.check === 'greater_than');
      return min ? Number(min.value) + (min.inclusive ? 0 : 1) : 1;
    }
    case 'boolean':
      return false;
    case 'literal':
      return (def.values as unknown[])[0];
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'array': {
      const checks = ((def.checks as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? []).map((c) => c._zod.def);
      const min = Number(checks.find((c) => c.check === 'min_length')?.minimum ?? 0);
      return Array.from({ length: min }, () => sample(def.element, key, idFor, depth + 1));
    }
    case 'record':
    case 'unknown':
    case 'any':
      return {};
    default:
      return undefined;
  }
}

/** A value of a column type for a synthesised row. */
function columnValue(type: string, name: string): unknown {
  const t = type.toLowerCase();
  if (t.includes('json')) return '{}';
  if (t.includes('date') || t.includes('time')) return new Date();
  if (t.includes('int') || t.includes('double') || t.includes('float') || t.includes('decimal') || t.includes('real') || t.includes('numeric')) return 0;
  if (t.includes('bool')) return false;
  if (name.endsWith('_hash')) return newId() + newId();
  return `v${newId().slice(0, 8)}`;
}

/** One row of tenant A in every table with `tenant_id`; returns table -> id. */
async function tenantWorld(knex: Knex, tenantId: string, ownerId: string): Promise<Map<string, string>> {
  const tables = (await knex.raw(knex.client.config.client === 'mysql2' ? 'show tables' : "select name from sqlite_master where type = 'table'")) as unknown;
  const names = (Array.isArray((tables as unknown[])[0]) ? ((tables as unknown[][])[0] as Record<string, string>[]) : (tables as Record<string, string>[])).map((r) => Object.values(r)[0]!);
  const ids = new Map<string, string>();
  const columns = new Map<string, Record<string, { type: string; nullable: boolean; defaultValue: unknown }>>();
  for (const name of names) {
    const info = (await knex(name).columnInfo()) as unknown as Record<string, { type: string; nullable: boolean; defaultValue: unknown }>;
    if ('tenant_id' in info && 'id' in info && name !== 'tenants') {
      columns.set(name, info);
      ids.set(name, newId());
    }
  }
  ids.set('users', ownerId);
  const refOf = (column: string): string | undefined => {
    const base = column.replace(/_id$/, '');
    const table = FIELD_TABLES[base.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) + 'Id'] ?? [`${base}s`, `${base}es`, base.replace(/y$/, 'ies')].find((t) => ids.has(t));
    return table ? ids.get(table) : undefined;
  };
  // Insert in passes: a row whose reference is not there yet waits for the next pass.
  let pending = [...columns.keys()].filter((t) => t !== 'users');
  for (let pass = 0; pass < 4 && pending.length > 0; pass++) {
    const next: string[] = [];
    for (const table of pending) {
      const row: Record<string, unknown> = {};
      for (const [col, c] of Object.entries(columns.get(table)!)) {
        if (col === 'id') row.id = ids.get(table);
        else if (col === 'tenant_id') row.tenant_id = tenantId;
        else if (/(^|_)(user|owner|creator|created_by)(_id)?$/.test(col)) row[col] = ownerId;
        else if (col.endsWith('_id')) row[col] = refOf(col) ?? (c.nullable ? null : newId());
        else if (c.nullable || c.defaultValue !== null) continue;
        else row[col] = columnValue(c.type, col);
      }
      try {
        await knex(table).insert(row);
      } catch {
        next.push(table);
      }
    }
    pending = next;
  }
  for (const t of pending) ids.delete(t);
  return ids;
}

describe.each(databases)('the route table on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists every route of the server in ROUTE_PERMISSIONS', () => {
    const missing = routesOf(server)
      .map((l) => String(l.path))
      .filter((p) => !Object.prototype.hasOwnProperty.call(ROUTE_PERMISSIONS, routeSegment(p)));
    expect([...new Set(missing)]).toEqual([]);
  });

  it('answers not-found to a user of another tenant for every call that takes an id', async () => {
    const knex = server.app.db.knex;
    const tenantA = await createTenant(server);
    const owner = await createUser(server, { tenantId: tenantA });
    const world = await tenantWorld(knex, tenantA, owner.id);
    world.set('users', owner.id);

    // Tenant B: a role of its own with every permission but the system role's wildcard.
    const tenantB = await createTenant(server);
    const roleId = newId();
    const now = new Date();
    await knex('roles').insert({ id: roleId, tenant_id: tenantB, code: 'everything', name: 'Everything', is_system: false, permissions: JSON.stringify(PERMISSIONS), sort: 0, created_at: now, updated_at: now });
    const stranger = await createUser(server, { tenantId: tenantB, roles: [] });
    await knex('user_roles').insert({ user_id: stranger.id, role_id: roleId });
    const token = await issueToken(server, stranger);

    const checked: string[] = [];
    const failures: string[] = [];
    for (const layer of routesOf(server)) {
      const path = String(layer.path);
      const segment = routeSegment(path);
      if (SHARED_SEGMENTS.has(segment) || ROUTE_PERMISSIONS[segment] === null && segment === 'index') continue;
      const idFor = (key: string): string | undefined => {
        if (NOT_TENANT_DATA.has(key)) return undefined;
        const table = key === 'id' ? SEGMENT_TABLES[segment] : FIELD_TABLES[key];
        return table ? world.get(table) : undefined;
      };
      const steps = layer.stack.map((m) => validationSteps.get(m as never)).filter((s) => s !== undefined);
      const params = layer.paramNames.map((p) => p.name);
      const idKeys = new Set<string>(params.filter((p) => idFor(p) !== undefined));
      for (const step of steps) {
        const shape = (defOf(step.schema).type === 'pipe' ? defOf(defOf(step.schema).in) : defOf(step.schema)).shape as Record<string, unknown> | undefined;
        for (const k of Object.keys(shape ?? {})) if (idFor(k) !== undefined) idKeys.add(k);
      }
      if (idKeys.size === 0) continue;

      let url = path.replace(/^\/api\//, '');
      for (const p of params) url = url.replace(`:${p}`, idFor(p) ?? newId());
      let body: unknown;
      for (const step of steps) {
        const value = sample(step.schema, '', idFor);
        if (step.source === 'query') url += '?' + new URLSearchParams(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)])).toString();
        else body = value;
      }
      // The whole body, then (for calls taking one id of several, e.g. a table or a file) one id at a time.
      const variants: unknown[] = [body ?? {}];
      if (body && typeof body === 'object' && idKeys.size > 1) {
        for (const keep of idKeys) variants.push(Object.fromEntries(Object.entries(body).filter(([k]) => k === keep || !idKeys.has(k))));
      }
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
        const name = `${method} ${path} [${[...idKeys].join(',')}]`;
        const answers: string[] = [];
        let proved = false;
        let leaked = false;
        for (const variant of method === 'GET' ? [undefined] : variants) {
          const reply = await server.call(url, { method: method as 'GET' | 'POST' | 'PUT' | 'DELETE', token, body: variant });
          answers.push(`${reply.status} ${reply.body?.code ?? ''} ${JSON.stringify(reply.body?.errors ?? reply.body?.message ?? '')}`.slice(0, 200));
          if (reply.status === 404) proved = true;
          else if (reply.status !== 400) leaked = true;
        }
        checked.push(name);
        if (!proved || leaked) failures.push(`${name} -> ${answers.join(' | ')}`);
      }
    }
    expect(checked.length).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 180_000);
});
