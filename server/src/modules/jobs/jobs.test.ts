/**
 * The job contract through HTTP on a real database: `job/get`, `job/wait` and the
 * `job/events` stream for a scheme's processing, an environment training, work no module owns
 * (its starter's alone) and a model service; rights (401, 400, 404 for other tenants and
 * strangers to the project), failure reasons in the caller's language.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ErrorCode, type JobView } from '@decisio/domain';
import type { JobKind } from '../../jobs/queue';
import { createTenant, createUser, issueToken, waitJobFinal } from '../../test/factories';
import { databases } from '../../test/server';
import { insertPolicy, samplePolicyFiles } from '../deploy/fixtures';
import { ServingRuntime } from '../deploy/runtime';
import { TINY_BC, modellingTestServer, type ModellingTestServer } from '../modelling/testing';

const FAILS: JobKind<unknown> = {
  kind: 'test.failsLikeALostWorker',
  async run() {
    throw new Error('The server restarted; gave up after 3 attempts');
  },
};

/**
 * Holds the policy loads of the model service `serviceId` (a start's step between 'starting' and
 * 'running') until `release()`; other services load as usual. When the test ends (passed, failed
 * or timed out) the load is released and the spy `held` restored, so the server can stop.
 */
function holdPolicyLoad(serviceId: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const load = ServingRuntime.prototype.loadPolicy;
  const held = vi.spyOn(ServingRuntime.prototype, 'loadPolicy').mockImplementation(async function (this: ServingRuntime, id, tenantId, policyId) {
    if (id === serviceId) await released;
    return load.call(this, id, tenantId, policyId);
  });
  onTestFinished(() => {
    release();
    held.mockRestore();
  });
  return { held, release };
}

/** Reads an SSE response to its end: the events in order. */
async function readEvents(res: Response): Promise<Array<{ event: string; id: string | null; data: any }>> {
  const text = await res.text();
  const out: Array<{ event: string; id: string | null; data: any }> = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n');
    const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
    const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
    if (!event || data === undefined) continue;
    out.push({ event, id: lines.find((l) => l.startsWith('id: '))?.slice(4) ?? null, data: JSON.parse(data) });
  }
  return out;
}

