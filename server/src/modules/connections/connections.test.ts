import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { ErrorCode, messageOf } from '@decisio/domain';
import { systemClock } from '../../clock';
import { JobKindRegistry, JobStore, JobWorker } from '../../jobs/queue';
import { redisAvailable, redisPrefix, testRedisUrl } from '../../jobs/testing';
import { registerWorkerJobKinds } from '../../jobs/worker-kinds';
import { createTenant, createUser, encrypted, issueToken, waitJobFinal, type TestUser } from '../../test/factories';
import { createTestDatabase, databases, startTestServer, type TestServer } from '../../test/server';
import { skipWithout } from '../../test/services';
import { columnKindOf } from './connector';
import { importTmpDir } from './job';

/**
 * Data connections on both metadata databases, against the real outside servers of the machine:
 * MariaDB (`TEST_MYSQL_URL`) and PostgreSQL (`TEST_POSTGRES_URL`, e.g.
 * `postgres://postgres@127.0.0.1:5432/test`), each when its variable is set (CI sets both).
 */
interface Source {
  kind: 'mariadb' | 'postgresql';
  jdbcUrl: string;
  username: string;
  password: string;
  table: string;
  schema?: string;
  drop(): Promise<void>;
}

const tag = Math.random().toString(36).slice(2, 8);
/** What a failed connection test says, in either language. */
const unreachableTexts = [messageOf('dataSourceUnreachable', 'zh-CN'), messageOf('dataSourceUnreachable', 'en-US')];

async function mariadbSource(url: string): Promise<Source> {
  const u = new URL(url);
  const admin = knexFactory({ client: 'mysql2', connection: { host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) }, pool: { min: 0, max: 1 } });
  const db = `decisio_src_${tag}`;
  const user = `dsrc_${tag}`;
  const password = `Pw-${tag}-x9`;
  await admin.raw(`create database \`${db}\``);
  await admin.raw(`create table \`${db}\`.sales (id int primary key, region varchar(20) not null, amount double null, sold_at datetime not null, active tinyint(1) not null default 1)`);
  await admin.raw(`insert into \`${db}\`.sales values (1, 'north', 10.5, '2026-01-01 10:00:00', 1), (2, 'south', null, '2026-01-02 11:00:00', 0)`);
  await admin.raw(`create view \`${db}\`.big_sales as select * from \`${db}\`.sales where amount > 5`);
  await admin.raw(`create user '${user}'@'%' identified by '${password}'`);
  await admin.raw(`create user '${user}'@'localhost' identified by '${password}'`);
  await admin.raw(`grant select on \`${db}\`.* to '${user}'@'%'`);
  await admin.raw(`grant select on \`${db}\`.* to '${user}'@'localhost'`);
  return {
    kind: 'mariadb',
    jdbcUrl: `jdbc:mariadb://${u.hostname}:${u.port || 3306}/${db}`,
    username: user,
    password,
    table: 'sales',
    async drop() {
      await admin.raw(`drop database if exists \`${db}\``);
      await admin.raw(`drop user if exists '${user}'@'%'`);
      await admin.raw(`drop user if exists '${user}'@'localhost'`);
      await admin.destroy();
    },
  };
}

async function postgresSource(url: string): Promise<Source> {
  const u = new URL(url);
  const admin: Knex = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  const schema = `src_${tag}`;
  await admin.raw(`create schema ${schema}`);
  await admin.raw(`create table ${schema}.readings (id serial primary key, sensor text not null, value double precision, taken_at timestamptz not null, ok boolean)`);
  await admin.raw(`insert into ${schema}.readings (sensor, value, taken_at, ok) values ('a', 1.5, now(), true), ('b', 2.5, now(), false)`);
  await admin.raw(`analyze ${schema}.readings`);
  return {
    kind: 'postgresql',
    jdbcUrl: `jdbc:postgresql://${u.hostname}:${u.port || 5432}${u.pathname}`,
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    table: 'readings',
    schema,
    async drop() {
      await admin.raw(`drop schema if exists ${schema} cascade`);
      await admin.destroy();
    },
  };
}

const sourceKinds = [
  ...(skipWithout('mysql', import.meta.url) ? [] : (['mariadb'] as const)),
  ...(skipWithout('postgres', import.meta.url) ? [] : (['postgresql'] as const)),
];

