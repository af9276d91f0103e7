import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { waitUntil } from '../../jobs/testing';
import { createTenant, createUser, issueToken, signIn, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { createRoleUser } from '../logs/testing';

describe.each(databases)('scheduled jobs on %s (in-process queue)', (kind) => {
  let server: TestServer;
  let admin: TestUser;
  let adminToken: string;
  let memberToken: string;
  let tenantAdminToken: string;
  let readerToken: string;

  const save = (body: Record<string, unknown>, token = adminToken) => server.call('jobs/saveOrUpdate', { token, body });
  const sweep = { name: 'Sweep uploads', cron: '0 3 * * *', kind: 'uploads.sweep', params: { olderThanHours: 1 } };

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { threads: false }, scheduler: { tickMs: 100 }, audit: { flushIntervalMs: 10 } });
    await server.app.startJobs();
    admin = await createUser(server, { roles: ['admin'] });
    adminToken = await signIn(server, admin);
    memberToken = await issueToken(server, await createUser(server));
    tenantAdminToken = await issueToken(server, await createRoleUser(server, ['jobs:read', 'jobs:write']));
    readerToken = await issueToken(server, await createRoleUser(server, ['jobs:read']));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('jobs/check validates the expression and shows the next five run times', async () => {
    const ok = await server.call('jobs/check', { token: readerToken, body: { cron: '0 8 * * 1-5', timezone: 'Asia/Shanghai' } });
    expect(ok.status).toBe(200);
    const next = ok.body.data.next.map((s: string) => new Date(s));
    expect(next).toHaveLength(5);
    for (const d of next) {
      // 08:00 in Shanghai is 00:00 UTC, on a weekday there.
      expect([d.getUTCHours(), d.getUTCMinutes()]).toEqual([0, 0]);
      expect([1, 2, 3, 4, 5]).toContain(new Date(d.getTime() + 8 * 3600_000).getUTCDay());
    }
    expect(next.every((d: Date, i: number) => i === 0 || d > next[i - 1]!)).toBe(true);
    expect(next[0]!.getTime()).toBeGreaterThan(Date.now());

    const bad = await server.call('jobs/check', { token: readerToken, body: { cron: '61 * * * *' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.cronInvalid);
    expect(bad.body.errors?.cron).toMatch(/61/);
    const zone = await server.call('jobs/check', { token: readerToken, body: { cron: '* * * * *', timezone: 'Mars/Olympus' } });
    expect(zone.body.code).toBe(ErrorCode.cronInvalid);
    expect(zone.body.errors).toHaveProperty('timezone');
    const empty = await server.call('jobs/check', { token: readerToken, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe(ErrorCode.paramInvalid);
    expect((await server.call('jobs/check', { body: { cron: '* * * * *' } })).status).toBe(401);
    expect((await server.call('jobs/check', { token: memberToken, body: { cron: '* * * * *' } })).status).toBe(403);
  });

  it('saves, lists, updates, pauses, resumes and deletes a schedule', async () => {
    const created = await save(sweep);
    expect(created.status).toBe(200);
    const item = created.body.data;
    expect(item).toMatchObject({ name: 'Sweep uploads', kind: 'uploads.sweep', status: 'waiting', timezone: 'UTC', hostWide: true, params: { olderThanHours: 1 }, lastRunAt: null, createdBy: admin.id });
    expect(new Date(item.nextRunAt).getUTCHours()).toBe(3);

    const page = await server.call('jobs/page', { token: readerToken, body: { keyword: 'SWEEP' } });
    expect(page.body.data).toMatchObject({ total: 1, page: 1 });
    expect(page.body.data.rows[0].id).toBe(item.id);
    expect((await server.call('jobs/page', { token: readerToken, body: { status: 'paused' } })).body.data.total).toBe(0);

    const updated = await save({ ...sweep, id: item.id, cron: '30 4 * * *', description: 'nightly' });
    expect(updated.body.data).toMatchObject({ id: item.id, cron: '30 4 * * *', description: 'nightly', status: 'waiting' });
    expect(new Date(updated.body.data.nextRunAt).getUTCMinutes()).toBe(30);

    const paused = await server.call('jobs/pause', { token: adminToken, body: { id: item.id } });
    expect(paused.body.data).toMatchObject({ status: 'paused', nextRunAt: null });
    const again = await server.call('jobs/pause', { token: adminToken, body: { id: item.id } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(ErrorCode.scheduleStateInvalid);
    const resumed = await server.call('jobs/resume', { token: adminToken, body: { id: item.id } });
    expect(resumed.body.data.status).toBe('waiting');
    expect(resumed.body.data.nextRunAt).not.toBeNull();
    expect((await server.call('jobs/resume', { token: adminToken, body: { id: item.id } })).body.code).toBe(ErrorCode.scheduleStateInvalid);

    const removed = await server.call('jobs/delete', { token: adminToken, body: { id: item.id } });
    expect(removed.body.data).toEqual({ id: item.id });
    const gone = await server.call('jobs/pause', { token: adminToken, body: { id: item.id } });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(ErrorCode.scheduleNotFound);
  });

  it('fires a cron schedule through the queue: the sweep aborts a stale upload, frees its space, and the run shows in the history and the system log', async () => {
    const owner = await createUser(server);
    const ownerToken = await issueToken(server, owner);
    const init = await server.call('file/uploadpartinit', { token: ownerToken, body: { name: 'left.csv', size: 5000 } });
    expect(init.status).toBe(200);
    const uploadId = init.body.data.uploadId as string;
    const used = async () => (await server.call('file/getFreeSpace', { token: ownerToken, body: {} })).body.data.usedBytes as number;
    expect(await used()).toBe(5000);
    // Untouched for two hours.
    await server.app.db.knex('uploads').where('id', uploadId).update({ updated_at: new Date(Date.now() - 2 * 3600_000) });
    const fresh = await server.call('file/uploadpartinit', { token: ownerToken, body: { name: 'fresh.csv', size: 100 } });

    const created = await save({ ...sweep, name: 'Every second', cron: '* * * * * *' });
    const id = created.body.data.id as string;
    let runs: any[] = [];
    await waitUntil(
      async () => {
        runs = (await server.call('jobs/history', { token: readerToken, body: { id } })).body.data.rows;
        return runs.some((r) => r.state === 'successful');
      },
      20_000,
      'a successful run',
    );
    await server.call('jobs/pause', { token: adminToken, body: { id } });
    const run = runs.find((r) => r.state === 'successful');
    expect(run).toMatchObject({ scheduleId: id, scheduleName: 'Every second', kind: 'uploads.sweep', trigger: 'cron' });
    expect(run.jobId).toMatch(/^[0-9a-f]{32}$/);
    const first = runs[runs.length - 1];
    expect(first.metrics).toMatchObject({ stale: 1, aborted: 1, freedBytes: 5000 });
    expect(await used()).toBe(100);
    expect((await server.app.db.knex('uploads').where('id', uploadId).first()).state).toBe('aborted');
    expect((await server.app.db.knex('uploads').where('id', fresh.body.data.uploadId).first()).state).toBe('uploading');
    // Fired ticks are distinct whole seconds.
    const ticks = runs.map((r) => r.firedAt);
    expect(new Set(ticks).size).toBe(ticks.length);
    for (const t of ticks) expect(new Date(t).getUTCMilliseconds()).toBe(0);

    const logged = await server.call('logs/page', { token: adminToken, body: { type: 'job', pageSize: 100 } });
    const row = logged.body.data.rows.find((r: { requestId: string }) => r.requestId === first.jobId);
    expect(row).toMatchObject({ title: 'job/Every second', method: 'CRON', uri: `/job/${id}`, responseCode: 0, username: 'scheduler', tenantId: admin.tenantId });
    expect(JSON.parse(row.params)).toMatchObject({ kind: 'uploads.sweep', result: { aborted: 1 } });
    const byModule = await server.call('logs/page', { token: adminToken, body: { module: 'jobs', call: 'saveOrUpdate' } });
    expect(byModule.body.data.total).toBeGreaterThan(0);
  });

  it('runs a schedule once on trigger, recorded as manual with the caller', async () => {
    const created = await save({ name: 'Retention', cron: '0 0 1 1 *', kind: 'logs.retention', params: { days: 3650 } });
    const id = created.body.data.id as string;
    const trig = await server.call('jobs/trigger', { token: adminToken, body: { id } });
    expect(trig.status).toBe(200);
    expect(trig.body.data).toMatchObject({ scheduleId: id, trigger: 'manual' });
    let runs: any[] = [];
    await waitUntil(async () => {
      runs = (await server.call('jobs/history', { token: adminToken, body: { id } })).body.data.rows;
      return runs[0]?.state === 'successful';
    });
    expect(runs).toHaveLength(1);
    expect(runs[0].metrics).toMatchObject({ days: 3650, deleted: 0 });
    await waitUntil(async () => (await server.app.db.knex('logs').where({ request_id: runs[0].jobId, type: 'job' })).length === 1);
    const row = await server.app.db.knex('logs').where({ request_id: runs[0].jobId }).first();
    expect(row).toMatchObject({ method: 'MANUAL', user_id: admin.id, username: admin.username });
    // A manual run is the schedule's last run: it no longer waits (not started); the next tick stays.
    const listed = (await server.call('jobs/page', { token: adminToken, body: { keyword: 'Retention' } })).body.data.rows[0];
    expect(listed.status).toBe('running');
    expect(Date.parse(listed.lastRunAt)).toBe(Date.parse(runs[0].firedAt));
    expect(listed.nextRunAt).not.toBeNull();
  });

  it('licences.expiry marks an issued licence past its end expired and sends the notices, once', async () => {
    const holder = await createUser(server);
    const now = Date.now();
    const licence = (id: string, endAt: Date) => ({
      id,
      tenant_id: holder.tenantId,
      user_id: holder.id,
      type: 'online',
      edition: 'pro',
      status: 'success',
      contact_channel: 'email',
      contact_target: holder.email,
      start_at: new Date(now - 30 * 86_400_000),
      end_at: endAt,
      created_at: new Date(now - 30 * 86_400_000),
      updated_at: new Date(now - 30 * 86_400_000),
    });
    const expiring = newId();
    const ended = newId();
    await server.app.db.knex('sdk_licences').insert([licence(expiring, new Date(now + 3 * 86_400_000)), licence(ended, new Date(now - 86_400_000))]);
    const id = (await save({ name: 'Licences', cron: '0 9 * * *', kind: 'licences.expiry' })).body.data.id as string;
    const runOnce = async (expected: number) => {
      await server.call('jobs/trigger', { token: adminToken, body: { id } });
      let runs: any[] = [];
      await waitUntil(async () => {
        runs = (await server.call('jobs/history', { token: adminToken, body: { id } })).body.data.rows;
        return runs.length === expected && runs.every((r) => r.state === 'successful');
      });
      return runs[0];
    };
    expect((await runOnce(1)).metrics).toEqual({ notices: 2 });
    expect((await server.app.db.knex('sdk_licences').where('id', ended).first()).status).toBe('expired');
    expect((await server.app.db.knex('sdk_licences').where('id', expiring).first()).status).toBe('success');
    const kinds = (await server.app.db.knex('messages').where('user_id', holder.id).pluck('kind')) as string[];
    expect(kinds.sort()).toEqual(['licenceExpired', 'licenceExpiring']);
    // A second run sends nothing new.
    expect((await runOnce(2)).metrics).toEqual({ notices: 0 });
    expect(await server.app.db.knex('messages').where('user_id', holder.id).count({ n: '*' })).toEqual([{ n: 2 }]);
  });

  it('answers 400 for bad input, 401 without a token, 403 without the permission or for host-wide kinds, 404 across tenants', async () => {
    const bad = await save({ name: '', cron: '* * *', kind: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.paramInvalid);
    const badParams = await save({ ...sweep, params: { olderThanHours: 0 } });
    expect(badParams.status).toBe(400);
    expect(badParams.body.errors).toHaveProperty(['params.olderThanHours']);
    const badCron = await save({ ...sweep, cron: 'every day' });
    expect(badCron.body.code).toBe(ErrorCode.cronInvalid);
    expect(badCron.body.errors).toHaveProperty('cron');
    expect((await server.call('jobs/page', { token: adminToken, body: { pageSize: 1000 } })).status).toBe(400);
    expect((await server.call('jobs/trigger', { token: adminToken, body: { id: 'x' } })).status).toBe(400);

    for (const call of ['jobs/page', 'jobs/saveOrUpdate', 'jobs/delete', 'jobs/trigger', 'jobs/pause', 'jobs/resume', 'jobs/history']) {
      expect((await server.call(call, { body: {} })).status, call).toBe(401);
      const denied = await server.call(call, { token: memberToken, body: {} });
      expect(denied.status, call).toBe(403);
      expect(denied.body.code).toBe(ErrorCode.userNotPermission);
    }
    const readOnly = await save(sweep, readerToken);
    expect(readOnly.status).toBe(403);
    // A tenant administrator may not schedule, run or change host-wide kinds.
    const hostWide = await save(sweep, tenantAdminToken);
    expect(hostWide.status).toBe(403);
    const mine = (await save(sweep)).body.data.id as string;
    expect((await server.call('jobs/trigger', { token: tenantAdminToken, body: { id: mine } })).status).toBe(403);
    expect((await server.call('jobs/history', { token: tenantAdminToken, body: { id: mine } })).status).toBe(200);

    const other = await createTenant(server);
    const strangerToken = await issueToken(server, await createUser(server, { tenantId: other, roles: ['admin'] }));
    for (const call of ['jobs/delete', 'jobs/trigger', 'jobs/pause', 'jobs/resume', 'jobs/history']) {
      const hidden = await server.call(call, { token: strangerToken, body: { id: mine } });
      expect(hidden.status, call).toBe(404);
      expect(hidden.body.code).toBe(ErrorCode.scheduleNotFound);
    }
    expect((await save({ ...sweep, id: mine }, strangerToken)).status).toBe(404);
    expect((await server.call('jobs/page', { token: strangerToken, body: {} })).body.data.total).toBe(0);
  });
});
