import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { TENANT_ADMIN_ROLE_ID } from '../../db/ids';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, type TestServer } from '../../test/server';
import { modellingTestServer, REWARD_PY, TINY_BC, until } from '../modelling/testing';

/**
 * The model market through HTTP on a real database: a tiny environment and PPO policy trained
 * for real (the modelling module's tiny graph), published, seen per tenant, imported into other
 * users' projects (and used there: a decision deduction and a deployed service), downloaded as
 * ONNX, versioned and unpublished.
 */
describe.each(databases)('model market on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let projectId: string;
  let solutionId: string;
  let simulatorId: string;
  let policyId: string;
  let colleagueToken: string;
  let strangerToken: string;
  let limitedToken: string;
  let modelId: string;
  let versionId: string;
  /** The colleague's project the policy was imported into. */
  let colleagueProject: string;
  const call = (name: string, body: unknown, as = token) => server.call(name, { token: as, body, headers: { 'Accept-Language': 'en-US' } });
  const newProject = async (as: string, name: string) => {
    const r = await call('project/createProject', { name, colour: 'blue' }, as);
    expect(r.body.code).toBe(0);
    return r.body.data.projectId as string;
  };
  const role = async (tenantId: string, permissions: string[]) => {
    const id = newId();
    const now = new Date();
    await server.app.db.knex('roles').insert({ id, tenant_id: tenantId, code: `r-${id.slice(0, 8)}`, name: 'Test role', is_system: false, permissions: JSON.stringify(permissions), sort: 5, created_at: now, updated_at: now });
    return id;
  };

  beforeAll(async () => {
    const started = await modellingTestServer(kind);
    ({ server, owner, token, projectId, solutionId } = started);
    const env = await call('trainSimulator/create', { solutionId, schemeId: started.schemeId, name: 'env-market', stopConditions: { system: true }, hyperparameters: TINY_BC });
    expect(env.body.code).toBe(0);
    simulatorId = env.body.data.id;
    const envDone = await until(() => call('trainSimulator/get', { id: simulatorId }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(envDone.body.data.state).toBe('successful');
    const objective = await call('objective/create', { solutionId, name: 'stay near zero', files: { 'reward.py': REWARD_PY } });
    expect(objective.body.code).toBe(0);
    const pol = await call('trainPolicy/create', {
      solutionId,
      simulatorId,
      objectiveId: objective.body.data.id,
      name: 'policy-market',
      algorithm: 'ppo',
      stopConditions: { system: true },
      hyperparameters: { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [16] },
    });
    expect(pol.body.code).toBe(0);
    policyId = pol.body.data.id;
    const polDone = await until(() => call('trainPolicy/get', { id: policyId }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(polDone.body.data.state).toBe('successful');

    // The owner may also publish to every tenant (a role with market:public); the colleague is a plain user.
    await server.app.db.knex('user_roles').insert({ user_id: owner.id, role_id: await role(owner.tenantId, ['projects:use', 'market:public']) });
    token = await issueToken(server, owner);
    colleagueToken = await issueToken(server, await createUser(server));
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    const limited = await createUser(server, { roles: [] });
    await server.app.db.knex('user_roles').insert({ user_id: limited.id, role_id: await role(owner.tenantId, ['templates:use']) });
    limitedToken = await issueToken(server, limited);
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('publishes a trained policy to the tenant with its graph, scores and report; refuses what it must', async () => {
    expect((await server.call('market/publish', { body: { kind: 'policy', recordId: policyId, name: 'x' } })).status).toBe(401);
    const refused = await call('market/list', {}, limitedToken);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(ErrorCode.userNotPermission);
    const bad = await call('market/publish', { kind: 'robot', recordId: policyId, name: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.paramInvalid);
    expect((await call('market/publish', { kind: 'policy', recordId: policyId })).body.errors).toEqual({ name: expect.any(String) });
    // Another tenant's user, and a colleague without a right on the project, cannot publish it.
    expect((await call('market/publish', { kind: 'policy', recordId: policyId, name: 'theirs' }, strangerToken)).body.code).toBe(ErrorCode.policyNotFound);
    expect((await call('market/publish', { kind: 'policy', recordId: policyId, name: 'theirs' }, colleagueToken)).body.code).toBe(ErrorCode.projectNotFound);
    // Not trained: a policy record whose training failed.
    const failed = newId();
    const row = await server.app.db.knex('policies').where({ id: policyId }).first();
    await server.app.db.knex('policies').insert({ ...row, id: failed, name: 'failed-one', state: 'failure', job_id: null, artifact_key: null });
    expect((await call('market/publish', { kind: 'policy', recordId: failed, name: 'failed' })).body.code).toBe(ErrorCode.marketSourceNotTrained);

    const pub = await call('market/publish', { kind: 'policy', recordId: policyId, name: 'Tiny linear policy', description: 'keeps x near zero', visibility: 'tenant', note: 'first' });
    expect(pub.status).toBe(200);
    const m = pub.body.data;
    modelId = m.modelId;
    versionId = m.versions[0].versionId;
    expect(m).toMatchObject({ name: 'Tiny linear policy', kind: 'policy', visibility: 'tenant', mine: true, latestVersion: 1, algorithm: 'ppo', imports: 0 });
    expect(m.graph.nodes.map((n: { name: string }) => n.name).sort()).toEqual(['action', 'next_obs', 'obs']);
    const source = await call('trainPolicy/get', { id: policyId });
    const env = await call('trainSimulator/get', { id: simulatorId });
    expect(m.versions[0]).toMatchObject({ version: 1, note: 'first', hasOnnx: true });
    expect(m.versions[0].report).toMatchObject({ algorithm: 'ppo', rewardName: 'stay near zero', agent: 'action', environment: { name: 'env-market' } });
    expect(m.versions[0].report.reward).toBe(source.body.data.reward ?? null);
    expect(m.versions[0].report.score).toBe(env.body.data.score ?? null);
    expect(m.versions[0].size).toBeGreaterThan(0);
    expect((await call('market/publish', { kind: 'policy', recordId: policyId, name: 'tiny LINEAR policy' })).body.code).toBe(ErrorCode.marketNameUsed);
  });

  it('shows a tenant model to its tenant only, with search and filters', async () => {
    const mine = await call('market/list', { keyword: 'linear' });
    expect(mine.body.data.rows.map((r: { modelId: string }) => r.modelId)).toEqual([modelId]);
    const colleague = await call('market/list', {}, colleagueToken);
    expect(colleague.body.data.rows.map((r: { modelId: string }) => r.modelId)).toContain(modelId);
    expect(colleague.body.data.rows.find((r: { modelId: string }) => r.modelId === modelId)).toMatchObject({ mine: false, ownTenant: true });
    expect((await call('market/list', { kind: 'environment' })).body.data.total).toBe(0);
    expect((await call('market/list', { keyword: 'no such model' })).body.data.total).toBe(0);
    expect((await call('market/list', { keyword: '100%_' })).body.data.total).toBe(0);
    expect((await call('market/list', { scope: 'public' })).body.data.total).toBe(0);
    expect((await call('market/list', {}, strangerToken)).body.data.rows.map((r: { modelId: string }) => r.modelId)).not.toContain(modelId);
    const hidden = await call('market/get', { modelId }, strangerToken);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe(ErrorCode.marketModelNotFound);
    expect((await call('market/import', { versionId, projectId: await newProject(strangerToken, 'stranger p') }, strangerToken)).body.code).toBe(ErrorCode.marketVersionNotFound);
    expect((await call('market/getOnnxDownloadUrl', { versionId }, strangerToken)).status).toBe(404);
  });

  it('downloads the policy ONNX, the same bytes the training exported', async () => {
    const link = await call('market/getOnnxDownloadUrl', { versionId }, colleagueToken);
    expect(link.body.data).toMatchObject({ url: `/api/market/download/${versionId}`, name: 'Tiny_linear_policy-v1.onnx' });
    const res = await server.fetch(link.body.data.url, { headers: { Authorization: colleagueToken } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const bytes = Buffer.from(await res.arrayBuffer());
    const row = await server.app.db.knex('policies').where({ id: policyId }).first();
    expect(bytes.equals(await server.app.blobs.get(`${row.artifact_key}/policy.onnx`))).toBe(true);
    expect((await server.fetch(link.body.data.url)).status).toBe(401);
  });

  it("imports a copy into another user's project, usable there for a decision deduction and a deployed service", async () => {
    const target = await newProject(colleagueToken, 'colleague project');
    colleagueProject = target;
    expect((await call('market/import', { versionId, projectId: 'nope' }, colleagueToken)).status).toBe(400);
    // Someone else's project is not theirs to import into.
    expect((await call('market/import', { versionId, projectId })).body.code).toBe(0);
    expect((await call('market/import', { versionId, projectId: target })).body.code).toBe(ErrorCode.projectNotFound);
    const imported = await call('market/import', { versionId, projectId: target }, colleagueToken);
    expect(imported.status).toBe(200);
    const r = imported.body.data;
    expect(r).toMatchObject({ projectId: target, policyId: expect.any(String), objectiveId: expect.any(String) });
    const pol = await call('trainPolicy/get', { id: r.policyId }, colleagueToken);
    expect(pol.body.data).toMatchObject({ state: 'successful', name: 'policy-market' });
    const sim = await call('trainSimulator/get', { id: r.simulatorId }, colleagueToken);
    expect(sim.body.data.state).toBe('successful');
    const rows = await server.app.db.knex('policies').where({ id: r.policyId }).first();
    const src = await server.app.db.knex('policies').where({ id: policyId }).first();
    expect(rows.artifact_key).not.toBe(src.artifact_key);
    expect((await server.app.blobs.get(`${rows.artifact_key}/policy.weights`)).equals(await server.app.blobs.get(`${src.artifact_key}/policy.weights`))).toBe(true);
    expect((await call('market/get', { modelId })).body.data.imports).toBe(2);

    const dec = await call('decision/create', { solutionId: r.solutionId, simulatorId: r.simulatorId, policyId: r.policyId, name: 'dec-imported', stepSize: 3 }, colleagueToken);
    expect(dec.body.code).toBe(0);
    const done = await until(() => call('decision/get', { id: dec.body.data.id }, colleagueToken), (x) => ['successful', 'failure'].includes(x.body.data.state), 120_000);
    expect(done.body.data.error).toBeNull();
    expect(typeof done.body.data.result.reward).toBe('number');

    const service = await call('modeldeploy/create', { serviceName: 'imported-policy', policyId: r.policyId, description: 'from the market' }, colleagueToken);
    expect(service.body.code).toBe(0);
    const settled = await until(() => call('modeldeploy/queryDetail', { id: service.body.data.id }, colleagueToken), (x) => x.body.data.status !== 'deploying', 30_000);
    // Deployed (its policy loaded from the copied files), waiting to be started.
    expect(settled.body.data.status).toBe('waiting');
  }, 150_000);

  it('charges an import to the importer: without room, nothing is made and no file stays', async () => {
    const importer = await createUser(server);
    const importerToken = await issueToken(server, importer);
    const target = await newProject(importerToken, 'quota project');
    const knex = server.app.db.knex;
    const size = Number((await knex('market_versions').where({ id: versionId }).first('size')).size);
    // The importer's quota: far too small for the version's files.
    await knex('storage_quotas').insert({ scope: 'user', owner_id: importer.id, tenant_id: importer.tenantId, total_bytes: 1000, used_bytes: 0, updated_at: new Date() });
    const solutionsBefore = Number((await knex('solutions').where({ project_id: target }).count<{ n: number }[]>({ n: '*' }))[0]!.n);
    const refused = await call('market/import', { versionId, projectId: target }, importerToken);
    expect(refused.body.code).toBe(ErrorCode.storageInsufficient);
    expect(Number((await knex('solutions').where({ project_id: target }).count<{ n: number }[]>({ n: '*' }))[0]!.n)).toBe(solutionsBefore);
    const filesUnder = (dir: string): string[] =>
      fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(`${dir}/${e.name}`) : [`${dir}/${e.name}`])) : [];
    expect(filesUnder(server.app.blobs.pathOf(`u/${importer.id}`))).toEqual([]);
    expect(Number((await knex('storage_quotas').where({ scope: 'user', owner_id: importer.id }).first('used_bytes')).used_bytes)).toBe(0);
    await knex('storage_quotas').where({ scope: 'user', owner_id: importer.id }).update({ total_bytes: 2 * size });
    const done = await call('market/import', { versionId, projectId: target }, importerToken);
    expect(done.body.code).toBe(0);
    // Charged exactly the files the copy holds.
    const copied = filesUnder(server.app.blobs.pathOf(`u/${importer.id}/modelling`)).reduce((n, f) => n + fs.statSync(f).size, 0);
    expect(copied).toBeGreaterThan(1000);
    expect(Number((await knex('storage_quotas').where({ scope: 'user', owner_id: importer.id }).first('used_bytes')).used_bytes)).toBe(copied);
  });

  it('adds versions (publisher only), publishes to every tenant only with market:public, and unpublishes', async () => {
    const v2 = await call('market/publish', { kind: 'policy', recordId: policyId, modelId, note: 'second' });
    expect(v2.body.data.latestVersion).toBe(2);
    expect(v2.body.data.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect((await call('market/publish', { kind: 'environment', recordId: simulatorId, modelId })).body.code).toBe(ErrorCode.marketKindMismatch);

    // The colleague's imported copy is theirs to publish, but not as a version of the owner's model, and not to everyone.
    const theirs = (await call('market/list', { scope: 'mine' }, colleagueToken)).body.data.total;
    expect(theirs).toBe(0);
    const copy = await server.app.db.knex('policies').where({ name: 'policy-market', project_id: colleagueProject }).first();
    expect((await call('market/publish', { kind: 'policy', recordId: copy.id, modelId }, colleagueToken)).body.code).toBe(ErrorCode.marketNoRight);
    const publicRefused = await call('market/publish', { kind: 'policy', recordId: copy.id, name: 'copy', visibility: 'public' }, colleagueToken);
    expect(publicRefused.status).toBe(403);
    expect(publicRefused.body.code).toBe(ErrorCode.marketPublicNotAllowed);
    // tenant administrators hold market:public (data migration).
    const adminRole = await server.app.db.knex('roles').where({ id: TENANT_ADMIN_ROLE_ID }).first('permissions');
    expect(typeof adminRole.permissions === 'string' ? JSON.parse(adminRole.permissions) : adminRole.permissions).toContain('market:public');

    const env = await call('market/publish', { kind: 'environment', recordId: simulatorId, name: 'Tiny environment', visibility: 'public' });
    expect(env.body.data).toMatchObject({ kind: 'environment', visibility: 'public' });
    expect(env.body.data.versions[0].hasOnnx).toBe(false);
    expect((await call('market/getOnnxDownloadUrl', { versionId: env.body.data.versions[0].versionId })).body.code).toBe(ErrorCode.marketOnnxMissing);
    // Every tenant sees a public model and may import it.
    const seen = await call('market/list', { scope: 'public' }, strangerToken);
    expect(seen.body.data.rows.map((r: { modelId: string }) => r.modelId)).toEqual([env.body.data.modelId]);
    const strangerProject = await newProject(strangerToken, 'stranger env');
    const imported = await call('market/import', { versionId: env.body.data.versions[0].versionId, projectId: strangerProject }, strangerToken);
    expect(imported.body.data).toMatchObject({ policyId: null, objectiveId: null });
    expect((await call('trainSimulator/get', { id: imported.body.data.simulatorId }, strangerToken)).body.data.state).toBe('successful');

    // Unpublish: not by others; one version, then the whole model; imported copies stay.
    expect((await call('market/unpublish', { modelId }, colleagueToken)).body.code).toBe(ErrorCode.marketNoRight);
    expect((await call('market/unpublish', { modelId: env.body.data.modelId }, strangerToken)).body.code).toBe(ErrorCode.marketNoRight);
    const v2Prefix = (await server.app.db.knex('market_versions').where({ id: v2.body.data.versions[0].versionId }).first()).blob_prefix;
    const one = await call('market/unpublish', { modelId, versionId: v2.body.data.versions[0].versionId });
    expect(one.body.data).toEqual({ modelId, removed: false });
    expect(await server.app.blobs.stat(`${v2Prefix}/processed.json`)).toBeNull();
    expect((await call('market/get', { modelId })).body.data.latestVersion).toBe(1);
    const all = await call('market/unpublish', { modelId });
    expect(all.body.data).toEqual({ modelId, removed: true });
    expect((await call('market/get', { modelId }, colleagueToken)).body.code).toBe(ErrorCode.marketModelNotFound);
    expect((await call('market/list', {}, colleagueToken)).body.data.rows.map((r: { modelId: string }) => r.modelId)).not.toContain(modelId);
    expect((await call('trainPolicy/get', { id: copy.id }, colleagueToken)).body.data.state).toBe('successful');
  }, 60_000);
});
