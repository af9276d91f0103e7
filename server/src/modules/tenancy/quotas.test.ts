import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, MODELLING_JOB_KINDS } from '@decisio/domain';
import { createUser, issueToken } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { insertPolicy, insertProject, samplePolicyFiles } from '../deploy/fixtures';

describe.each(databases)('tenant quotas on %s', (kind) => {
  let server: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { threads: false } });
    adminToken = await issueToken(server, await createUser(server, { roles: ['admin'] }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const newTenant = async (body: Record<string, unknown>) => {
    const r = await server.call('tenant/addTenant', { token: adminToken, body: { code: `q${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`, name: 'Quota', ...body } });
    expect(r.body.code).toBe(0);
    return r.body.data.id as string;
  };

  it('refuses a training past the concurrent trainings of the tenant (resourceQuotaExceeded); a finished one frees its place', async () => {
    const tenantId = await newTenant({ maxTrainings: 1 });
    const user = await createUser(server, { tenantId });
    const first = await server.app.jobs.enqueue(MODELLING_JOB_KINDS.policy, { id: 'x' }, { tenantId, userId: user.id });
    await expect(server.app.jobs.enqueue(MODELLING_JOB_KINDS.environment, { id: 'y' }, { tenantId, userId: user.id })).rejects.toMatchObject({ code: ErrorCode.resourceQuotaExceeded });
    // Data processing of a scheme is not a training; another tenant is not counted.
    await server.app.jobs.enqueue(MODELLING_JOB_KINDS.scheme, { id: 'z' }, { tenantId, userId: user.id });
    await server.app.db.knex('jobs').where('id', first.id).update({ state: 'successful' });
    await server.app.jobs.enqueue(MODELLING_JOB_KINDS.environment, { id: 'y' }, { tenantId, userId: user.id });
    // No limit: nothing is refused.
    await server.call('tenant/uplTenant', { token: adminToken, body: { id: tenantId, maxTrainings: null } });
    await server.app.jobs.enqueue(MODELLING_JOB_KINDS.policy, { id: 'w' }, { tenantId, userId: user.id });
  });

  it('the storage quota an admin sets on a tenant refuses uploads past it (poolQuotaExceeded)', async () => {
    const MB = 1024 * 1024;
    const tenantId = await newTenant({ storageQuotaBytes: MB });
    const token = await issueToken(server, await createUser(server, { tenantId }));
    const refused = await server.call('file/uploadpartinit', { token, body: { name: 'big.csv', size: 2 * MB } });
    expect(refused.body.code).toBe(ErrorCode.poolQuotaExceeded);
    expect((await server.call('file/uploadpartinit', { token, body: { name: 'small.csv', size: MB / 2 } })).body.code).toBe(0);
    await server.call('tenant/uplTenant', { token: adminToken, body: { id: tenantId, storageQuotaBytes: 4 * MB } });
    expect((await server.call('file/uploadpartinit', { token, body: { name: 'big.csv', size: 2 * MB } })).body.code).toBe(0);
  });

  it('refuses to start a model service past the running services of the tenant (platformQuotaExceeded)', async () => {
    const tenantId = await newTenant({ maxServices: 1 });
    const owner = await createUser(server, { tenantId });
    const token = await issueToken(server, owner);
    const project = await insertProject(server.app, tenantId, owner.id);
    const files = await samplePolicyFiles();
    const ids: string[] = [];
    for (const name of ['svc-one', 'svc-two']) {
      const policyId = await insertPolicy(server.app, { tenantId, creatorId: owner.id, ...project }, { files });
      const r = await server.call('modeldeploy/create', { token, body: { serviceName: name, policyId } });
      expect(r.body.code).toBe(0);
      ids.push(r.body.data.id);
    }
    const settle = async (id: string, from: string[]) => {
      for (let i = 0; i < 500; i++) {
        const d = await server.call('modeldeploy/queryDetail', { token, body: { id } });
        if (!from.includes(d.body.data.status)) return d.body.data.status as string;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error('service did not settle');
    };
    for (const id of ids) expect(await settle(id, ['deploying'])).toBe('waiting');
    expect((await server.call('modeldeploy/start', { token, body: { id: ids[0] } })).body.code).toBe(0);
    expect(await settle(ids[0]!, ['starting'])).toBe('running');
    const refused = await server.call('modeldeploy/start', { token, body: { id: ids[1] } });
    expect(refused.body.code).toBe(ErrorCode.platformQuotaExceeded);
    expect(await settle(ids[1]!, [])).toBe('waiting');
    expect((await server.call('modeldeploy/stop', { token, body: { id: ids[0] } })).body.code).toBe(0);
    expect((await server.call('modeldeploy/start', { token, body: { id: ids[1] } })).body.code).toBe(0);
  });
});