/** A query of 20 million generated rows: long enough to stop an import in the middle. */
function longQuery(src: Source): string {
  return src.kind === 'mariadb'
    ? "select seq as id, concat('row ', seq) as label from seq_1_to_20000000"
    : // in the select list the series streams (in FROM PostgreSQL would make all of it first)
      "select id, 'row ' || id as label from (select generate_series(1, 20000000) as id) s";
}

/** Calls `fn` until `done` holds (or `ms` passed); resolves with the last value. */
async function until<T>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A job once it ended, as the queue keeps it (its own kind, raw error, progress and metrics): waited
 * for through the job contract (`job/wait`, as `token`). The handler writes the import's end just
 * before the queue ends the job.
 */
async function jobEnd(server: TestServer, token: string, jobId: string, tenantId: string) {
  await waitJobFinal(server, token, jobId, {}, 90_000);
  return server.app.jobs.get(jobId, { tenantId });
}

/** Partial Parquet files of an import left under the server's `DATA_DIR`. */
function partialFiles(server: TestServer, importId: string): string[] {
  const dir = importTmpDir(server.config.dataDir);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.startsWith(importId)) : [];
}

/** Bytes charged to a user. */
async function usedBytes(server: TestServer, userId: string): Promise<number> {
  const row = await server.app.db.knex('storage_quotas').where({ scope: 'user', owner_id: userId }).first('used_bytes');
  return Number(row?.used_bytes ?? 0);
}

describe('columnKindOf', () => {
  it('maps server types onto dataset column kinds', () => {
    expect(columnKindOf('int(11)')).toBe('number');
    expect(columnKindOf('double precision')).toBe('number');
    expect(columnKindOf('decimal(10,2)')).toBe('number');
    expect(columnKindOf('tinyint(1)')).toBe('bool');
    expect(columnKindOf('boolean')).toBe('bool');
    expect(columnKindOf('timestamp with time zone')).toBe('datetime');
    expect(columnKindOf('varchar(20)')).toBe('string');
    expect(columnKindOf('text')).toBe('string');
  });
});

