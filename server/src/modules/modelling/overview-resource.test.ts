import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { waitUntil } from '../../jobs/testing';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { createRoleUser } from '../logs/testing';

/** `overview/getResource` and `virtualMachine/getVirtualMachineList`: the tenant's figures for everyone, the host's machines for system roles only. */
describe.each(databases)('overview/getResource on %s', (kind) => {
  let server: TestServer;
  let user: TestUser;
  let userToken: string;
  let adminToken: string;
  let strangerToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { threads: false, concurrency: 2 }, scheduler: { enabled: false } });
    await server.app.startJobs();
    user = await createUser(server);
    userToken = await issueToken(server, user);
    adminToken = await issueToken(server, await createUser(server, { roles: ['admin'] }));
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shows a user their tenant's running jobs and storage, and no host figures", async () => {
    const job = await server.app.jobs.enqueue('system.count', { steps: 400, stepMs: 50 }, { tenantId: user.tenantId, userId: user.id });
    await waitUntil(async () => (await server.app.jobs.get(job.id, { tenantId: user.tenantId }))?.state === 'processing', 10_000, 'the job to run');
    const init = await server.call('file/uploadpartinit', { token: userToken, body: { name: 'a.csv', size: 4096 } });
    expect(init.status).toBe(200);

    const mine = await server.call('overview/getResource', { token: userToken, body: {} });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ scope: 'tenant', host: null, tenant: { runningJobs: 1, waitingJobs: 0, gpuJobs: 0 } });
    expect(mine.body.data.tenant.storage.usedBytes).toBe(4096);
    expect(mine.body.data.tenant.storage.totalBytes).toBeGreaterThan(4096);
    expect(JSON.stringify(mine.body.data)).not.toMatch(/cores|memory|slots/);

    const other = await server.call('overview/getResource', { token: strangerToken, body: {} });
    expect(other.body.data).toMatchObject({ scope: 'tenant', host: null, tenant: { runningJobs: 0, storage: { usedBytes: 0 } } });

    const admin = await server.call('overview/getResource', { token: adminToken, body: {} });
    expect(admin.body.data.scope).toBe('host');
    const workers = (await server.app.jobs.workers()).filter((w) => w.status === 'online');
    expect(admin.body.data.host).toMatchObject({
      workers: workers.length,
      cores: workers.reduce((s, w) => s + w.cores, 0),
      memory: workers.reduce((s, w) => s + w.memory, 0),
      slots: workers.reduce((s, w) => s + w.concurrency, 0),
      runningJobs: 1,
    });
    expect(admin.body.data.host.workers).toBeGreaterThan(0);
    await server.app.jobs.stop(job.id, { tenantId: user.tenantId });
    // The next test counts running jobs again: this one has ended first.
    await waitUntil(async () => !['processing', 'stopping'].includes((await server.app.jobs.get(job.id, { tenantId: user.tenantId }))?.state ?? ''), 10_000, 'the job to stop');
  });

  it("virtualMachine/getVirtualMachineList: host figures for system roles only; others see their tenant's running jobs per worker", async () => {
    const job = await server.app.jobs.enqueue('system.count', { steps: 400, stepMs: 50 }, { tenantId: user.tenantId, userId: user.id });
    await waitUntil(async () => (await server.app.jobs.get(job.id, { tenantId: user.tenantId }))?.state === 'processing', 10_000, 'the job to run');
    const workers = await server.app.jobs.workers();
    const workerId = (await server.app.jobs.get(job.id, { tenantId: user.tenantId }))!.workerId!;

    const admin = await server.call('virtualMachine/getVirtualMachineList', { token: adminToken, body: {} });
    expect(admin.status).toBe(200);
    expect(admin.body.data.scope).toBe('host');
    expect(admin.body.data.rows).toHaveLength(workers.length);
    for (const row of admin.body.data.rows) {
      const w = workers.find((x) => x.id === row.id)!;
      expect(row).toMatchObject({ host: w.host, name: w.host, cores: w.cores, memory: w.memory, concurrency: w.concurrency });
    }
    expect(admin.body.data.rows.find((r: { id: string }) => r.id === workerId).runningJobs).toBe(1);

    const mine = await server.call('virtualMachine/getVirtualMachineList', { token: userToken, body: {} });
    expect(mine.status).toBe(200);
    expect(mine.body.data.scope).toBe('tenant');
    expect(mine.body.data.rows.map((r: { id: string }) => r.id).sort()).toEqual(workers.map((w) => w.id).sort());
    for (const row of mine.body.data.rows) {
      expect(row).toMatchObject({ host: null, cores: null, memory: null, concurrency: null });
      expect(workers.some((w) => w.host === row.name)).toBe(false);
    }
    expect(mine.body.data.rows.find((r: { id: string }) => r.id === workerId).runningJobs).toBe(1);
    // Another tenant's user sees no running job of this tenant, and no host figure either.
    const other = await server.call('virtualMachine/getVirtualMachineList', { token: strangerToken, body: {} });
    expect(other.body.data.scope).toBe('tenant');
    expect(other.body.data.rows.every((r: { runningJobs: number; cores: unknown }) => r.runningJobs === 0 && r.cores === null)).toBe(true);
    await server.app.jobs.stop(job.id, { tenantId: user.tenantId });
    await waitUntil(async () => (await server.app.jobs.get(job.id, { tenantId: user.tenantId }))?.state !== 'stopping', 10_000, 'the job to stop');

    // Engine versions: the number of workers running each is a host figure too.
    const versions = (await server.call('atmVersion/getAtmVersionList', { token: userToken, body: {} })).body.data.rows;
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.every((v: { version: string; workers: unknown }) => typeof v.version === 'string' && v.workers === null)).toBe(true);
    const hostVersions = (await server.call('atmVersion/getAtmVersionList', { token: adminToken, body: {} })).body.data.rows;
    expect(hostVersions.reduce((s: number, v: { workers: number }) => s + v.workers, 0)).toBe(workers.filter((w) => w.status === 'online').length);

    expect((await server.call('virtualMachine/getVirtualMachineList', { body: {} })).status).toBe(401);
    const denied = await server.call('virtualMachine/getVirtualMachineList', { token: await issueToken(server, await createRoleUser(server, ['logs:read'])), body: {} });
    expect(denied.status).toBe(403);
  });

  it('answers 400 for a body that is not JSON, 401 without a token, 403 without the dashboard permission', async () => {
    const bad = await server.call('overview/getResource', { token: userToken, raw: '{nope', headers: { 'Content-Type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect((await server.call('overview/getResource', { body: {} })).status).toBe(401);
    // overview/getTrainingList: `running` only filters, it must be a boolean.
    expect((await server.call('overview/getTrainingList', { token: userToken, body: { running: 'yes' } })).status).toBe(400);
    expect((await server.call('overview/getTrainingList', { token: userToken, body: { running: true } })).body.data).toEqual({ rows: [], total: 0 });
    const denied = await server.call('overview/getResource', { token: await issueToken(server, await createRoleUser(server, ['logs:read'])), body: {} });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(ErrorCode.userNotPermission);
  });
});
