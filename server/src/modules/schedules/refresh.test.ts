import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import knexFactory, { type Knex } from 'knex';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { waitUntil } from '../../jobs/testing';
import { createUser, encrypted, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { skipWithout } from '../../test/services';
import { createRoleUser } from '../logs/testing';
import { undeclaredReportKeys } from './testing';

/**
 * The `datasets.refresh` scheduled kind on both metadata databases, with the machine's MariaDB
 * (`TEST_MYSQL_URL`) as the outside server the dataset was imported from.
 */
const noOutside = skipWithout('mysql', import.meta.url);
const tag = Math.random().toString(36).slice(2, 8);

describe.skipIf(noOutside).each(databases)('scheduled refresh of a dataset from its data connection on %s', (kind) => {
  let server: TestServer;
  let admin: TestUser;
  let adminToken: string;
  let memberToken: string;
  let colleagueToken: string;
  let outside: Knex;
  let datasetId: string;
  const db = `decisio_refresh_${tag}_${kind}`;
  const reader = `drf_${tag}_${kind === 'sqlite' ? 's' : 'm'}`;
  const password = `Pw-${tag}-r7`;

  const save = (body: Record<string, unknown>, token = adminToken) => server.call('jobs/saveOrUpdate', { token, body });
  const refresh = (id: string) => ({ name: 'Refresh sales', cron: '0 2 * * *', kind: 'datasets.refresh', params: { datasetId: id } });
  const dataset = async () => (await server.call('table/get', { token: adminToken, body: { tableId: datasetId } })).body.data;

  /** Runs the schedule now and waits for its run to end; resolves with the run and its system-log row. */
  async function runNow(id: string) {
    const fired = await server.call('jobs/trigger', { token: adminToken, body: { id } });
    expect(fired.status).toBe(200);
    let run: any;
    await waitUntil(
      async () => {
        const rows = (await server.call('jobs/history', { token: adminToken, body: { id } })).body.data.rows as any[];
        run = rows.find((r) => r.id === fired.body.data.id);
        return ['successful', 'failure'].includes(run?.state);
      },
      30_000,
      'the run to end',
    );
    let log: any;
    await waitUntil(
      async () => {
        const rows = await server.app.db.knex('logs').where({ type: 'job', uri: `/job/${id}` });
        log = rows.find((r: any) => JSON.parse(r.params).runId === run.id);
        return Boolean(log);
      },
      10_000,
      'the run in the system log',
    );
    return { run, log: { ...log, params: JSON.parse(log.params) } };
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { threads: false }, scheduler: { tickMs: 100 }, audit: { flushIntervalMs: 10 } });
    await server.app.startJobs();
    admin = await createUser(server, { roles: ['admin'] });
    adminToken = await issueToken(server, admin);
    memberToken = await issueToken(server, await createUser(server));
    colleagueToken = await issueToken(server, await createRoleUser(server, ['jobs:read', 'jobs:write'], admin.tenantId));

    const u = new URL(process.env.TEST_MYSQL_URL!);
    outside = knexFactory({ client: 'mysql2', connection: { host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) }, pool: { min: 0, max: 1 } });
    await outside.raw(`create database \`${db}\``);
    await outside.raw(`create table \`${db}\`.sales (id int primary key, region varchar(20) not null, amount double null)`);
    await outside.raw(`insert into \`${db}\`.sales values (1, 'north', 10.5), (2, 'south', null)`);
    for (const host of ['%', 'localhost']) {
      await outside.raw(`create user '${reader}'@'${host}' identified by '${password}'`);
      await outside.raw(`grant select on \`${db}\`.* to '${reader}'@'${host}'`);
    }
    const conn = await server.call('jobJdbcDatasource/createDataSourceLink', {
      token: adminToken,
      body: { type: 'mariadb', name: `sales ${tag}`, group: 'sales', url: `jdbc:mariadb://${u.hostname}:${u.port || 3306}/${db}`, username: reader, password: await encrypted(server, password), remark: '' },
    });
    expect(conn.status).toBe(200);
    const started = await server.call('metadata/startImport', { token: adminToken, body: { connectionId: conn.body.data.id, table: 'sales', name: 'sales', type: 'business' } });
    expect(started.status).toBe(200);
    await server.app.imports.settled(started.body.data.tableId);
    const status = await server.call('metadata/getCopyStatusByTableId', { token: adminToken, body: { tableId: started.body.data.tableId } });
    expect(status.body.data).toMatchObject({ state: 'successful', rowsCopied: 2 });
    datasetId = status.body.data.datasetId;
  });
  afterAll(async () => {
    if (outside) {
      await outside.raw(`drop database if exists \`${db}\``);
      for (const host of ['%', 'localhost']) await outside.raw(`drop user if exists '${reader}'@'${host}'`);
      await outside.destroy();
    }
    await server?.stop();
  });

  it('checks the parameter: bad input, no token, no permission, a dataset of another user, a dataset not imported', async () => {
    for (const params of [{}, { datasetId: 'nope' }, { datasetId, extra: 1 }]) {
      const bad = await save({ ...refresh(datasetId), params });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(ErrorCode.paramInvalid);
    }
    expect((await server.call('jobs/saveOrUpdate', { body: refresh(datasetId) })).status).toBe(401);
    expect((await save(refresh(datasetId), memberToken)).status).toBe(403);
    // Only the dataset's owner schedules its refresh (it replaces the owner's data).
    const notMine = await save(refresh(datasetId), colleagueToken);
    expect(notMine.status).toBe(404);
    expect(notMine.body.code).toBe(ErrorCode.tableNotFound);
    expect((await save(refresh(newId()))).body.code).toBe(ErrorCode.tableNotFound);
    // A dataset made from an upload has no connection to refresh from.
    const uploaded = newId();
    const now = new Date();
    await server.app.db.knex('datasets').insert({
      id: uploaded, tenant_id: admin.tenantId, user_id: admin.id, project_id: null, name: `up ${tag}`, type: 'business', file_type: 'csv', file_name: 'up.csv', delimiter: ',',
      source_file_id: null, blob_key: `u/${admin.id}/ds/${uploaded}.parquet`, amount: 1, size: 1, columnar_size: 0, columns: '[]', status: 'ready', created_at: now, updated_at: now,
    });
    const notImported = await save(refresh(uploaded));
    expect(notImported.status).toBe(400);
    expect(notImported.body.code).toBe(ErrorCode.datasetNotImported);
    expect((await server.call('jobs/page', { token: adminToken, body: { kind: 'datasets.refresh' } })).body.data.total).toBe(0);
  });

  it('re-imports the same table and replaces the rows; refused when the columns changed or an environment reads the rows', async () => {
    const created = await save(refresh(datasetId));
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ kind: 'datasets.refresh', hostWide: false, params: { datasetId } });
    const id = created.body.data.id as string;
    expect((await dataset()).amount).toBe(2);

    // Rows changed at the source: the run copies them again.
    await outside.raw(`insert into \`${db}\`.sales values (3, 'east', 1), (4, 'west', 2), (5, 'east', 99.5)`);
    await outside.raw(`delete from \`${db}\`.sales where id = 2`);
    const ok = await runNow(id);
    expect(ok.run).toMatchObject({ state: 'successful', kind: 'datasets.refresh', trigger: 'manual', metrics: { rowsBefore: 2, rowsAfter: 4 } });
    expect(undeclaredReportKeys(ok.run)).toEqual([]);
    expect(ok.log).toMatchObject({ type: 'job', method: 'MANUAL', response_code: ErrorCode.success, params: { kind: 'datasets.refresh', result: { rowsBefore: 2, rowsAfter: 4 } } });
    const after = await dataset();
    expect(after.amount).toBe(4);
    const amount = after.columns.find((c: { name: string }) => c.name === 'amount');
    expect(amount.max).toBe(99.5);
    const rows = await server.call('table/filter', { token: adminToken, body: { tableId: datasetId, conditions: [], orderBy: { field: 'id' }, limit: 10, offset: 0 } });
    expect(rows.body.data.rows.map((r: unknown[]) => r[0])).toEqual([1, 3, 4, 5]);

    // The source gained a column: refused with the same-columns rule, the data stays.
    await outside.raw(`alter table \`${db}\`.sales add column note varchar(10) null`);
    const mismatch = await runNow(id);
    expect(mismatch.run.state).toBe('failure');
    expect(mismatch.log).toMatchObject({ response_code: ErrorCode.failure, params: { kind: 'datasets.refresh' } });
    expect(mismatch.log.params.error).toBe('Table fields are inconsistent: note');
    expect(mismatch.run.error).toContain('Table fields are inconsistent: note');
    expect((await dataset()).amount).toBe(4);
    await outside.raw(`alter table \`${db}\`.sales drop column note`);

    // An environment reads the dataset's rows again each time it loads: the refresh is refused.
    const now = new Date();
    const simId = newId();
    await server.app.db.knex('simulators').insert({
      id: simId, tenant_id: admin.tenantId, project_id: 'f'.repeat(32), solution_id: 'd'.repeat(32), name: 'env-reads', algorithm: 'bc', job_id: null, state: 'successful',
      config: JSON.stringify({ datasetIds: [datasetId] }), scheme_id: 'e'.repeat(32), score: null, artifact_key: null, creator_id: admin.id, created_at: now, updated_at: now,
    });
    await outside.raw(`insert into \`${db}\`.sales values (6, 'north', 3)`);
    const inUse = await runNow(id);
    expect(inUse.run.state).toBe('failure');
    expect(inUse.log.params.error).toBe('The table is in use: env-reads');
    expect(inUse.run.error).toContain('The table is in use: env-reads');
    expect((await dataset()).amount).toBe(4);
    await server.app.db.knex('simulators').where('id', simId).delete();

    // Free again: the next run takes the new row.
    const again = await runNow(id);
    expect(again.run).toMatchObject({ state: 'successful', metrics: { rowsBefore: 4, rowsAfter: 5 } });
    expect((await dataset()).amount).toBe(5);
  });

  it('skips a run while another refresh of the dataset holds a live claim, with the reason in the history; runs once the claim is free or its lease is over', async () => {
    // Another server's refresh of the dataset, as its claim row.
    const created = await save({ ...refresh(datasetId), name: 'Refresh sales twice' });
    expect(created.status).toBe(200);
    const id = created.body.data.id as string;
    const before = (await dataset()).amount as number;
    await outside.raw(`insert into \`${db}\`.sales values (7, 'south', 4)`);
    const claims = () => server.app.db.knex('dataset_refresh_claims').where('dataset_id', datasetId);
    const since = new Date();
    await server.app.db.knex('dataset_refresh_claims').insert({ dataset_id: datasetId, tenant_id: admin.tenantId, job_id: 'job-of-another-server', run_id: null, claimed_at: since, lease_until_ms: Date.now() + 60_000 });

    const skipped = await runNow(id);
    const reason = `another refresh of dataset ${datasetId} is running (job job-of-another-server, since ${since.toISOString()}): this run is skipped`;
    expect(skipped.run).toMatchObject({ state: 'successful', metrics: { skipped: 1 }, skippedReason: reason });
    expect(undeclaredReportKeys(skipped.run)).toEqual([]);
    expect(skipped.log).toMatchObject({ response_code: ErrorCode.success, params: { kind: 'datasets.refresh', result: { skipped: 1 }, skippedReason: reason } });
    expect((await dataset()).amount).toBe(before);
    // The other server's claim is left as it was.
    expect((await claims()).map((c: { job_id: string }) => c.job_id)).toEqual(['job-of-another-server']);

    // Its holder died: once the lease is over the claim is taken over and the run refreshes.
    await claims().update({ lease_until_ms: Date.now() - 1 });
    const ran = await runNow(id);
    expect(ran.run).toMatchObject({ state: 'successful', skippedReason: null, metrics: { rowsBefore: before, rowsAfter: before + 1, skipped: 0 } });
    expect((await dataset()).amount).toBe(before + 1);
    // The run gave its claim back: the next one needs no lease to run out.
    expect(await claims()).toEqual([]);
    await outside.raw(`insert into \`${db}\`.sales values (8, 'west', 5)`);
    expect((await runNow(id)).run).toMatchObject({ state: 'successful', skippedReason: null, metrics: { rowsBefore: before + 1, rowsAfter: before + 2, skipped: 0 } });
    expect(await claims()).toEqual([]);
  });
});