describe.each(databases)('data connections on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let ownerToken: string;
  let other: TestUser;
  let otherToken: string;
  let adminToken: string;
  let strangerToken: string;
  const sources: Partial<Record<Source['kind'], Source>> = {};

  beforeAll(async () => {
    // Connecting to the machine's MariaDB/PostgreSQL can take over the tests' default 2 s while the
    // whole suite runs on two cores; these tests are not about the time limit (security/connections is).
    server = await startTestServer(kind, { env: { CONNECTION_TIMEOUT_SECONDS: '10' } });
    owner = await createUser(server);
    ownerToken = await issueToken(server, owner);
    other = await createUser(server);
    otherToken = await issueToken(server, other);
    adminToken = await issueToken(server, await createUser(server, { roles: ['admin'] }));
    const tenant = await createTenant(server);
    strangerToken = await issueToken(server, await createUser(server, { tenantId: tenant, roles: ['admin'] }));
    // Imports run as `data.import` jobs: on the job threads (SQLite file, MariaDB) of this server.
    await server.app.startJobs();
    if (process.env.TEST_MYSQL_URL) sources.mariadb = await mariadbSource(process.env.TEST_MYSQL_URL);
    if (process.env.TEST_POSTGRES_URL) sources.postgresql = await postgresSource(process.env.TEST_POSTGRES_URL);
  });
  afterAll(async () => {
    for (const s of Object.values(sources)) await s?.drop();
    await server?.stop();
  });

  const form = async (over: Record<string, unknown> = {}) => ({
    type: 'mysql',
    name: `conn ${Math.random().toString(36).slice(2, 8)}`,
    group: 'sales',
    url: 'jdbc:mysql://127.0.0.1:3306/shop',
    username: 'reader',
    password: await encrypted(server, 'not-shown'),
    remark: 'read only',
    ...over,
  });

  it('creates, shows without the password, pages, updates and deletes', async () => {
    const created = await server.call('jobJdbcDatasource/createDataSourceLink', { token: ownerToken, body: await form({ name: 'Shop DB' }) });
    expect(created.status).toBe(200);
    const c = created.body.data;
    expect(c).toMatchObject({ name: 'Shop DB', type: 'mysql', driver: 'com.mysql.cj.jdbc.Driver', hasPassword: true, creatorId: owner.id });
    expect(JSON.stringify(created.body)).not.toContain('not-shown');
    const stored = await server.app.db.knex('data_connections').where('id', c.id).first();
    expect(stored.password_enc).toMatch(/^v1:/);
    expect(stored.password_enc).not.toContain('not-shown');

    const dup = await server.call('jobJdbcDatasource/createDataSourceLink', { token: ownerToken, body: await form({ name: 'Shop DB' }) });
    expect(dup.body.code).toBe(ErrorCode.dataSourceNameUsed);

    const page = await server.call('jobJdbcDatasource/queryListByPage', { token: ownerToken, body: { keyword: 'shop', pageSize: 10 } });
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.rows[0].id).toBe(c.id);

    const updated = await server.call('jobJdbcDatasource/updateDataSourceLink', {
      token: ownerToken,
      body: { id: c.id, type: 'mariadb', name: 'Shop DB 2', url: 'jdbc:mariadb://db.internal/shop', username: 'reader2' },
    });
    expect(updated.body.data).toMatchObject({ name: 'Shop DB 2', type: 'mariadb', username: 'reader2', hasPassword: true, group: '' });
    const detail = await server.call('jobJdbcDatasource/queryDetailById', { token: ownerToken, body: { id: c.id } });
    expect(detail.body.data.name).toBe('Shop DB 2');

    const del = await server.call('jobJdbcDatasource/deleteDataSourceLink', { token: ownerToken, body: { id: c.id } });
    expect(del.status).toBe(200);
    const gone = await server.call('jobJdbcDatasource/queryDetailById', { token: ownerToken, body: { id: c.id } });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe(ErrorCode.dataSourceNotFound);
  });

  it('rejects bad forms with field errors', async () => {
    const bad = await server.call('jobJdbcDatasource/createDataSourceLink', {
      token: ownerToken,
      headers: { 'Accept-Language': 'en-US' },
      body: await form({ name: '', url: 'mysql://x', remark: 'r'.repeat(201), type: 'oracle' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.paramInvalid);
    expect(Object.keys(bad.body.errors ?? {})).toEqual(expect.arrayContaining(['name', 'url', 'remark', 'type']));
    const mismatch = await server.call('jobJdbcDatasource/createDataSourceLink', { token: ownerToken, body: await form({ type: 'postgresql' }) });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors?.url).toBeTruthy();
    const plain = await server.call('jobJdbcDatasource/createDataSourceLink', { token: ownerToken, body: await form({ password: 'plain-text' }) });
    expect(plain.status).toBe(400);
    expect(plain.body.errors).toHaveProperty('password');
  });

  it('keeps connections to their owner, tenant admins and tenant', async () => {
    const c = (await server.call('jobJdbcDatasource/createDataSourceLink', { token: ownerToken, body: await form() })).body.data;
    expect((await server.call('jobJdbcDatasource/queryDetailById', { token: otherToken, body: { id: c.id } })).status).toBe(404);
    expect((await server.call('jobJdbcDatasource/deleteDataSourceLink', { token: otherToken, body: { id: c.id } })).status).toBe(404);
    expect((await server.call('jobJdbcDatasource/queryDetailById', { token: strangerToken, body: { id: c.id } })).status).toBe(404);
    const strangers = await server.call('jobJdbcDatasource/all', { token: strangerToken, body: {} });
    expect(strangers.body.data.map((x: { id: string }) => x.id)).not.toContain(c.id);
    expect((await server.call('jobJdbcDatasource/queryDetailById', { token: adminToken, body: { id: c.id } })).status).toBe(200);
    expect((await server.call('jobJdbcDatasource/all', { body: {} })).status).toBe(401);
  });

  it('reports an unreachable server without leaking the password', async () => {
    const body = await form({ url: 'jdbc:mysql://127.0.0.1:1/none', password: await encrypted(server, 'hush-hush') });
    const r = await server.call('jobJdbcDatasource/test', { token: ownerToken, body });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ ok: false, version: null });
    // One message for every failure, never the driver's (ECONNREFUSED); 127.0.0.1:1 is refused by the port or by the host guard.
    expect(unreachableTexts).toContain(r.body.data.error);
    expect(JSON.stringify(r.body)).not.toContain('hush-hush');
    const saved = (await server.call('jobJdbcDatasource/createDataSourceLink', { token: ownerToken, body })).body.data;
    const tables = await server.call('jobJdbcDatasource/tables', { token: ownerToken, body: { id: saved.id } });
    expect(tables.status).toBe(502);
    expect(tables.body.code).toBe(ErrorCode.dataSourceUnreachable);
  });

  describe.each(sourceKinds)('against the real %s server', (sourceKind) => {
    it('tests, lists tables and columns with the stored (encrypted) password', async () => {
      const src = sources[sourceKind]!;
      const body = await form({ type: src.kind, url: src.jdbcUrl, username: src.username, password: src.password ? await encrypted(server, src.password) : '' });
      const tested = await server.call('jobJdbcDatasource/test', { token: ownerToken, body });
      expect(tested.body.data).toMatchObject({ ok: true, error: null });
      expect(tested.body.data.version).toBeTruthy();

      const saved = (await server.call('jobJdbcDatasource/createDataSourceLink', { token: ownerToken, body })).body.data;
      const byId = await server.call('jobJdbcDatasource/test', { token: ownerToken, body: { id: saved.id } });
      expect(byId.body.data.ok).toBe(true);

      const tables = await server.call('jobJdbcDatasource/tables', { token: ownerToken, body: { id: saved.id } });
      expect(tables.status).toBe(200);
      const mine = tables.body.data.filter((t: { schema: string }) => !src.schema || t.schema === src.schema);
      expect(mine.map((t: { name: string }) => t.name)).toContain(src.table);
      if (src.kind === 'mariadb') expect(mine).toContainEqual(expect.objectContaining({ name: 'big_sales', kind: 'view' }));

      const columns = await server.call('jobJdbcDatasource/columns', { token: ownerToken, body: { id: saved.id, table: src.table, schema: src.schema } });
      expect(columns.status).toBe(200);
      const kinds = Object.fromEntries(columns.body.data.map((c: { name: string; kind: string }) => [c.name, c.kind]));
      if (src.kind === 'mariadb') expect(kinds).toEqual({ id: 'number', region: 'string', amount: 'number', sold_at: 'datetime', active: 'bool' });
      else expect(kinds).toEqual({ id: 'number', sensor: 'string', value: 'number', taken_at: 'datetime', ok: 'bool' });

      const missing = await server.call('jobJdbcDatasource/columns', { token: ownerToken, body: { id: saved.id, table: 'no_such_table', schema: src.schema } });
      expect(missing.body.code).toBe(ErrorCode.tableNotFound);

      // Import the table into a dataset in the background, then read it back.
      const started = await server.call('metadata/startImport', {
        token: ownerToken,
        body: { connectionId: saved.id, table: src.table, schema: src.schema, name: `imp ${src.kind}`.slice(0, 30), type: 'business' },
      });
      expect(started.status).toBe(200);
      expect(['waiting', 'copying']).toContain(started.body.data.state);
      await server.app.imports.settled(started.body.data.tableId);
      const status = await server.call('metadata/getCopyStatusByTableId', { token: ownerToken, body: { tableId: started.body.data.tableId } });
      expect(status.body.data).toMatchObject({ state: 'successful', rowsCopied: 2, errorCode: null });
      // It ran as a job of the queue, which kept its progress.
      expect(await jobEnd(server, ownerToken, status.body.data.jobId, owner.tenantId)).toMatchObject({ kind: 'data.import', state: 'successful', progress: 1, metrics: { rowsCopied: 2 } });
      const dataset = await server.call('table/get', { token: ownerToken, body: { tableId: status.body.data.datasetId } });
      expect(dataset.status).toBe(200);
      expect(dataset.body.data.amount).toBe(2);
      const preview = await server.call('file/previewCSV', { token: ownerToken, body: { tableId: status.body.data.datasetId } });
      const cols = preview.body.data.columns.map((c: { name: string }) => c.name);
      expect(cols).toEqual(src.kind === 'mariadb' ? ['id', 'region', 'amount', 'sold_at', 'active'] : ['id', 'sensor', 'value', 'taken_at', 'ok']);
      const firstRow = preview.body.data.rows[0];
      expect(JSON.stringify(firstRow)).toContain(src.kind === 'mariadb' ? 'north' : '"a"');

      // A query import infers its column kinds; the other user cannot see the import.
      const q = src.kind === 'mariadb' ? 'select region, amount * 2 as doubled from sales where amount is not null' : `select sensor, value * 2 as doubled from ${src.schema}.readings order by sensor`;
      const cols2 = await server.call('metadata/getColumnsByQuerySql', { token: ownerToken, body: { id: saved.id, sql: q } });
      expect(cols2.body.data.map((c: { name: string; kind: string }) => [c.name, c.kind])).toEqual([[src.kind === 'mariadb' ? 'region' : 'sensor', 'string'], ['doubled', 'number']]);
      const byQuery = await server.call('metadata/startImport', { token: ownerToken, body: { connectionId: saved.id, sql: q, name: `q ${src.kind}`, type: 'decision' } });
      await server.app.imports.settled(byQuery.body.data.tableId);
      const qStatus = await server.call('metadata/getCopyStatusByTableId', { token: ownerToken, body: { tableId: byQuery.body.data.tableId } });
      expect(qStatus.body.data).toMatchObject({ state: 'successful', rowsCopied: src.kind === 'mariadb' ? 1 : 2 });
      expect((await server.call('metadata/getCopyStatusByTableId', { token: otherToken, body: { tableId: byQuery.body.data.tableId } })).status).toBe(404);
      // The job contract follows an import like any job: its owner is the import, hidden from the other user.
      // (The import's end is written just before the queue ends its job: wait for the job's.)
      await jobEnd(server, ownerToken, qStatus.body.data.jobId, owner.tenantId);
      const followed = await server.call('job/get', { token: ownerToken, body: { jobId: qStatus.body.data.jobId } });
      expect(followed.body.data).toMatchObject({ kind: 'import', state: 'successful', final: true, owner: { type: 'import', id: byQuery.body.data.tableId }, ownerId: byQuery.body.data.tableId });
      expect((await server.call('job/get', { token: otherToken, body: { jobId: qStatus.body.data.jobId } })).body.code).toBe(ErrorCode.jobNotFound);

      // A failing import (a table that is not there) ends failed and leaves no dataset.
      const before = (await server.call('table/list', { token: ownerToken, body: { pageSize: 100 } })).body.data.total;
      const bad = await server.call('metadata/startImport', { token: ownerToken, body: { connectionId: saved.id, table: 'no_such_table', schema: src.schema, name: `bad ${src.kind}` } });
      await server.app.imports.settled(bad.body.data.tableId);
      const badStatus = await server.call('metadata/getCopyStatusByTableId', { token: ownerToken, body: { tableId: bad.body.data.tableId } });
      expect(badStatus.body.data).toMatchObject({ state: 'failed', errorCode: 'tableNotFound', datasetId: null });
      expect(await jobEnd(server, ownerToken, badStatus.body.data.jobId, owner.tenantId)).toMatchObject({ state: 'failure', error: expect.stringMatching(/Table not found/) });
      const failedJob = await server.call('job/wait', { token: ownerToken, body: { jobId: badStatus.body.data.jobId, timeoutSeconds: 0 }, headers: { 'Accept-Language': 'zh-CN' } });
      expect(failedJob.body.data).toMatchObject({ kind: 'import', state: 'failure', final: true });
      expect(failedJob.body.data.error).toMatch(new RegExp(`^${messageOf('tableNotFound', 'zh-CN')}`));
      expect((await server.call('table/list', { token: ownerToken, body: { pageSize: 100 } })).body.data.total).toBe(before);
      const writes = await server.call('metadata/startImport', { token: ownerToken, body: { connectionId: saved.id, sql: 'delete from sales', name: 'nope' } });
      expect(writes.status).toBe(400);
      const list = await server.call('metadata/getImportList', { token: ownerToken, body: {} });
      expect(list.body.data.total).toBeGreaterThanOrEqual(3);

      if (src.password) {
        const wrong = await server.call('jobJdbcDatasource/test', { token: ownerToken, body: { id: saved.id, password: await encrypted(server, 'wrong-pw') } });
        expect(wrong.body.data.ok).toBe(false);
        expect(unreachableTexts).toContain(wrong.body.data.error);
        expect(wrong.body.data.error).not.toMatch(/denied/i);
      }
    });

    it('stops a running import: no dataset, nothing charged, no partial file; only the owner, admins or editors of its project may', async () => {
      const src = sources[sourceKind]!;
      const body = await form({ type: src.kind, url: src.jdbcUrl, username: src.username, password: src.password ? await encrypted(server, src.password) : '' });
      const saved = (await server.call('jobJdbcDatasource/createDataSourceLink', { token: ownerToken, body })).body.data;
      const project = (await server.call('project/createProject', { token: ownerToken, body: { name: `imp ${Math.random().toString(36).slice(2, 8)}`, colour: 'ocean' } })).body.data.projectId as string;
      const datasetsBefore = (await server.call('table/list', { token: ownerToken, body: { pageSize: 100 } })).body.data.total;
      const bytesBefore = await usedBytes(server, owner.id);

      const started = await server.call('metadata/startImport', { token: ownerToken, body: { connectionId: saved.id, sql: longQuery(src), name: `long ${src.kind}`, type: 'business', projectId: project } });
      expect(started.status).toBe(200);
      const tableId = started.body.data.tableId as string;
      const status = () => server.call('metadata/getCopyStatusByTableId', { token: ownerToken, body: { tableId } });
      const copying = await until(status, (r) => r.body.data.state !== 'waiting' && (r.body.data.state !== 'copying' || r.body.data.rowsCopied > 0));
      expect(copying.body.data.state).toBe('copying');
      expect(copying.body.data.rowsCopied).toBeGreaterThan(0);
      const job = await server.app.jobs.get(copying.body.data.jobId, { tenantId: owner.tenantId });
      expect(job).toMatchObject({ kind: 'data.import', state: 'processing' });

      // Token, tenant, owner or project right.
      expect((await server.call('metadata/stopImport', { body: { tableId } })).status).toBe(401);
      const stranger = await server.call('metadata/stopImport', { token: strangerToken, body: { tableId } });
      expect([stranger.status, stranger.body.code]).toEqual([404, ErrorCode.tableNotFound]);
      const noRight = await server.call('metadata/stopImport', { token: otherToken, body: { tableId } });
      expect([noRight.status, noRight.body.code]).toEqual([404, ErrorCode.projectNotFound]);
      await server.call('project/createProjectPermissionsList', { token: ownerToken, body: { projectId: project, permissions: [{ subjectType: 'user', subjectId: other.id, permission: 'view' }] } });
      const viewer = await server.call('metadata/stopImport', { token: otherToken, body: { tableId } });
      expect([viewer.status, viewer.body.code]).toEqual([403, ErrorCode.projectNoRight]);
      expect((await status()).body.data.state).toBe('copying');
      await server.call('project/createProjectPermissionsList', { token: ownerToken, body: { projectId: project, permissions: [{ subjectType: 'user', subjectId: other.id, permission: 'edit' }] } });

      // An editor of the project stops it.
      const stopped = await server.call('metadata/stopImport', { token: otherToken, body: { tableId } });
      expect(stopped.status).toBe(200);
      expect(['copying', 'stopped']).toContain(stopped.body.data.state);
      const end = await server.app.imports.settled(tableId);
      expect(end).toMatchObject({ state: 'stopped', datasetId: null, errorCode: null });
      expect(end.rowsCopied).toBeLessThan(20_000_000);
      expect((await jobEnd(server, ownerToken, end.jobId!, owner.tenantId))?.state).toBe('successful by manual stop');
      expect((await server.call('table/list', { token: ownerToken, body: { pageSize: 100 } })).body.data.total).toBe(datasetsBefore);
      expect(await usedBytes(server, owner.id)).toBe(bytesBefore);
      expect(partialFiles(server, tableId)).toEqual([]);
      const listed = (await server.call('metadata/getImportList', { token: ownerToken, body: {} })).body.data.rows.find((r: { tableId: string }) => r.tableId === tableId);
      expect(listed).toMatchObject({ state: 'stopped' });

      // No longer running: its own error, in both languages.
      for (const [lang, message] of [['en-US', 'Only an import that is waiting or copying can be stopped'], ['zh-CN', '只有等待中或复制中的导入可以停止']] as const) {
        const again = await server.call('metadata/stopImport', { token: ownerToken, headers: { 'Accept-Language': lang }, body: { tableId } });
        expect([again.status, again.body.code, again.body.message]).toEqual([400, ErrorCode.importNotRunning, message]);
      }
      expect((await server.call('metadata/stopImport', { token: ownerToken, body: {} })).status).toBe(400);
    });
  });
});

