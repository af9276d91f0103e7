/**
 * The `policies.update` scheduled kind on both metadata databases, with real (tiny) trainings:
 * a running service's calls and reported outcomes update its environment, a copy of its policy
 * is trained further in it, both are scored in the updated environment, and the service is
 * swapped to the copy only when it scores better by more than `minGain` (one loop that swaps,
 * one that keeps, one run skipped while a loop is open, one loop skipped for want of calls);
 * the report in the job history, the message to the author and the system-log row; the checks of
 * `jobs/saveOrUpdate` for this kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { waitUntil } from '../../jobs/testing';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, type TestServer } from '../../test/server';
import { createRoleUser } from '../logs/testing';
import { REWARD_PY, TINY_BC, modellingTestServer, until } from '../modelling/testing';
import { undeclaredReportKeys } from './testing';

const TINY_PPO = { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [8] };
const finished = (r: { body: { data: { state: string } } }) => ['successful', 'failure', 'successful by manual stop'].includes(r.body.data.state);

describe.each(databases)('policy update from recorded calls on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let solutionId: string;
  let schemeId: string;
  let serviceId = '';
  let accessToken = '';
  let servingPolicy = '';
  const call = (name: string, body: unknown, as = token) => server.call(name, { token: as, body });
  const serve = async (path: string, body: unknown) => {
    const res = await server.fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { code: number; data: any } };
  };
  const schedule = (params: Record<string, unknown>, name = 'Retrain from calls') => ({ name, cron: '0 3 1 1 *', kind: 'policies.update', params: { serviceId, ...params } });

  /** Runs the schedule now; resolves with the run once its loop has ended (the report's state is no longer `running`). */
  async function runLoop(id: string) {
    const fired = await call('jobs/trigger', { id });
    expect(fired.status, JSON.stringify(fired.body)).toBe(200);
    let run: any;
    await waitUntil(
      async () => {
        const rows = (await call('jobs/history', { id })).body.data.rows as any[];
        run = rows.find((r) => r.id === fired.body.data.id);
        return run?.state === 'failure' || (run?.state === 'successful' && run.report && run.report.state !== 'running') || (run?.state === 'successful' && run.metrics.skipped === 1);
      },
      400_000,
      'the policy update to end',
    );
    return run;
  }

  beforeAll(async () => {
    ({ server, owner, token, solutionId, schemeId } = await modellingTestServer(kind, { scheduler: { tickMs: 200 } }));
    // The owner may also schedule jobs (a tenant role with the jobs permissions, beside the user role).
    const roleId = newId();
    const now = new Date();
    await server.app.db.knex('roles').insert({ id: roleId, tenant_id: owner.tenantId, code: `jobs${roleId.slice(0, 6)}`, name: 'Jobs', is_system: false, permissions: JSON.stringify(['jobs:read', 'jobs:write']), sort: 5, created_at: now, updated_at: now });
    await server.app.db.knex('user_roles').insert({ user_id: owner.id, role_id: roleId });

    const env = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-loop', stopConditions: { system: true }, hyperparameters: TINY_BC, mode: 'run' });
    expect(env.body.code).toBe(0);
    expect((await until(() => call('trainSimulator/get', { id: env.body.data.id }), finished, 90_000)).body.data.state).toBe('successful');
    const obj = await call('objective/create', { solutionId, name: 'reward', files: { 'reward.py': REWARD_PY } });
    expect(obj.body.code).toBe(0);
    const pol = await call('trainPolicy/create', { solutionId, simulatorId: env.body.data.id, objectiveId: obj.body.data.id, name: 'policy-loop', algorithm: 'ppo', stopConditions: { system: true }, hyperparameters: TINY_PPO, mode: 'run' });
    expect(pol.body.code).toBe(0);
    servingPolicy = String(pol.body.data.id);
    const trained = await until(() => call('trainPolicy/get', { id: servingPolicy }), finished, 120_000);
    expect(trained.body.data.error).toBeNull();

    const created = await call('modeldeploy/create', { serviceName: 'loop', policyId: servingPolicy, start: true, waitSeconds: 30 });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    serviceId = created.body.data.id;
    accessToken = created.body.data.accessToken;
    expect((await until(() => call('modeldeploy/queryDetail', { id: serviceId }), (r) => r.body.data.status === 'running', 30_000)).body.data.status).toBe('running');
    // Six calls; the callers report the next state of four of them.
    for (let i = 0; i < 6; i++) {
      const x = -1.5 + i * 0.6;
      const decided = await serve(`/api/decide/${serviceId}`, { x });
      expect(decided.status).toBe(200);
      if (i % 3 === 2) continue;
      const a = Number(decided.body.data.decisions.a);
      expect((await serve(`/api/decide/${serviceId}/outcome`, { decisionId: decided.body.data.decisionId, outcome: { x: 0.9 * x + 0.5 * a } })).status).toBe(200);
    }
    await server.app.flush();
  }, 400_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('checks the service when saved: not found, another tenant, no right on its project, bad parameters, no token, no permission', async () => {
    expect((await call('jobs/saveOrUpdate', schedule({ serviceId: newId() }))).body.code).toBe(ErrorCode.deployNotFound);
    const stranger = await createRoleUser(server, ['jobs:read', 'jobs:write'], await createTenant(server));
    expect((await call('jobs/saveOrUpdate', schedule({}), await issueToken(server, stranger))).body.code).toBe(ErrorCode.deployNotFound);
    const colleague = await createRoleUser(server, ['jobs:read', 'jobs:write', 'projects:use'], owner.tenantId);
    const refused = await call('jobs/saveOrUpdate', schedule({}), await issueToken(server, colleague));
    expect([ErrorCode.projectNotFound, ErrorCode.projectNoRight]).toContain(refused.body.code);
    const bad = await call('jobs/saveOrUpdate', schedule({ windowDays: 0, extra: 1 }));
    expect(bad.status).toBe(400);
    expect((await server.call('jobs/saveOrUpdate', { body: schedule({}) })).status).toBe(401);
    const reader = await call('jobs/saveOrUpdate', schedule({}), await issueToken(server, await createUser(server)));
    expect(reader.status).toBe(403);
    expect(await server.app.db.knex('scheduled_jobs').where({ kind: 'policies.update' })).toHaveLength(0);
  });

  it('retrains from the calls and swaps the running service to the copy when it scores better by more than minGain', async () => {
    // minGain far below any score difference: the rule must swap (the scores themselves are real).
    const saved = await call('jobs/saveOrUpdate', schedule({ minGain: -1e9, epochs: 2 }));
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
    const id = saved.body.data.id;
    const fired = await call('jobs/trigger', { id });
    // A second run while the loop is open is skipped (one loop per service at a time).
    const second = await call('jobs/trigger', { id });
    let secondRun: any;
    await waitUntil(
      async () => {
        secondRun = ((await call('jobs/history', { id })).body.data.rows as any[]).find((r) => r.id === second.body.data.id);
        return secondRun?.state === 'successful' || secondRun?.state === 'failure';
      },
      60_000,
      'the second run to end',
    );
    expect(secondRun.metrics).toMatchObject({ started: 0, skipped: 1 });
    expect(undeclaredReportKeys(secondRun)).toEqual([]);
    let run: any;
    await waitUntil(
      async () => {
        // Besides the scheduler's own ticks, four at once (as four servers would): each step is still taken once.
        await Promise.all(Array.from({ length: 4 }, () => server.app.scheduler.tick()));
        run = ((await call('jobs/history', { id })).body.data.rows as any[]).find((r) => r.id === fired.body.data.id);
        return run?.report && run.report.state !== 'running';
      },
      400_000,
      'the loop to end',
    );
    expect(run.state).toBe('successful');
    expect(run.metrics).toMatchObject({ started: 1, skipped: 0 });
    expect(undeclaredReportKeys(run)).toEqual([]);
    const report = run.report;
    expect(report, JSON.stringify(report)).toMatchObject({ serviceId, serviceName: 'loop', state: 'swapped', step: 'done', swapped: true, calls: 4, policyBeforeId: servingPolicy, minGain: -1e9 });
    expect(Number.isFinite(report.scoreBefore)).toBe(true);
    expect(Number.isFinite(report.scoreAfter)).toBe(true);
    expect(report.policyAfterId).not.toBe(servingPolicy);
    // The environment was updated with the calls (4 with an outcome), the copy in the updated environment.
    const envLog = (await call('train/getTrainLog', { jobId: report.environmentJobId, limit: 1000 })).body.data.items.map((l: { message: string }) => l.message);
    expect(envLog).toContain(`update data: 4 rows from dataset ${report.datasetId} (0 dropped)`);
    const copy = await server.app.db.knex('policies').where({ id: report.policyAfterId }).first('config', 'job_id');
    expect(copy.job_id).toBe(report.policyJobId);
    expect(JSON.parse(copy.config).environmentJobId).toBe(report.environmentJobId);
    const evalLog = (await server.app.db.knex('job_logs').where({ job_id: report.evaluateJobId })).map((l: { message: string }) => l.message);
    expect(evalLog.some((m: string) => m.startsWith(`serving policy ${servingPolicy}: ${report.scoreBefore.toFixed(6)}`))).toBe(true);
    // One environment update, one copy and one policy update, one evaluation: nothing taken twice.
    const envRuns = (await call('train/getTrainUpdateListPage', { id: report.environmentId, kind: 'environment' })).body.data.rows.map((r: { reason: string }) => r.reason);
    expect(envRuns).toEqual(['update', 'create']);
    expect(await server.app.db.knex('policies').where({ solution_id: solutionId }).whereNot({ id: servingPolicy })).toHaveLength(1);
    expect(await server.app.db.knex('jobs').where({ kind: 'policies.update.evaluate' })).toHaveLength(1);
    // The service serves the copy and still answers.
    const detail = await call('modeldeploy/queryDetail', { id: serviceId });
    expect(detail.body.data).toMatchObject({ status: 'running', policyId: report.policyAfterId });
    expect((await serve(`/api/decide/${serviceId}`, { x: 0.3 })).status).toBe(200);
    // The author's message and the system-log row of the loop.
    const messages = await server.app.db.knex('messages').where({ user_id: owner.id, kind: 'policyUpdated' });
    expect(messages).toHaveLength(1);
    expect(JSON.parse(messages[0].params)).toMatchObject({ outcome: 'swapped', service: 'loop', serviceId, calls: 4 });
    const logs = await server.app.db.knex('logs').where({ type: 'job', uri: `/job/${id}`, method: 'LOOP' });
    expect(logs).toHaveLength(1);
    expect(JSON.parse(logs[0].params).report).toMatchObject({ state: 'swapped', scoreBefore: report.scoreBefore, scoreAfter: report.scoreAfter });
    servingPolicy = report.policyAfterId;
  }, 500_000);

  it('keeps the serving policy when the copy does not score better by more than minGain, and skips a loop without calls', async () => {
    const saved = await call('jobs/saveOrUpdate', schedule({ minGain: 1e9, epochs: 1 }, 'Retrain, strict'));
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
    const run = await runLoop(saved.body.data.id);
    expect(run.report, JSON.stringify(run.report)).toMatchObject({ state: 'kept', swapped: false, policyBeforeId: servingPolicy, calls: 4 });
    expect(run.report.reason).toMatch(/the serving policy stays/);
    expect(Number.isFinite(run.report.scoreAfter)).toBe(true);
    expect((await call('modeldeploy/queryDetail', { id: serviceId })).body.data.policyId).toBe(servingPolicy);

    // No kept call in the window: the loop ends skipped, nothing trained.
    const records = (await call('modeldeploy/queryModelServiceRecordsPage', { id: serviceId, page: 1, pageSize: 100 })).body.data.rows.map((r: { decisionId: string }) => r.decisionId);
    expect((await call('modeldeploy/deleteModelServiceRecord', { id: serviceId, recordIds: records })).body.code).toBe(0);
    const empty = await runLoop(saved.body.data.id);
    expect(empty.report).toMatchObject({ state: 'skipped', datasetId: null, environmentJobId: null });
    expect(empty.report.reason).toMatch(/no kept call with an outcome in the last 30 days/);
    const kinds = (await server.app.db.knex('messages').where({ user_id: owner.id, kind: 'policyUpdated' })).map((m: { params: string }) => JSON.parse(m.params).outcome).sort();
    expect(kinds).toEqual(['kept', 'skipped', 'swapped']);

    // The service's page lists its loops, newest first; others' services are not found.
    const listed = await call('modeldeploy/queryPolicyUpdates', { id: serviceId, page: 1, pageSize: 10 });
    expect(listed.body.code, JSON.stringify(listed.body)).toBe(0);
    expect(listed.body.data.total).toBe(3);
    expect(listed.body.data.rows.map((r: { state: string }) => r.state)).toEqual(['skipped', 'kept', 'swapped']);
    expect(listed.body.data.rows[0]).toMatchObject({ serviceId, serviceName: 'loop', id: empty.report.id });
    const stranger = await createRoleUser(server, ['projects:use'], await createTenant(server));
    expect((await call('modeldeploy/queryPolicyUpdates', { id: serviceId }, await issueToken(server, stranger))).body.code).toBe(ErrorCode.deployNotFound);
    const colleague = await createRoleUser(server, ['projects:use'], owner.tenantId);
    expect([ErrorCode.projectNotFound, ErrorCode.projectNoRight]).toContain((await call('modeldeploy/queryPolicyUpdates', { id: serviceId }, await issueToken(server, colleague))).body.code);
    expect((await call('modeldeploy/queryPolicyUpdates', { id: 'nope' })).status).toBe(400);
    expect((await server.call('modeldeploy/queryPolicyUpdates', { body: { id: serviceId } })).status).toBe(401);
    expect((await call('modeldeploy/queryPolicyUpdates', { id: serviceId }, await issueToken(server, await createRoleUser(server, ['logs:read'], owner.tenantId)))).status).toBe(403);
  }, 500_000);
});
