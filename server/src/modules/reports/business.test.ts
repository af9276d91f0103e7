import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { insertPolicy, insertProject, insertUploadedFile, samplePolicyFiles } from '../deploy/fixtures';
import { ServingIO } from '../deploy/io';
import { StoredPolicySource } from '../deploy/policy-source';
import { until } from '../modelling/testing';

const CSV = ['price,season,stock,note', '42.5,3,120,"a, b"', '10,1,0,plain', '55,7,10,bad season', '99,4,1000,'].join('\n');

describe.each(databases)('business decisions on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let strangerToken: string;
  let outsiderToken: string;
  let viewerToken: string;
  let project: { projectId: string; solutionId: string };
  let policyId: string;
  let datasetId: string;

  const call = (name: string, body: unknown, as = token) => server.call(name, { token: as, body });
  const makeDataset = async (text: string, name: string) => {
    const made = await call('table/create', { fileId: await insertUploadedFile(server.app, owner, `${name}.csv`, text), name, type: 'business' });
    expect(made.body.code).toBe(0);
    return made.body.data.tableId as string;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = await createUser(server);
    token = await issueToken(server, owner);
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    outsiderToken = await issueToken(server, await createUser(server));
    const viewer = await createUser(server);
    viewerToken = await issueToken(server, viewer);
    project = await insertProject(server.app, owner.tenantId, owner.id);
    policyId = await insertPolicy(server.app, { tenantId: owner.tenantId, creatorId: owner.id, ...project }, { files: await samplePolicyFiles(), name: 'coupon policy' });
    datasetId = await makeDataset(CSV, 'orders');
    await server.app.db.knex('project_permissions').insert({ id: newId(), project_id: project.projectId, tenant_id: owner.tenantId, subject_type: 'user', subject_id: viewer.id, permission: 'view', granted_by: owner.id, created_at: new Date() });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('decides every row of a dataset in the background into a downloadable csv', async () => {
    const created = await call('businessDecision/create', { policyId, datasetId });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ state: 'running', policyName: 'coupon policy', datasetName: 'orders', downloadUrl: null });
    const id = created.body.data.id;
    const done = await until(() => call('businessDecision/get', { id }), (r) => r.body.data.state !== 'running');
    expect(done.body.data).toMatchObject({ state: 'success', progress: 1, rowsTotal: 4, rowsDone: 4, rowsFailed: 1, error: null });
    expect(done.body.data.downloadUrl).toBe(`/api/businessDecision/download?id=${id}`);

    const res = await server.fetch(done.body.data.downloadUrl, { headers: { Authorization: token } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe('price,season,stock,note,discount,level,error');
    expect(lines).toHaveLength(5);
    expect(lines[1]!.startsWith('42.5,3,120,"a, b",')).toBe(true);
    expect(lines[3]).toMatch(/^55,7,10,bad season,,,"season: [^"]+"$/);
    expect(lines[2]).toMatch(/^10,1,0,plain,[^,]+,[^,]+,$/);

    // The same decisions as the deploy module's runner gives for these rows.
    const io = new ServingIO((await new StoredPolicySource(server.app.db, server.app.blobs).load(owner.tenantId, policyId)).runner);
    const [first] = io.decideEach([{ price: 42.5, season: 3, stock: 120 }], 'en-US');
    if (!first || !('decision' in first)) throw new Error('no decision');
    const cells = lines[1]!.slice('42.5,3,120,"a, b",'.length).split(',');
    expect(cells).toHaveLength(3);
    expect(Number(cells[0])).toBeCloseTo(Number(first.decision.discount), 10);
    expect(Number(cells[1])).toBe(Number(first.decision.level));
    expect(cells[2]).toBe('');

    const list = await call('businessDecision/list', { projectId: project.projectId }, viewerToken);
    expect(list.body.data.rows.map((r: { id: string }) => r.id)).toEqual([id]);
    expect((await server.fetch(done.body.data.downloadUrl, { headers: { Authorization: viewerToken } })).status).toBe(200);
    for (const t of [outsiderToken, strangerToken]) {
      expect((await server.fetch(done.body.data.downloadUrl, { headers: { Authorization: t } })).status).toBe(404);
      expect((await call('businessDecision/get', { id }, t)).body.code).toBe(ErrorCode.fileNotFound);
      expect((await call('businessDecision/list', { projectId: project.projectId }, t)).body.code).toBe(ErrorCode.projectNotFound);
    }
    expect((await server.fetch(done.body.data.downloadUrl)).status).toBe(401);

    expect((await call('businessDecision/delete', { id }, viewerToken)).body.code).toBe(ErrorCode.projectNoRight);
    expect((await call('businessDecision/delete', { id })).body.code).toBe(0);
    expect((await call('businessDecision/get', { id })).status).toBe(404);
  });

  it('refuses missing columns, unknown ids, untrained policies and callers without the edit right', async () => {
    const wrong = await makeDataset('price,stock\n1,2\n', 'no season');
    const missing = await call('businessDecision/create', { policyId, datasetId: wrong });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe(ErrorCode.tableFieldsMismatch);
    expect(missing.body.errors?.datasetId).toContain('season');
    expect((await call('businessDecision/create', { policyId: newId(), datasetId })).body.code).toBe(ErrorCode.policyNotFound);
    expect((await call('businessDecision/create', { policyId, datasetId: newId() })).body.code).toBe(ErrorCode.tableNotFound);
    expect((await call('businessDecision/create', { policyId: 'x', datasetId })).body.code).toBe(ErrorCode.paramInvalid);
    const untrained = await insertPolicy(server.app, { tenantId: owner.tenantId, creatorId: owner.id, ...project }, { files: null });
    const noModel = await call('businessDecision/create', { policyId: untrained, datasetId });
    expect(noModel.body.code).toBe(ErrorCode.paramInvalid);
    expect(Object.keys(noModel.body.errors ?? {})).toEqual(['policyId']);

    expect((await call('businessDecision/create', { policyId, datasetId }, viewerToken)).body.code).toBe(ErrorCode.projectNoRight);
    expect((await call('businessDecision/create', { policyId, datasetId }, outsiderToken)).body.code).toBe(ErrorCode.projectNotFound);
    const stranger = await call('businessDecision/create', { policyId, datasetId }, strangerToken);
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe(ErrorCode.policyNotFound);
    expect((await server.call('businessDecision/create', { body: { policyId, datasetId } })).status).toBe(401);
  });

  it('stores as failed a running run whose process died', async () => {
    const id = newId();
    const old = new Date(Date.now() - 5 * 60_000);
    await server.app.db.knex('business_decisions').insert({ id, tenant_id: owner.tenantId, ...{ project_id: project.projectId, solution_id: project.solutionId }, user_id: owner.id, policy_id: policyId, policy_name: 'p', dataset_id: datasetId, dataset_name: 'd', state: 'running', rows_total: 10, rows_done: 3, rows_failed: 0, created_at: old, updated_at: old });
    const list = await call('businessDecision/list', { projectId: project.projectId });
    const row = list.body.data.rows.find((r: { id: string }) => r.id === id);
    expect(row).toMatchObject({ state: 'failure', rowsDone: 3, downloadUrl: null });
    expect(row.error).toMatch(/Interrupted/);
  });
});