const hasRedis = await redisAvailable();

/**
 * With Redis the imports run on `npm run worker` processes (`JobWorker` with the kinds of
 * `worker.ts`): a worker lost in the middle of a copy hands the import to another one, which
 * copies again from the start; after the last attempt the import fails with the queue's reason.
 */
describe.skipIf(skipWithout('redis', import.meta.url, hasRedis) || sourceKinds.length === 0)('imports on BullMQ workers', () => {
  let server: TestServer;
  let redis: ReturnType<typeof redisPrefix>;
  let owner: TestUser;
  let token: string;
  let src: Source;
  let connectionId: string;
  const workers: JobWorker[] = [];

  const startWorker = async (workerId: string) => {
    const kinds = new JobKindRegistry();
    registerWorkerJobKinds(kinds, { db: server.app.db, config: server.config, plugins: [] });
    const w = new JobWorker(new JobStore(server.app.db, systemClock), kinds, { redisUrl: testRedisUrl, prefix: redis.prefix, workerId, concurrency: 1, heartbeatMs: 200, deadAfterMs: 2000 });
    workers.push(w);
    await w.start();
    return w;
  };
  const status = (tableId: string) => server.call('metadata/getCopyStatusByTableId', { token, body: { tableId } });
  const job = (id: string) => server.app.jobs.get(id, { tenantId: owner.tenantId });
  /** Waits until attempt `n` of the import's job copies rows. */
  const copyingOn = async (tableId: string, n: number) => {
    const r = await until(
      async () => {
        const s = (await status(tableId)).body.data;
        return { s, j: s.jobId ? await job(s.jobId) : null };
      },
      ({ s, j }) => (s.state !== 'waiting' && s.state !== 'copying') || (s.state === 'copying' && s.rowsCopied > 0 && j?.attempts === n && j.state === 'processing'),
    );
    expect(r.s.state).toBe('copying');
    expect(r.j).toMatchObject({ attempts: n, state: 'processing' });
    return r;
  };

  beforeAll(async () => {
    redis = redisPrefix();
    server = await startTestServer('sqlite', { env: { REDIS_URL: testRedisUrl }, jobs: { prefix: redis.prefix } });
    await server.app.startJobs();
    owner = await createUser(server);
    token = await issueToken(server, owner);
    src = sourceKinds[0] === 'mariadb' ? await mariadbSource(process.env.TEST_MYSQL_URL!) : await postgresSource(process.env.TEST_POSTGRES_URL!);
    const body = {
      type: src.kind,
      name: 'worker source',
      url: src.jdbcUrl,
      username: src.username,
      password: src.password ? await encrypted(server, src.password) : '',
    };
    connectionId = (await server.call('jobJdbcDatasource/createDataSourceLink', { token, body })).body.data.id;
  });
  afterAll(async () => {
    for (const w of workers) await w.kill().catch(() => undefined);
    await src?.drop();
    await server?.stop();
    await redis?.clean();
  });

  it('copies on a worker; a lost worker hands the import over, a stop ends it; after the last attempt it fails with the reason', async () => {
    // No worker yet: the import waits; a stop ends it at once.
    const queued = await server.call('metadata/startImport', { token, body: { connectionId, table: src.table, schema: src.schema, name: 'never ran' } });
    expect(queued.body.data).toMatchObject({ state: 'waiting', rowsCopied: 0 });
    const unqueued = await server.call('metadata/stopImport', { token, body: { tableId: queued.body.data.tableId } });
    expect(unqueued.body.data).toMatchObject({ state: 'stopped', datasetId: null });
    expect((await job(unqueued.body.data.jobId))?.state).toBe('successful by manual stop');

    const a = await startWorker(`imp-a-${tag}`);
    const small = await server.call('metadata/startImport', { token, body: { connectionId, table: src.table, schema: src.schema, name: 'on a worker' } });
    expect(small.status).toBe(200);
    const done = await server.app.imports.settled(small.body.data.tableId);
    expect(done).toMatchObject({ state: 'successful', rowsCopied: 2 });
    expect(await jobEnd(server, token, done.jobId!, owner.tenantId)).toMatchObject({ kind: 'data.import', state: 'successful', workerId: a.workerId });

    // A worker lost in the middle: another takes the job back and copies again; a stop ends it.
    const long = (await server.call('metadata/startImport', { token, body: { connectionId, sql: longQuery(src), name: 'handed over' } })).body.data.tableId as string;
    await copyingOn(long, 1);
    await a.kill();
    expect((await status(long)).body.data.state).toBe('copying'); // nobody knows yet
    const b = await startWorker(`imp-b-${tag}`);
    const resumed = await copyingOn(long, 2);
    expect(resumed.j?.workerId).toBe(b.workerId);
    const logs = await server.app.jobs.logs(resumed.s.jobId, { tenantId: owner.tenantId });
    expect(logs?.items.map((l) => l.message)).toContain('Copying again from the start (attempt 2)');
    expect((await server.call('metadata/stopImport', { token, body: { tableId: long } })).status).toBe(200);
    expect(await server.app.imports.settled(long)).toMatchObject({ state: 'stopped', datasetId: null });
    expect(partialFiles(server, long)).toEqual([]);
    expect((await jobEnd(server, token, resumed.s.jobId, owner.tenantId))?.state).toBe('successful by manual stop');
    await b.kill();

    // Lost on every attempt: the queue gives up and the import fails with its reason.
    const doomed = (await server.call('metadata/startImport', { token, body: { connectionId, sql: longQuery(src), name: 'lost thrice' } })).body.data.tableId as string;
    for (let n = 1; n <= 3; n++) {
      const w = await startWorker(`imp-${n}-${tag}`);
      await copyingOn(doomed, n);
      await w.kill();
    }
    await startWorker(`imp-sweeper-${tag}`); // declares the last one dead
    const failed = await server.app.imports.settled(doomed, 60_000);
    expect(failed).toMatchObject({ state: 'failed', errorCode: 'importFailed', datasetId: null });
    expect(failed.error).toMatch(/stopped responding.*gave up after 3 attempts/);
    expect((await job(failed.jobId!))?.state).toBe('failure');
    expect(partialFiles(server, doomed)).toEqual([]);
    const names = (await server.call('table/list', { token, body: { pageSize: 100 } })).body.data.rows.map((d: { name: string }) => d.name);
    expect(names).toEqual(['on a worker']);
  });
});