describe.each(databases)('job contract on %s', (kind) => {
  let m: ModellingTestServer;
  let strangerToken: string;
  let memberToken: string;
  let envJobId: string;
  let simulatorId: string;

  const call = (name: string, body: unknown, token: string = m.token, headers: Record<string, string> = {}) => m.server.call(name, { token, body, headers });

  beforeAll(async () => {
    m = await modellingTestServer(kind, { jobs: { kinds: [FAILS] } });
    strangerToken = await issueToken(m.server, await createUser(m.server, { tenantId: await createTenant(m.server) }));
    memberToken = await issueToken(m.server, await createUser(m.server));
  }, 120_000);
  afterAll(async () => {
    await m?.server.stop();
  });

  it("answers a scheme processing's state, kind and owner", async () => {
    const scheme = (await call('scheme/get', { id: m.schemeId })).body.data;
    const jobId = scheme.processJobId as string;
    expect(jobId).toMatch(/^[0-9a-f]{32}$/);
    const got = await call('job/get', { jobId });
    expect(got.status).toBe(200);
    const view = got.body.data as JobView;
    expect(view).toMatchObject({ jobId, id: jobId, kind: 'scheme', state: 'successful', final: true, error: null, ownerId: m.schemeId });
    expect(view.owner).toEqual({ type: 'scheme', id: m.schemeId, projectId: m.projectId, solutionId: m.solutionId });
  });

  it('waits for an environment training, streams its metrics points and its state', async () => {
    const created = await call('trainSimulator/create', { solutionId: m.solutionId, schemeId: m.schemeId, name: 'env-job', stopConditions: { system: true }, hyperparameters: { ...TINY_BC, epochs: 4 } });
    expect(created.body.code).toBe(0);
    envJobId = created.body.data.jobId;
    simulatorId = created.body.data.id;

    const { last, states } = await waitJobFinal(m.server, m.token, envJobId);
    expect(last.state).toBe('successful');
    expect(states.at(-1)).toBe('successful');
    const done = (await call('job/get', { jobId: envJobId })).body.data as JobView;
    expect(done).toMatchObject({ kind: 'environment', ownerId: simulatorId, final: true, progress: 1 });
    expect(done.owner?.type).toBe('simulator');
    expect(Object.keys(done.metrics).length).toBeGreaterThan(0);

    // A wait on a final job answers at once, unchanged.
    const t0 = Date.now();
    const again = await call('job/wait', { jobId: envJobId, state: 'successful', timeoutSeconds: 30 });
    expect(again.body.data).toMatchObject({ state: 'successful', changed: false, final: true });
    expect(Date.now() - t0).toBeLessThan(5000);

    // The stream: every metrics point with its id, then the final state; it ends by itself.
    const res = await m.server.fetch(`/api/job/events?jobId=${envJobId}`, { headers: { Authorization: m.token } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await readEvents(res);
    const points = events.filter((e) => e.event === 'metrics');
    expect(points.length).toBeGreaterThanOrEqual(4);
    expect(points.every((p) => p.id === String(p.data.id) && typeof p.data.step === 'number' && typeof p.data.time === 'string')).toBe(true);
    const display = (await call('train/getTrainDisplayDataList', { jobId: envJobId })).body.data;
    expect(points.map((p) => p.data.id)).toEqual(display.points.map((p: { id: number }) => p.id));
    // The series is structured rows (step, name, value) of the job's tenant, read by range.
    const rows = await m.server.app.db.knex('job_metrics').where({ job_id: envJobId });
    expect(rows.length).toBeGreaterThanOrEqual(points.length);
    expect(await m.server.app.db.knex('job_logs').where({ job_id: envJobId }).andWhere('message', 'like', 'metrics %')).toHaveLength(0);
    const name = Object.keys(display.points[0]).find((k) => !['id', 'time', 'step'].includes(k))!;
    const ranged = (await call('train/getTrainDisplayDataList', { jobId: envJobId, fromStep: 2, names: [name], afterPoint: points[0]!.data.id })).body.data.points as Array<Record<string, number>>;
    expect(ranged.length).toBeGreaterThan(0);
    expect(ranged.every((p) => (p.step! >= 2 || p.step! < 0) && p.id! > points[0]!.data.id && Object.keys(p).sort().join() === ['id', name, 'step', 'time'].sort().join())).toBe(true);
    expect((await call('train/getTrainDisplayDataList', { jobId: envJobId, names: [] })).body.code).toBe(ErrorCode.paramInvalid);
    expect(events.at(-1)).toMatchObject({ event: 'state', data: { state: 'successful', final: true, jobId: envJobId } });

    // Resuming after the second point sends only the ones after it.
    const resumed = await readEvents(await m.server.fetch(`/api/job/events?jobId=${envJobId}`, { headers: { Authorization: m.token, 'Last-Event-ID': points[1]!.id! } }));
    expect(resumed.filter((e) => e.event === 'metrics').map((e) => e.data.id)).toEqual(points.slice(2).map((p) => p.data.id));
  }, 180_000);

  it('refuses callers without a token, bad ids, other tenants and strangers to the project', async () => {
    expect((await m.server.call('job/get', { body: { jobId: envJobId } })).status).toBe(401);
    expect((await m.server.call('job/wait', { body: { jobId: envJobId } })).status).toBe(401);
    expect((await m.server.fetch(`/api/job/events?jobId=${envJobId}`)).status).toBe(401);
    const bad = await call('job/get', { jobId: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.paramInvalid);
    expect((await call('job/wait', { jobId: envJobId, timeoutSeconds: 61 })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await m.server.fetch(`/api/job/events?jobId=x`, { headers: { Authorization: m.token } })).status).toBe(400);
    for (const token of [strangerToken, memberToken]) {
      const r = await call('job/get', { jobId: envJobId }, token);
      expect(r.status).toBe(404);
      expect(r.body.code).toBe(ErrorCode.jobNotFound);
      expect((await call('job/wait', { jobId: envJobId, timeoutSeconds: 1 }, token)).body.code).toBe(ErrorCode.jobNotFound);
      expect((await m.server.fetch(`/api/job/events?jobId=${envJobId}`, { headers: { Authorization: token } })).status).toBe(404);
    }
    const missing = await call('job/get', { jobId: 'f'.repeat(32) });
    expect(missing.body.code).toBe(ErrorCode.jobNotFound);
  });

  it("shows work no module owns to its starter alone, with the failure reason in the caller's language", async () => {
    const job = await m.server.app.jobs.enqueue(FAILS.kind, {}, { tenantId: m.owner.tenantId, userId: m.owner.id });
    const en = await waitJobFinal(m.server, m.token, job.id, { 'Accept-Language': 'en-US' });
    expect(en.last).toMatchObject({ kind: FAILS.kind, state: 'failure', final: true, owner: null, error: 'The server restarted; gave up after 3 attempts' });
    const zh = await call('job/get', { jobId: job.id }, m.token, { 'Accept-Language': 'zh-CN' });
    expect(zh.body.data.error).toBe('服务器已重启；尝试 3 次后放弃');
    expect((await call('job/get', { jobId: job.id }, memberToken)).body.code).toBe(ErrorCode.jobNotFound);
  });

  it("follows a model service's state: create-and-start in one call, then job/wait after a stop", async () => {
    const policyId = await insertPolicy(m.server.app, { tenantId: m.owner.tenantId, projectId: m.projectId, solutionId: m.solutionId, creatorId: m.owner.id }, { files: await samplePolicyFiles() });
    const created = await call('modeldeploy/create', { serviceName: 'svc-job', policyId, start: true, waitSeconds: 30 });
    expect(created.body.code).toBe(0);
    const id = created.body.data.id as string;
    expect(created.body.data.status).toBe('running');
    const view = (await call('job/get', { jobId: id })).body.data as JobView;
    expect(view).toMatchObject({ kind: 'service', state: 'running', final: true, ownerId: id, error: null });
    expect(view.owner).toMatchObject({ type: 'service', projectId: m.projectId });
    expect((await call('modeldeploy/stop', { id })).body.code).toBe(0);
    // The start's policy load is held until released, so the start answers before it can be done
    // (however loaded the machine); once released, job/wait follows it to running.
    const { held, release } = holdPolicyLoad(id);
    const started = await call('modeldeploy/start', { id });
    expect(started.body.data.status).toBe('starting');
    expect(held).toHaveBeenCalledWith(id, m.owner.tenantId, policyId);
    expect((await call('job/get', { jobId: id })).body.data).toMatchObject({ state: 'starting', final: false });
    const waiting = call('job/wait', { jobId: id, state: 'starting', timeoutSeconds: 30 });
    release();
    expect((await waiting).body.data).toMatchObject({ state: 'running', changed: true, final: true });
    expect((await call('job/get', { jobId: id }, memberToken)).body.code).toBe(ErrorCode.jobNotFound);
    expect((await call('job/get', { jobId: id }, strangerToken)).body.code).toBe(ErrorCode.jobNotFound);
    // Without `start` the service stops at waiting to start, as before.
    const policy2 = await insertPolicy(m.server.app, { tenantId: m.owner.tenantId, projectId: m.projectId, solutionId: m.solutionId, creatorId: m.owner.id }, { files: await samplePolicyFiles() });
    const plain = await call('modeldeploy/create', { serviceName: 'svc-plain', policyId: policy2, waitSeconds: 30 });
    expect(plain.body.data.status).toBe('waiting');
  }, 60_000);
});
