import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { deleteRefusal } from '../projects/access';
import { SAMPLE_ROW, insertPolicy, insertProject, insertUploadedFile, samplePolicyFiles } from './fixtures';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { policyDeployed } from './guards';
import { StoredPolicySource } from './policy-source';
import { CallRecorder } from './recorder';
import { RecordRetention } from './retention';
import { ServingRuntime } from './runtime';

describe.each(databases)('model services on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let ownerToken: string;
  let files: Record<string, Uint8Array>;
  let project: { projectId: string; solutionId: string };

  const newPolicy = (opts: { files?: Record<string, Uint8Array> | null; name?: string } = {}) =>
    insertPolicy(server.app, { tenantId: owner.tenantId, creatorId: owner.id, ...project }, { files: opts.files === undefined ? files : opts.files, name: opts.name });

  const call = (name: string, body: unknown, token = ownerToken) => server.call(name, { token, body });

  const decide = async (serviceId: string, body: unknown, token?: string, headerName = 'Authorization') => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (token) headers[headerName] = headerName === 'Authorization' ? `Bearer ${token}` : token;
    const res = await server.fetch(`/api/decide/${serviceId}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { code: number; data: any; message: string; errors?: Record<string, string> } };
  };

  /** Polls the detail until the status leaves `from`. */
  const settle = async (id: string, from: string[]): Promise<any> => {
    for (let i = 0; i < 500; i++) {
      const d = await call('modeldeploy/queryDetail', { id });
      if (!from.includes(d.body.data.status)) return d.body.data;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`service ${id} stayed in ${from.join('/')}`);
  };

  const createService = async (serviceName: string, policyId?: string) => {
    const r = await call('modeldeploy/create', { serviceName, policyId: policyId ?? (await newPolicy()), description: 'coupon decisions' });
    expect(r.body.code).toBe(0);
    await settle(r.body.data.id, ['deploying']);
    return r.body.data as { id: string; accessToken: string; accessAddress: string };
  };

  const startService = async (id: string) => {
    const r = await call('modeldeploy/start', { id });
    expect(r.body.code).toBe(0);
    return settle(id, ['starting']);
  };

  const settleBatch = async (serviceId: string, batchId: string) => {
    for (let i = 0; i < 500; i++) {
      const page = await call('modeldeploy/queryBatchDecisionPage', { id: serviceId });
      if (page.body.data.rows.find((b: { batchId: string }) => b.batchId === batchId).state !== 'running') return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('batch never ended');
  };

  const recordCount = async (serviceId: string, result?: string) => {
    await server.app.flush();
    const q = server.app.db.knex('model_service_records').where('service_id', serviceId);
    if (result) q.andWhere('result', result);
    const row = (await q.count({ n: '*' }).first()) as { n: number | string };
    return Number(row.n);
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = await createUser(server);
    ownerToken = await issueToken(server, owner);
    files = await samplePolicyFiles([8]);
    project = await insertProject(server.app, owner.tenantId, owner.id);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('deploys, starts, decides in original units, stops and deletes a service', async () => {
    const policyId = await newPolicy({ name: 'coupon policy' });
    const created = await call('modeldeploy/create', { serviceName: 'coupon-online', policyId, description: 'first' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ serviceName: 'coupon-online', policyId, policyName: 'coupon policy', status: 'deploying', description: 'first' });
    const { id, accessToken, accessAddress } = created.body.data;
    expect(accessToken).toMatch(/^dk_/);
    expect(accessAddress).toBe(`${server.url}/api/decide/${id}`);
    expect(created.body.data.accessTokenHint).toBe(accessToken.slice(-4));

    const waiting = await settle(id, ['deploying']);
    expect(waiting.status).toBe('waiting');
    expect(waiting).not.toHaveProperty('accessToken');
    expect(waiting.inputs.map((f: { name: string }) => f.name)).toEqual(['price', 'season', 'stock']);
    expect(waiting.outputs.map((f: { name: string }) => f.name)).toEqual(['discount', 'level']);
    expect(waiting.inputs[1]).toMatchObject({ dataType: 'category', values: [1, 2, 3, 4] });

    // not running yet: refused with the spec's message, and recorded
    const early = await decide(id, SAMPLE_ROW, accessToken);
    expect(early.status).toBe(400);
    expect(early.body.code).toBe(ErrorCode.deployNotRunning);

    const running = await startService(id);
    expect(running.status).toBe('running');

    const one = await decide(id, SAMPLE_ROW, accessToken);
    expect(one.status).toBe(200);
    expect(one.body.code).toBe(0);
    expect(one.body.data.decisionId).toMatch(/^[0-9a-f]{32}$/);
    const d = one.body.data.decisions;
    expect(d.discount).toBeGreaterThanOrEqual(0);
    expect(d.discount).toBeLessThanOrEqual(0.5);
    expect(Number.isInteger(d.level)).toBe(true);
    expect(d.level).toBeGreaterThanOrEqual(0);
    expect(d.level).toBeLessThanOrEqual(10);

    // deterministic: the same row gives the same decision; X-Access-Token works too
    const again = await decide(id, SAMPLE_ROW, accessToken, 'X-Access-Token');
    expect(again.body.data.decisions).toEqual(d);

    const batch = await decide(id, [SAMPLE_ROW, { price: 0, season: 1, stock: 1000 }, SAMPLE_ROW], accessToken);
    expect(batch.status).toBe(200);
    expect(batch.body.data.decisions).toHaveLength(3);
    expect(batch.body.data.decisions[2]).toEqual(d);

    // the workbench trial goes through the same runner
    const trial = await call('modeldeploy/decision', { id, inputs: SAMPLE_ROW });
    expect(trial.body.data.decisions).toEqual(d);

    const runningDelete = await call('modeldeploy/delete', { id });
    expect(runningDelete.status).toBe(400);
    expect(runningDelete.body.code).toBe(ErrorCode.deployServiceRunning);
    const startTwice = await call('modeldeploy/start', { id });
    expect(startTwice.body.code).toBe(ErrorCode.deployStateInvalid);

    const stopped = await call('modeldeploy/stop', { id });
    expect(stopped.body.data.status).toBe('waiting');
    const refused = await decide(id, SAMPLE_ROW, accessToken);
    expect(refused.body.code).toBe(ErrorCode.deployNotRunning);
    const stopTwice = await call('modeldeploy/stop', { id });
    expect(stopTwice.body.code).toBe(ErrorCode.deployStateInvalid);

    // records: every call that reached the service, once
    expect(await recordCount(id)).toBe(6);
    expect(await recordCount(id, 'success')).toBe(4);
    expect(await recordCount(id, 'failure')).toBe(2);
    const page = await call('modeldeploy/queryModelServiceRecordsPage', { id, pageSize: 5 });
    expect(page.body.data).toMatchObject({ total: 6, page: 1, pageSize: 5 });
    expect(page.body.data.rows).toHaveLength(5);
    const failures = await call('modeldeploy/queryModelServiceRecordsPage', { id, result: 'failure' });
    expect(failures.body.data.rows).toHaveLength(2);
    expect(failures.body.data.rows[0]).toMatchObject({ result: 'failure', errorCode: ErrorCode.deployNotRunning, rows: 1 });
    const ok = await call('modeldeploy/queryModelServiceRecordsPage', { id, result: 'success', pageSize: 100 });
    expect(ok.body.data.total).toBe(4);
    const rec = ok.body.data.rows.find((r: { rows: number }) => r.rows === 3);
    expect(rec).toMatchObject({ result: 'success', requestIp: expect.any(String) });
    expect(new Date(rec.endTime).getTime()).toBeGreaterThanOrEqual(new Date(rec.startTime).getTime());
    expect(rec.durationMs).toBeGreaterThanOrEqual(0);
    expect(ok.body.data.rows.map((r: { decisionId: string }) => r.decisionId)).toContain(one.body.data.decisionId);

    const detail = await call('modeldeploy/queryDetail', { id });
    expect(detail.body.data.totals).toEqual({ calls: 6, failures: 2 });

    for (const unit of ['day', 'week', 'month', 'year']) {
      const m = await call('modeldeploy/queryMonitor', { id, unit });
      expect(m.status).toBe(200);
      expect(m.body.data.buckets).toHaveLength({ day: 24, week: 7, month: 30, year: 12 }[unit]!);
      expect(m.body.data.buckets.reduce((s: number, b: { calls: number }) => s + b.calls, 0)).toBe(6);
      expect(m.body.data.buckets.reduce((s: number, b: { failures: number }) => s + b.failures, 0)).toBe(2);
      const last = m.body.data.buckets.at(-1);
      expect(last.calls).toBe(6);
      expect(last.avgMs).toBeGreaterThanOrEqual(0);
    }
    const lastYear = await call('modeldeploy/queryMonitor', { id, unit: 'day', end: Date.now() - 3 * 86400_000 });
    expect(lastYear.body.data.buckets.reduce((s: number, b: { calls: number }) => s + b.calls, 0)).toBe(0);

    const del = await call('modeldeploy/deleteModelServiceRecord', { id, recordIds: [one.body.data.decisionId, newId()] });
    expect(del.body.data).toEqual({ deleted: 1 });
    expect(await recordCount(id)).toBe(5);

    const removed = await call('modeldeploy/delete', { id });
    expect(removed.status).toBe(200);
    const gone = await call('modeldeploy/queryDetail', { id });
    expect(gone.body.code).toBe(ErrorCode.deployDeleted);
    const goneDecide = await decide(id, SAMPLE_ROW, accessToken);
    expect(goneDecide.body.code).toBe(ErrorCode.deployDeleted);
    const list = await call('modeldeploy/queryPage', { projectId: project.projectId, pageSize: 100 });
    expect(list.body.data.rows.map((r: { id: string }) => r.id)).not.toContain(id);

    // the policy may be deployed again once its service is deleted, under the same name
    const again2 = await call('modeldeploy/create', { serviceName: 'coupon-online', policyId });
    expect(again2.body.code).toBe(0);
    await settle(again2.body.data.id, ['deploying']);
  });

  it('validates the input against the graph, field by field', async () => {
    const { id, accessToken } = await createService('validate-input');
    await startService(id);
    const en = async (body: unknown) => {
      const res = await server.fetch(`/api/decide/${id}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: accessToken, 'Accept-Language': 'en-US' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { code: number; errors?: Record<string, string> } };
    };
    const missing = await en({ season: 2, stock: 3 });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe(ErrorCode.deployInputInvalid);
    expect(missing.body.errors).toEqual({ price: 'Missing field' });
    const wrongType = await en({ ...SAMPLE_ROW, price: '12', stock: true });
    expect(wrongType.body.errors).toEqual({ price: 'Must be a number', stock: 'Must be a number' });
    const range = await en({ ...SAMPLE_ROW, price: 100.5 });
    expect(range.body.errors).toEqual({ price: 'Out of range: 0 to 100' });
    const category = await en({ ...SAMPLE_ROW, season: 5 });
    expect(category.body.errors).toEqual({ season: 'Must be one of 1, 2, 3, 4' });
    const batch = await en([SAMPLE_ROW, { ...SAMPLE_ROW, stock: -1 }, 7]);
    expect(batch.body.errors).toEqual({ '1.stock': 'Out of range: 0 to 1000', '2._': 'Each row must be an object of fields' });
    const empty = await en([]);
    expect(empty.body.code).toBe(ErrorCode.deployInputInvalid);
    const zh = await decide(id, { ...SAMPLE_ROW, price: -3 }, accessToken);
    expect(zh.body.errors).toEqual({ price: '超出范围：0 至 100' });
    // bounds are inclusive
    const edge = await en({ price: 100, season: 4, stock: 0 });
    expect(edge.status).toBe(200);
    expect(await recordCount(id, 'failure')).toBe(7);
    expect(await recordCount(id, 'success')).toBe(1);
  });

  it('refuses a missing, wrong, rotated or other service token without recording the call', async () => {
    const a = await createService('tokens-a');
    const b = await createService('tokens-b');
    await startService(a.id);
    await startService(b.id);
    const none = await decide(a.id, SAMPLE_ROW);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(ErrorCode.deployTokenInvalid);
    expect((await decide(a.id, SAMPLE_ROW, 'dk_wrong')).body.code).toBe(ErrorCode.deployTokenInvalid);
    expect((await decide(a.id, SAMPLE_ROW, b.accessToken)).body.code).toBe(ErrorCode.deployTokenInvalid);
    expect((await decide(a.id, SAMPLE_ROW, ownerToken)).body.code).toBe(ErrorCode.deployTokenInvalid);
    const unknown = await decide(newId(), SAMPLE_ROW, a.accessToken);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(ErrorCode.deployNotFound);
    expect((await decide('not-an-id', SAMPLE_ROW, a.accessToken)).body.code).toBe(ErrorCode.deployNotFound);
    const raw = (init: RequestInit) => server.fetch(`/api/decide/${a.id}`, init).then(async (r) => ({ status: r.status, body: await r.json() }));
    const malformed = await raw({ method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: a.accessToken }, body: '{"price": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe(ErrorCode.paramInvalid);
    const notJson = await raw({ method: 'POST', headers: { 'Content-Type': 'text/plain', Authorization: a.accessToken }, body: JSON.stringify(SAMPLE_ROW) });
    expect(notJson.body.code).toBe(ErrorCode.paramInvalid);
    const get = await raw({ method: 'GET', headers: { Authorization: a.accessToken } });
    expect(get.status).toBe(404);
    expect(get.body.code).toBe(ErrorCode.notFound);
    expect(await recordCount(a.id)).toBe(0);

    const rotated = await call('modeldeploy/rotateToken', { id: a.id });
    expect(rotated.body.data.accessToken).toMatch(/^dk_/);
    expect(rotated.body.data.accessToken).not.toBe(a.accessToken);
    expect((await decide(a.id, SAMPLE_ROW, a.accessToken)).body.code).toBe(ErrorCode.deployTokenInvalid);
    expect((await decide(a.id, SAMPLE_ROW, rotated.body.data.accessToken)).status).toBe(200);
    expect(await recordCount(a.id)).toBe(1);
  });

  it('refuses a matching token once it has expired (not recorded) until it is rotated with a new validity', async () => {
    const policyId = await newPolicy();
    const until = (ms: number) => new Date(Date.now() + ms).toISOString();

    // the validity must lie in the future and at most 10 years ahead, in both languages
    const inEnglish = (name: string, body: unknown) => server.call(name, { token: ownerToken, body, headers: { 'Accept-Language': 'en-US' } });
    const past = await inEnglish('modeldeploy/create', { serviceName: 'expiry-past', policyId, tokenExpiresAt: until(-60_000) });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe(ErrorCode.paramInvalid);
    expect(past.body.errors).toEqual({ tokenExpiresAt: 'Choose an expiry date in the future, at most 10 years ahead' });
    const far = await call('modeldeploy/create', { serviceName: 'expiry-far', policyId, tokenExpiresAt: until(3654 * 86_400_000) });
    expect(far.body.code).toBe(ErrorCode.paramInvalid);
    expect(far.body.errors).toEqual({ tokenExpiresAt: '请选择未来 10 年内的过期日期' });
    expect((await call('modeldeploy/create', { serviceName: 'expiry-text', policyId, tokenExpiresAt: 'next week' })).body.code).toBe(ErrorCode.paramInvalid);
    expect(await server.app.db.knex('model_services').where('policy_id', policyId).first('id')).toBeUndefined();

    const created = await call('modeldeploy/create', { serviceName: 'expiry', policyId, tokenExpiresAt: until(1500) });
    expect(created.body.code).toBe(0);
    const { id, accessToken } = created.body.data as { id: string; accessToken: string };
    const expiresAt = Date.parse(created.body.data.tokenExpiresAt);
    expect(created.body.data.tokenExpired).toBe(false);
    await settle(id, ['deploying']);
    await startService(id);
    const ok = await decide(id, SAMPLE_ROW, accessToken);
    expect(ok.status).toBe(200);
    const outcomeOf = (token: string) =>
      server
        .fetch(`/api/decide/${id}/outcome`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Accept-Language': 'en-US' },
          body: JSON.stringify({ decisionId: ok.body.data.decisionId, outcome: { reward: 1 } }),
        })
        .then(async (r) => ({ status: r.status, body: (await r.json()) as { code: number; message: string } }));
    expect((await outcomeOf(accessToken)).body.code).toBe(0);

    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 20));
    const expired = await server.fetch(`/api/decide/${id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}`, 'Accept-Language': 'en-US' },
      body: JSON.stringify(SAMPLE_ROW),
    });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: ErrorCode.deployTokenExpired, message: 'The access token has expired: rotate it for a new one' });
    // a wrong token stays invalid whatever the expiry; outcomes follow the same rule
    expect((await decide(id, SAMPLE_ROW, 'dk_wrong')).body.code).toBe(ErrorCode.deployTokenInvalid);
    const lateOutcome = await outcomeOf(accessToken);
    expect(lateOutcome.status).toBe(401);
    expect(lateOutcome.body.code).toBe(ErrorCode.deployTokenExpired);
    expect(await recordCount(id)).toBe(1);

    // the detail and the page tell that it expired
    const detail = (await call('modeldeploy/queryDetail', { id })).body.data;
    expect(detail).toMatchObject({ tokenExpiresAt: new Date(expiresAt).toISOString(), tokenExpired: true });
    const page = (await call('modeldeploy/queryPage', { projectId: project.projectId, keyword: 'expiry' })).body.data;
    expect(page.rows).toEqual([expect.objectContaining({ id, tokenExpired: true })]);

    // a too-early validity is refused on rotation too; a new one makes calls work again
    expect((await call('modeldeploy/rotateToken', { id, tokenExpiresAt: until(-1) })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await decide(id, SAMPLE_ROW, accessToken)).body.code).toBe(ErrorCode.deployTokenExpired);
    const rotated = await call('modeldeploy/rotateToken', { id, tokenExpiresAt: until(30 * 86_400_000) });
    expect(rotated.body.code).toBe(0);
    expect(rotated.body.data.tokenExpired).toBe(false);
    expect(Date.parse(rotated.body.data.tokenExpiresAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const fresh = rotated.body.data.accessToken as string;
    expect((await decide(id, SAMPLE_ROW, fresh)).status).toBe(200);
    expect((await decide(id, SAMPLE_ROW, accessToken)).body.code).toBe(ErrorCode.deployTokenInvalid);

    // another server process reads the expiry from the database and checks it on its own clock
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;
    let at = Date.now();
    const recorder = new CallRecorder(server.app.db, quiet);
    const other = new ServingRuntime(server.app.db, new StoredPolicySource(server.app.db, server.app.blobs), recorder, { now: () => new Date(at) }, quiet, { revalidateMs: 0 });
    expect((await other.decide(id, fresh, SAMPLE_ROW, null, 'en-US')).decisionId).toMatch(/^[0-9a-f]{32}$/);
    at += 31 * 86_400_000;
    await expect(other.decide(id, fresh, SAMPLE_ROW, null, 'en-US')).rejects.toMatchObject({ codeName: 'deployTokenExpired' });
    await expect(other.decide(id, 'dk_wrong', SAMPLE_ROW, null, 'en-US')).rejects.toMatchObject({ codeName: 'deployTokenInvalid' });

    // rotating without a validity: the new token never expires (the other process follows on revalidation)
    const forever = await call('modeldeploy/rotateToken', { id });
    expect(forever.body.data).toMatchObject({ tokenExpiresAt: null, tokenExpired: false });
    const token = forever.body.data.accessToken as string;
    expect((await decide(id, SAMPLE_ROW, token)).status).toBe(200);
    let answered = false;
    for (let i = 0; i < 100 && !answered; i++) {
      answered = await other.decide(id, token, SAMPLE_ROW, null, 'en-US').then(
        () => true,
        () => new Promise<boolean>((r) => setTimeout(() => r(false), 10)),
      );
    }
    expect(answered).toBe(true);
    await recorder.close();
    expect(await recordCount(id)).toBe(5);
  });

  it('answers the access address ahead of Koa with the API envelope, request id, language and gzip, and the same through the Koa app', async () => {
    const svc = await createService('fast-path');
    await startService(svc.id);
    const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${svc.accessToken}` };
    const one = await server.fetch(`/api/decide/${svc.id}?trace=1`, { method: 'POST', headers: { ...headers, RequestId: 'caller-42', 'Accept-Language': 'en-US' }, body: JSON.stringify(SAMPLE_ROW) });
    expect(one.status).toBe(200);
    expect(one.headers.get('requestid')).toBe('caller-42');
    expect(one.headers.get('content-type')).toMatch(/^application\/json/);
    expect(one.headers.get('x-content-type-options')).toBe('nosniff');
    const body = (await one.json()) as { code: number; message: string; data: { decisionId: string } };
    expect(body).toMatchObject({ code: 0, message: 'Success' });
    expect(body.data.decisionId).toMatch(/^[0-9a-f]{32}$/);
    const unsafe = await server.fetch(`/api/decide/${svc.id}`, { method: 'POST', headers: { ...headers, RequestId: 'bad id with spaces' }, body: JSON.stringify(SAMPLE_ROW) });
    expect(unsafe.headers.get('requestid')).toMatch(/^[0-9a-f]{32}$/);
    const zh = await server.fetch(`/api/decide/${svc.id}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Accept-Language': 'zh-CN' }, body: '{}' });
    expect(((await zh.json()) as { message: string }).message).toBe('访问令牌缺失或对该服务无效');

    // a batch reply of 1 KiB or more is gzipped for a caller that accepts it (fetch inflates it)
    const batch = Array.from({ length: 50 }, () => SAMPLE_ROW);
    const big = await server.fetch(`/api/decide/${svc.id}`, { method: 'POST', headers: { ...headers, 'Accept-Encoding': 'gzip' }, body: JSON.stringify(batch) });
    expect(big.headers.get('content-encoding')).toBe('gzip');
    expect(((await big.json()) as { data: { decisions: unknown[] } }).data.decisions).toHaveLength(50);

    // mounted through Koa (app.callback()), the middleware hands over to the same handler
    const http = await import('node:http');
    const koaOnly = http.createServer(server.app.app.callback());
    await new Promise<void>((r) => koaOnly.listen(0, '127.0.0.1', () => r()));
    try {
      const { port } = koaOnly.address() as { port: number };
      const viaKoa = await fetch(`http://127.0.0.1:${port}/api/decide/${svc.id}`, { method: 'POST', headers: { ...headers, RequestId: 'via-koa' }, body: JSON.stringify(SAMPLE_ROW) });
      expect(viaKoa.status).toBe(200);
      expect(viaKoa.headers.get('requestid')).toBe('via-koa');
      expect(((await viaKoa.json()) as { code: number }).code).toBe(0);
    } finally {
      koaOnly.closeAllConnections();
      await new Promise<void>((r) => koaOnly.close(() => r()));
    }
    expect(await recordCount(svc.id, 'success')).toBe(4);
  });

  it('records every call exactly once under concurrent load, also across a stop and a start', async () => {
    const { id, accessToken } = await createService('load');
    await startService(id);
    const fire = (n: number) => Promise.all(Array.from({ length: n }, () => decide(id, SAMPLE_ROW, accessToken)));
    const first = await fire(120);
    expect(first.every((r) => r.status === 200)).toBe(true);
    const [during] = await Promise.all([fire(80), call('modeldeploy/stop', { id })]);
    const okDuring = during.filter((r) => r.status === 200).length;
    const refusedDuring = during.filter((r) => r.body.code === ErrorCode.deployNotRunning).length;
    expect(okDuring + refusedDuring).toBe(80);
    await startService(id);
    const last = await fire(50);
    expect(last.every((r) => r.status === 200)).toBe(true);
    const ids = new Set([...first, ...during, ...last].map((r) => r.body.data?.decisionId).filter(Boolean));
    expect(ids.size).toBe(120 + okDuring + 50);
    expect(await recordCount(id)).toBe(250);
    expect(await recordCount(id, 'success')).toBe(120 + okDuring + 50);
  });

  it('swaps the policy of a running service under load without refusing or dropping a call', async () => {
    const oldPolicy = await newPolicy();
    const { id, accessToken } = await createService('hot-swap', oldPolicy);
    await startService(id);
    const before = (await decide(id, SAMPLE_ROW, accessToken)).body.data.decisions;
    const newPolicyId = await newPolicy({ files: await samplePolicyFiles([8], 7) });
    const fire = (n: number) => Promise.all(Array.from({ length: n }, () => decide(id, SAMPLE_ROW, accessToken)));
    const [during, swapped] = await Promise.all([fire(100), call('modeldeploy/update', { id, policyId: newPolicyId })]);
    expect(swapped.body.data).toMatchObject({ status: 'running', policyId: newPolicyId });
    expect(during.every((r) => r.status === 200)).toBe(true);
    const after = (await decide(id, SAMPLE_ROW, accessToken)).body.data.decisions;
    expect(after).not.toEqual(before);
    expect(await recordCount(id, 'success')).toBe(102);
    expect(await recordCount(id)).toBe(102);
    // the old policy is free again; a policy that cannot load is refused and the old one keeps serving
    expect((await call('modeldeploy/create', { serviceName: 'old-policy-again', policyId: oldPolicy })).body.code).toBe(0);
    const broken = await call('modeldeploy/update', { id, policyId: await newPolicy({ files: null }) });
    expect(broken.body.code).toBe(ErrorCode.deployStateInvalid);
    expect(Object.keys(broken.body.errors!)).toEqual(['policyId']);
    expect((await decide(id, SAMPLE_ROW, accessToken)).body.data.decisions).toEqual(after);
  });

  it('decides an uploaded csv in the background, with progress, a result csv and one call record', async () => {
    const { id, accessToken } = await createService('csv-batch');
    await startService(id);
    const expected = (await decide(id, SAMPLE_ROW, accessToken)).body.data.decisions;
    const csv = 'price;season;stock;note\n42.5;3;120;"a;b"\n0;1;1000;x\n150;2;5;y\n';
    const fileId = await insertUploadedFile(server.app, owner, 'orders.csv', csv);
    const created = await call('modeldeploy/createBatchDecision', { id, fileId, delimiter: ';' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ serviceId: id, fileId, fileName: 'orders.csv', delimiter: ';' });
    const batchId = created.body.data.batchId;
    let batch: any;
    for (let i = 0; i < 500; i++) {
      const page = await call('modeldeploy/queryBatchDecisionPage', { id });
      batch = page.body.data.rows.find((b: { batchId: string }) => b.batchId === batchId);
      if (batch.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(batch).toMatchObject({ state: 'success', rows: 3, failedRows: 1, progress: 1, error: null });
    const res = await server.fetch(`/api/modeldeploy/downloadBatchDecision?batchId=${batchId}`, { headers: { Authorization: ownerToken } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe('price;season;stock;note;discount;level;error');
    expect(lines[1]).toBe(`42.5;3;120;"a;b";${expected.discount};${expected.level};`);
    expect(lines[3]).toMatch(/^150;2;5;y;;;price: /);
    await server.app.flush();
    const record = await server.app.db.knex('model_service_records').where('id', batchId).first();
    expect(record).toMatchObject({ result: 'success', row_count: 3 });

    const missing = await insertUploadedFile(server.app, owner, 'bad.csv', 'price,season\n1,2\n');
    const bad = await call('modeldeploy/createBatchDecision', { id, fileId: missing });
    await settleBatch(id, bad.body.data.batchId);
    const badRow = (await call('modeldeploy/queryBatchDecisionPage', { id })).body.data.rows.find((b: { batchId: string }) => b.batchId === bad.body.data.batchId);
    expect(badRow).toMatchObject({ state: 'failure', downloadUrl: null });
    expect(badRow.error).toMatch(/stock/);

    const stranger = await createUser(server);
    const foreignFile = await insertUploadedFile(server.app, stranger, 'theirs.csv', csv);
    expect((await call('modeldeploy/createBatchDecision', { id, fileId: foreignFile })).body.code).toBe(ErrorCode.fileNotFound);
    const noFile = await server.fetch(`/api/modeldeploy/downloadBatchDecision?batchId=${bad.body.data.batchId}`, { headers: { Authorization: ownerToken } });
    expect(noFile.status).toBe(404);
    await call('modeldeploy/stop', { id });
    expect((await call('modeldeploy/createBatchDecision', { id, fileId })).body.code).toBe(ErrorCode.deployNotRunning);
  });

  it('checks names, descriptions, policies and state rules', async () => {
    const empty = await call('modeldeploy/create', { serviceName: '  ', policyId: await newPolicy() });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe(ErrorCode.paramInvalid);
    expect(Object.keys(empty.body.errors!)).toEqual(['serviceName']);
    const long = await call('modeldeploy/create', { serviceName: 'x', policyId: await newPolicy(), description: 'd'.repeat(201) });
    expect(Object.keys(long.body.errors!)).toEqual(['description']);
    const noPolicy = await call('modeldeploy/create', { serviceName: 'x' });
    expect(Object.keys(noPolicy.body.errors!)).toEqual(['policyId']);
    const ok200 = await call('modeldeploy/create', { serviceName: 'desc-200', policyId: await newPolicy(), description: 'd'.repeat(200) });
    expect(ok200.body.code).toBe(0);

    const unknownPolicy = await call('modeldeploy/create', { serviceName: 'x', policyId: newId() });
    expect(unknownPolicy.status).toBe(404);
    expect(unknownPolicy.body.code).toBe(ErrorCode.policyNotFound);

    const policyId = await newPolicy();
    const s = await createService('unique-name', policyId);
    const sameName = await call('modeldeploy/create', { serviceName: 'Unique-Name', policyId: await newPolicy() });
    expect(sameName.body.code).toBe(ErrorCode.deployNameUsed);
    const samePolicy = await call('modeldeploy/create', { serviceName: 'other-name', policyId });
    expect(samePolicy.body.code).toBe(ErrorCode.deployAlreadyDeployed);
    expect(await policyDeployed(server.app.db.knex, policyId)).toBe(true);

    const renamed = await call('modeldeploy/update', { id: s.id, serviceName: 'renamed', description: 'new text' });
    expect(renamed.body.data).toMatchObject({ serviceName: 'renamed', description: 'new text', status: 'waiting' });
    const clash = await call('modeldeploy/update', { id: s.id, serviceName: 'desc-200' });
    expect(clash.body.code).toBe(ErrorCode.deployNameUsed);

    // a policy without a trained artefact fails to deploy, with the reason
    const bare = await newPolicy({ files: null });
    const failing = await call('modeldeploy/create', { serviceName: 'no-artefact', policyId: bare });
    const failed = await settle(failing.body.data.id, ['deploying']);
    expect(failed.status).toBe('failure');
    expect(failed.failureReason).toMatch(/artefact/);
    expect(failed.inputs).toBeNull();
    const failedStart = await call('modeldeploy/start', { id: failed.id });
    expect(failedStart.body.code).toBe(0);
    expect((await settle(failed.id, ['starting'])).status).toBe('failure');
    // switching a failed service to a good policy deploys it again
    const switched = await call('modeldeploy/update', { id: failed.id, policyId: await newPolicy() });
    expect(switched.body.data.status).toBe('deploying');
    expect((await settle(failed.id, ['deploying'])).status).toBe('waiting');
    expect((await call('modeldeploy/delete', { id: failed.id })).body.code).toBe(0);

    const page = await call('modeldeploy/queryPage', { projectId: project.projectId, keyword: 'RENAMED' });
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.rows[0]).toMatchObject({ id: s.id, serviceName: 'renamed' });
    const byStatus = await call('modeldeploy/queryPage', { projectId: project.projectId, status: 'running', pageSize: 100 });
    expect(byStatus.body.data.rows.every((r: { status: string }) => r.status === 'running')).toBe(true);
  });

  it('keeps the project and solution of an online service from being deleted', async () => {
    const own = await insertProject(server.app, owner.tenantId, owner.id);
    const policyId = await insertPolicy(server.app, { tenantId: owner.tenantId, creatorId: owner.id, ...own }, { files });
    const s = await createService('guarded', policyId);
    const knex = server.app.db.knex;
    expect(await deleteRefusal(knex, { projectId: own.projectId })).toBeNull();
    await startService(s.id);
    expect(await deleteRefusal(knex, { projectId: own.projectId })).toBe('deployPolicyUsed');
    expect(await deleteRefusal(knex, { projectId: own.projectId, solutionId: own.solutionId })).toBe('deployPolicyUsed');
    expect(await deleteRefusal(knex, { projectId: own.projectId, solutionId: newId() })).toBeNull();
    // The policy behind a service cannot be deleted while the service exists.
    const refused = await call('policy/delete', { id: policyId });
    expect(refused.body.code).toBe(ErrorCode.deployPolicyUsed);
    // Nor trained further in place (what a restart of the service loads would change).
    expect((await call('train/createTrainUpdate', { kind: 'policy', id: policyId })).body.code).toBe(ErrorCode.deployPolicyUsed);
    expect((await call('trainPolicy/restore', { id: policyId })).body.code).toBe(ErrorCode.deployPolicyUsed);
    await call('modeldeploy/stop', { id: s.id });
    expect(await deleteRefusal(knex, { projectId: own.projectId })).toBeNull();
    expect((await call('policy/delete', { id: policyId })).body.code).toBe(ErrorCode.deployPolicyUsed);
    await settle(s.id, ['stopping']);
    expect((await call('modeldeploy/delete', { id: s.id })).body.code).toBe(0);
    // Without its service, the refusal is the training state's (no finished job here), not the service's.
    expect((await call('train/createTrainUpdate', { kind: 'policy', id: policyId })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call('policy/delete', { id: policyId })).body.code).toBe(0);
  });

  it('keeps inputs, decisions and reported outcomes, and turns kept calls into a dataset of the project', async () => {
    const { id, accessToken } = await createService('feedback');
    await startService(id);
    const one = await decide(id, SAMPLE_ROW, accessToken);
    expect(one.status).toBe(200);
    const rowB = { price: 0, season: 1, stock: 1000 };
    const batch = await decide(id, [SAMPLE_ROW, rowB], accessToken);
    expect(batch.status).toBe(200);
    const failed = await decide(id, { price: 'x', season: 3, stock: 1 }, accessToken);
    expect(failed.status).toBe(400);

    const report = async (body: unknown, token = accessToken) => {
      const res = await server.fetch(`/api/decide/${id}/outcome`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { code: number; data: any; errors?: Record<string, string> } };
    };
    // the record may still be queued: the outcome waits for it
    const ok = await report({ decisionId: one.body.data.decisionId, outcome: { revenue: 12.5, stock: 118 } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ decisionId: one.body.data.decisionId });
    // a batch call needs one outcome per row
    const short = await report({ decisionId: batch.body.data.decisionId, outcome: { revenue: 1 } });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe(ErrorCode.paramInvalid);
    expect(short.body.errors).toHaveProperty('outcome');
    expect((await report({ decisionId: batch.body.data.decisionId, outcome: [{ revenue: 3 }, { revenue: 4, stock: [990, 980] }] })).status).toBe(200);
    // bad values, unknown or failed decisions, wrong token
    expect((await report({ decisionId: one.body.data.decisionId, outcome: { revenue: 'much' } })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await report({ decisionId: 'x', outcome: { revenue: 1 } })).body.code).toBe(ErrorCode.paramInvalid);
    const unknown = await report({ decisionId: newId(), outcome: { revenue: 1 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(ErrorCode.deployDecisionNotFound);
    await server.app.flush();
    const failedRow = (await server.app.db.knex('model_service_records').where({ service_id: id, result: 'failure' }).first('id')) as { id: string };
    expect((await report({ decisionId: failedRow.id, outcome: { revenue: 1 } })).body.code).toBe(ErrorCode.deployDecisionNotFound);
    expect((await report({ decisionId: one.body.data.decisionId, outcome: { revenue: 1 } }, 'dk_wrong')).status).toBe(401);

    const page = await call('modeldeploy/queryModelServiceRecordsPage', { id, result: 'success' });
    const byId = new Map(page.body.data.rows.map((r: any) => [r.decisionId, r]));
    const first: any = byId.get(one.body.data.decisionId);
    expect(first.inputs).toEqual(SAMPLE_ROW);
    expect(first.decisions).toEqual(one.body.data.decisions);
    expect(first.outcome).toEqual({ revenue: 12.5, stock: 118 });
    expect(first.outcomeTime).toMatch(/Z$/);
    expect((byId.get(batch.body.data.decisionId) as any).decisions).toEqual(batch.body.data.decisions);

    // the kept calls as a dataset: one row per decided row
    const made = await call('modeldeploy/createDatasetFromRecords', { id, name: 'feedback calls' });
    expect(made.body.code).toBe(0);
    const table = await call('table/get', { tableId: made.body.data.tableId });
    expect(table.body.code).toBe(0);
    expect(table.body.data.amount).toBe(3);
    expect(table.body.data.projectId).toBe(project.projectId);
    const names = table.body.data.columns.map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(['decision_id', 'row', 'called_at', 'price', 'season', 'stock', 'decision_discount', 'decision_level', 'outcome_revenue', 'outcome_stock', 'outcome_stock_0', 'outcome_stock_1']));
    const onlyOutcomes = await call('modeldeploy/createDatasetFromRecords', { id, name: 'with outcomes', withOutcomeOnly: true, from: Date.now() + 3600_000 });
    expect(onlyOutcomes.body.code).toBe(ErrorCode.deployNoRecords);
    expect((await call('modeldeploy/createDatasetFromRecords', { id, name: 'feedback calls' })).body.code).toBe(ErrorCode.tableNameUsed);

    // a service that does not keep payloads keeps none
    expect((await call('modeldeploy/update', { id, keepPayloads: false })).body.data.keepPayloads).toBe(false);
    const bare = await decide(id, SAMPLE_ROW, accessToken);
    await server.app.flush();
    const kept = (await server.app.db.knex('model_service_records').where({ id: bare.body.data.decisionId }).first('inputs', 'decisions')) as { inputs: unknown; decisions: unknown };
    expect(kept).toEqual({ inputs: null, decisions: null });
  });

  it('deletes call records past their retention, in chunks, and keeps the rest', async () => {
    const { id } = await createService('retained');
    const now = Date.now();
    const day = 24 * 3600_000;
    const rows = (ageDays: number, n: number) =>
      Array.from({ length: n }, () => ({ id: newId(), service_id: id, tenant_id: owner.tenantId, started_at: new Date(now - ageDays * day), ended_at: null, duration_ms: 1, ip: null, result: 'success', row_count: 1, error_code: null }));
    for (const batch of [rows(40, 120), rows(10, 30)]) await server.app.db.knex('model_service_records').insert(batch);
    const clock: Clock = { now: () => new Date(now) };
    const quiet = { info: () => undefined, warn: () => undefined } as unknown as Logger;
    expect(await new RecordRetention(server.app.db, clock, quiet, 0).purge()).toBe(0);
    expect(await recordCount(id)).toBe(150);
    expect(await new RecordRetention(server.app.db, clock, quiet, 30).purge()).toBe(120);
    expect(await recordCount(id)).toBe(30);
  });

  it('isolates tenants and applies project rights', async () => {
    const { id, accessToken } = await createService('isolated');
    await startService(id);
    const otherTenant = await createTenant(server);
    const stranger = await createUser(server, { tenantId: otherTenant });
    const strangerToken = await issueToken(server, stranger);
    const colleague = await createUser(server);
    const colleagueToken = await issueToken(server, colleague);
    const viewer = await createUser(server);
    const viewerToken = await issueToken(server, viewer);
    await server.app.db.knex('project_permissions').insert({
      id: newId(),
      project_id: project.projectId,
      tenant_id: owner.tenantId,
      subject_type: 'user',
      subject_id: viewer.id,
      permission: 'view',
      granted_by: owner.id,
      created_at: new Date(),
    });

    const anon = await server.call('modeldeploy/queryDetail', { body: { id } });
    expect(anon.status).toBe(401);

    const foreign = await call('modeldeploy/queryDetail', { id }, strangerToken);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe(ErrorCode.deployNotFound);
    expect((await call('modeldeploy/stop', { id }, strangerToken)).body.code).toBe(ErrorCode.deployNotFound);
    const foreignPolicy = await call('modeldeploy/create', { serviceName: 'steal', policyId: await newPolicy() }, strangerToken);
    expect(foreignPolicy.body.code).toBe(ErrorCode.policyNotFound);
    const foreignPage = await call('modeldeploy/queryPage', { projectId: project.projectId }, strangerToken);
    expect(foreignPage.body.code).toBe(ErrorCode.projectNotFound);

    // same tenant, no right on the project
    const noRight = await call('modeldeploy/queryDetail', { id }, colleagueToken);
    expect(noRight.body.code).toBe(ErrorCode.projectNotFound);
    expect((await call('modeldeploy/queryModelServiceRecordsPage', { id }, colleagueToken)).body.code).toBe(ErrorCode.projectNotFound);
    expect((await call('modeldeploy/decision', { id, inputs: SAMPLE_ROW }, colleagueToken)).body.code).toBe(ErrorCode.projectNotFound);

    // view right: reads, no changes
    expect((await call('modeldeploy/queryDetail', { id }, viewerToken)).body.code).toBe(0);
    expect((await call('modeldeploy/queryPage', { projectId: project.projectId }, viewerToken)).body.code).toBe(0);
    const viewerStop = await call('modeldeploy/stop', { id }, viewerToken);
    expect(viewerStop.status).toBe(403);
    expect(viewerStop.body.code).toBe(ErrorCode.projectNoRight);
    expect((await call('modeldeploy/rotateToken', { id }, viewerToken)).body.code).toBe(ErrorCode.projectNoRight);
    expect((await call('modeldeploy/deleteModelServiceRecord', { id, recordIds: [newId()] }, viewerToken)).body.code).toBe(ErrorCode.projectNoRight);
    const viewerCreate = await call('modeldeploy/create', { serviceName: 'viewer', policyId: await newPolicy() }, viewerToken);
    expect(viewerCreate.body.code).toBe(ErrorCode.projectNoRight);

    expect((await call('modeldeploy/createDatasetFromRecords', { id, name: 'stolen calls' }, strangerToken)).body.code).toBe(ErrorCode.deployNotFound);
    expect((await call('modeldeploy/createDatasetFromRecords', { id, name: 'viewer calls' }, viewerToken)).body.code).toBe(ErrorCode.projectNoRight);

    // the service still decides for its token holder
    expect((await decide(id, SAMPLE_ROW, accessToken)).status).toBe(200);
  });
});