/**
 * Embedded mode: the server's job threads copy. A restart in the middle of a copy takes the job
 * back as the queue does for any job: the restarted server copies again, never leaving the
 * import `copying` with nobody at work.
 */
describe.skipIf(sourceKinds.length === 0)('imports across a server restart (job threads)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let src: Source;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    src = sourceKinds.includes('postgresql') ? await postgresSource(process.env.TEST_POSTGRES_URL!) : await mariadbSource(process.env.TEST_MYSQL_URL!);
  });
  afterAll(async () => {
    for (const s of servers) await s.stop().catch(() => undefined);
    await src?.drop();
    await db?.drop();
  });

  it('copies again after a restart, and a stop then ends it', async () => {
    const first = await startTestServer('sqlite', { databaseUrl: db.url });
    servers.push(first);
    await first.app.startJobs();
    const owner = await createUser(first);
    const token = await issueToken(first, owner);
    const body = { type: src.kind, name: 'restart source', url: src.jdbcUrl, username: src.username, password: src.password ? await encrypted(first, src.password) : '' };
    const connectionId = (await first.call('jobJdbcDatasource/createDataSourceLink', { token, body })).body.data.id;
    const tableId = (await first.call('metadata/startImport', { token, body: { connectionId, sql: longQuery(src), name: 'restarted' } })).body.data.tableId as string;
    const copying = (s: TestServer) =>
      until(
        () => s.call('metadata/getCopyStatusByTableId', { token, body: { tableId } }),
        (r) => r.body.data.state !== 'waiting' && (r.body.data.state !== 'copying' || r.body.data.rowsCopied > 0),
      );
    const before = await copying(first);
    expect(before.body.data.state).toBe('copying');
    const jobId = before.body.data.jobId as string;
    await first.stop();

    const second = await startTestServer('sqlite', { databaseUrl: db.url });
    servers.push(second);
    await second.app.startJobs();
    // The restarted server's thread copies again (a second start of the copy in the job's log).
    const starts = async () => ((await second.app.jobs.logs(jobId, { tenantId: owner.tenantId }))?.items ?? []).filter((l) => l.message === 'Copying a query of restart source').length;
    expect(await until(starts, (n) => n >= 2)).toBe(2);
    const after = await copying(second);
    expect(after.body.data).toMatchObject({ state: 'copying', jobId });
    expect(await second.app.jobs.get(jobId, { tenantId: owner.tenantId })).toMatchObject({ state: 'processing', workerId: expect.any(String) });
    expect((await second.call('metadata/stopImport', { token, body: { tableId } })).status).toBe(200);
    expect(await second.app.imports.settled(tableId)).toMatchObject({ state: 'stopped', datasetId: null });
    expect(partialFiles(second, tableId)).toEqual([]);
  });
});
