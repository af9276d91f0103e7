import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

/** A result as the browser's trial produces it (figures measured by the trial, here fixed inputs). */
const RESULT = {
  backend: 'cpu',
  backendPath: 'wasm-simd',
  gains: { kp: [0.8], ki: [0.1], kd: [0.05], bias: [0.2] },
  metrics: { modelMse: 0.002, controllerCost: 0.12, loggedCost: 2.4, loggedCostReal: 2.5, improvement: 0.95, modelSteps: 400, controllerSteps: 150, stepsPerSecond: 120.5, seconds: 4.6 },
  curves: { modelLoss: [1, 0.5, 0.1], controllerCost: [2, 1, 0.2] },
  comparison: { target: [1, 1], real: [0.4, 0.6], logged: [0.5, 0.7], controller: [0.9, 1] },
  config: { history: 8, horizon: 16, latent: 8 },
  weights: 'AAAA',
};
const body = (over: Record<string, unknown> = {}) => ({ name: 'boiler loop', fileName: 'boiler.npz', rows: 1200, obsDim: 1, actDim: 1, result: RESULT, ...over });

describe.each(databases)('pidData on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let neighbourToken: string;
  let strangerToken: string;
  let noRightsToken: string;
  const call = (name: string, b: unknown, as: string | undefined = token) => server.call(`pidData/${name}`, { token: as, body: b });

  beforeAll(async () => {
    server = await startTestServer(kind);
    const owner = await createUser(server);
    token = await issueToken(server, owner);
    neighbourToken = await issueToken(server, await createUser(server, { tenantId: owner.tenantId }));
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    // A role of the tenant with a console page but not the projects area (`projects:use`).
    const limited = await createUser(server, { roles: [] });
    const roleId = newId();
    const now = new Date();
    await server.app.db.knex('roles').insert({ id: roleId, tenant_id: limited.tenantId, code: `dash-${roleId.slice(0, 8)}`, name: 'dashboard only', is_system: false, permissions: JSON.stringify(['dashboard:use']), sort: 0, created_at: now, updated_at: now });
    await server.app.db.knex('user_roles').insert({ user_id: limited.id, role_id: roleId });
    noRightsToken = await issueToken(server, limited);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('saves a result, lists it (newest first, keyword) and reads it back whole', async () => {
    const a = await call('createPidData', body());
    expect(a.status).toBe(200);
    expect(a.body.code).toBe(0);
    expect(a.body.data).toMatchObject({ name: 'boiler loop', fileName: 'boiler.npz', rows: 1200, backend: 'cpu', improvement: 0.95, controllerCost: 0.12, loggedCost: 2.4 });
    const b = await call('createPidData', body({ name: 'tank level', result: { ...RESULT, backend: 'webgpu', backendPath: 'wgsl' } }));
    expect(b.body.code).toBe(0);
    const list = await call('getPidDataList', { page: 1, pageSize: 10 });
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.rows.map((r: { name: string }) => r.name)).toEqual(['tank level', 'boiler loop']);
    const found = await call('getPidDataList', { keyword: 'boil' });
    expect(found.body.data.rows.map((r: { id: string }) => r.id)).toEqual([a.body.data.id]);
    const detail = await call('getPidResult', { id: a.body.data.id });
    expect(detail.body.code).toBe(0);
    expect(detail.body.data.result).toEqual(RESULT);
    const rec = await call('saveDownloadRecord', { pidDataId: a.body.data.id, fileName: 'boiler.npz', kind: 'result', improvement: 0.95 });
    expect(rec.body.code).toBe(0);
    const unsaved = await call('saveDownloadRecord', { fileName: 'local.csv', kind: 'weights' });
    expect(unsaved.body.code).toBe(0);
    const rows = await server.app.db.knex('pid_download_records').where({ file_name: 'local.csv' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'weights', pid_data_id: null });
  });

  it('refuses bad input with paramInvalid', async () => {
    const cases: unknown[] = [
      body({ name: '' }),
      body({ name: 'n'.repeat(51) }),
      body({ fileName: 'f'.repeat(51) }),
      body({ rows: 10 }),
      body({ result: { ...RESULT, metrics: { ...RESULT.metrics, controllerCost: 'cheap' } } }),
      body({ result: { ...RESULT, backend: 'tpu' } }),
      body({ result: { ...RESULT, curves: { modelLoss: new Array(2001).fill(0), controllerCost: [] } } }),
    ];
    for (const c of cases) {
      const r = await call('createPidData', c);
      expect(r.body.code, JSON.stringify(c).slice(0, 80)).toBe(ErrorCode.paramInvalid);
      expect(r.status).toBe(400);
    }
    expect((await call('getPidResult', { id: 'nope' })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call('saveDownloadRecord', { fileName: 'x.csv', kind: 'movie' })).body.code).toBe(ErrorCode.paramInvalid);
  });

  it('answers 401 without a token and 403 without the console right', async () => {
    for (const name of ['createPidData', 'getPidDataList', 'getPidResult', 'saveDownloadRecord']) {
      const r = await server.call(`pidData/${name}`, { body: body() });
      expect(r.status, name).toBe(401);
    }
    const r = await call('getPidDataList', {}, noRightsToken);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(ErrorCode.userNotPermission);
    expect((await call('createPidData', body(), noRightsToken)).status).toBe(403);
  });

  it("keeps results to their user: others' reads and download records answer pidDataNotFound", async () => {
    const own = await call('createPidData', body({ name: 'private loop' }));
    const id = own.body.data.id;
    for (const t of [neighbourToken, strangerToken]) {
      const r = await call('getPidResult', { id }, t);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe(ErrorCode.pidDataNotFound);
      expect((await call('saveDownloadRecord', { pidDataId: id, fileName: 'x.csv', kind: 'result' }, t)).body.code).toBe(ErrorCode.pidDataNotFound);
      const list = await call('getPidDataList', {}, t);
      expect(list.body.data.rows.map((x: { id: string }) => x.id)).not.toContain(id);
    }
    expect((await call('getPidResult', { id: 'f'.repeat(32) })).body.code).toBe(ErrorCode.pidDataNotFound);
  });
});
