/**
 * Data-connection probes, each a real attack of a plain signed-up user against a real server
 * (SECURITY.md "User-given hosts"): no connection test, saved connection or import reaches the
 * server's own machine, its network or the metadata service (the product's MariaDB as root was
 * the finding) unless `CONNECTION_ALLOW` names the host; a failure never carries the driver's
 * text and every kind of failure answers alike (same code, message and time), so the test is
 * no port scanner; an allowed outside database is reached read-only, with a row and a time
 * limit; the driver connects to the address the guard checked, not to the name again.
 */
import net from 'node:net';
import os from 'node:os';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, messageOf } from '@decisio/domain';
import { connectorOptions, isReadOnlySession, isStatementTimeout, RemoteConnectError, withRemote, type RemoteTarget } from '../../src/modules/connections/connector';
import { HostGuard } from '../../src/net/host-guard';
import { encrypted, encryptedPassword, PASSWORD, signUpBody, unique, waitJobFinal } from '../../src/test/factories';
import { databases, startTestServer, testConnectionAllow, type TestServer } from '../../src/test/server';
import { skipWithout } from '../../src/test/services';

/** Anything of a driver, a resolver or the guard that must never reach a user. */
const LEAK = /ECONN|EHOST|ENET|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_|getaddrinfo|Access denied|authentication|ER_[A-Z_]+|SQLSTATE|handshake|refused|timed? ?out|socket|unknown database|does not exist|127\.0\.0\.1|::1|169\.254|10\.0\.0\.1|loopback|linkLocal|private|HostRefused/i;
const UNREACHABLE = [messageOf('dataSourceUnreachable', 'zh-CN'), messageOf('dataSourceUnreachable', 'en-US')];
const CONNECT_MS = 1000;

const mysqlUrl = process.env.TEST_MYSQL_URL ? new URL(process.env.TEST_MYSQL_URL) : null;
const pgUrl = process.env.TEST_POSTGRES_URL ? new URL(process.env.TEST_POSTGRES_URL) : null;
/** The product's own MariaDB as its root user: what the attacker went for. */
const rootUser = mysqlUrl ? decodeURIComponent(mysqlUrl.username) || 'root' : 'root';
const rootPassword = mysqlUrl ? decodeURIComponent(mysqlUrl.password) : '';

/** A plain user who signed up through the API; resolves with the access token. */
async function signedUp(server: TestServer): Promise<string> {
  const body = await signUpBody(server);
  const up = await server.call('index/signUp', { body });
  expect(up.body.code).toBe(0);
  const inn = await server.call('index/signIn', { body: { username: body.username, password: await encryptedPassword(server, PASSWORD) } });
  expect(inn.body.code).toBe(0);
  return inn.body.data.accessToken as string;
}

async function form(server: TestServer, url: string, extra: Record<string, unknown> = {}) {
  return {
    type: url.startsWith('jdbc:postgresql') ? 'postgresql' : 'mysql',
    name: `probe ${unique()}`,
    url,
    username: rootUser,
    password: rootPassword ? await encrypted(server, rootPassword) : '',
    ...extra,
  };
}

async function datasetCount(server: TestServer, token: string): Promise<number> {
  return (await server.call('table/list', { token, body: { pageSize: 100 } })).body.data.total as number;
}

async function importEnd(server: TestServer, token: string, tableId: string) {
  await server.app.imports.settled(tableId, 60_000);
  return (await server.call('metadata/getCopyStatusByTableId', { token, body: { tableId } })).body.data;
}

/**
 * The import's job once it has ended: the import row settles ({@link importEnd}) before the job
 * runner records the job's end, so it is followed with `job/wait` (the job contract's own wait,
 * woken by the job's events) to a final state as the user sees it, then read as stored.
 */
async function endedJob(server: TestServer, token: string, jobId: string, tenantId: string) {
  const { last: seen } = await waitJobFinal(server, token, jobId, {}, 60_000);
  return { seen, job: await server.app.jobs.get(jobId, { tenantId }) };
}

/** A TCP port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A TCP server on 127.0.0.1 doing `onConnection` with each socket. */
async function tcpServer(onConnection: (socket: net.Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const s = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    port: (s.address() as net.AddressInfo).port,
    close: async () => {
      for (const x of sockets) x.destroy();
      await new Promise((r) => s.close(r));
    },
  };
}

describe.each(databases)('user-given hosts of data connections on %s', (kind) => {
  describe('without CONNECTION_ALLOW', () => {
    let server: TestServer;
    let token: string;
    beforeAll(async () => {
      server = await startTestServer(kind, { env: { CONNECTION_ALLOW: '', CONNECTION_TIMEOUT_SECONDS: String(CONNECT_MS / 1000) } });
      await server.app.startJobs();
      token = await signedUp(server);
    });
    afterAll(async () => {
      await server?.stop();
    });

    // The product's own database (as root), its PostgreSQL, the metadata service, the private
    // network, and the same loopback written every other way.
    const db = mysqlUrl ? mysqlUrl.pathname.slice(1) || 'mysql' : 'mysql';
    const probes = [
      `jdbc:mysql://127.0.0.1:3306/${db}`,
      `jdbc:mariadb://localhost:3306/${db}`,
      `jdbc:mysql://[::1]:3306/${db}`,
      `jdbc:mysql://[::ffff:127.0.0.1]:3306/${db}`,
      `jdbc:mysql://0x7f000001:3306/${db}`,
      `jdbc:mysql://2130706433:3306/${db}`,
      `jdbc:mysql://0177.0.0.1:3306/${db}`,
      `jdbc:mysql://127.1:3306/${db}`,
      `jdbc:mysql://0.0.0.0:3306/${db}`,
      `jdbc:mysql://${os.hostname()}:3306/${db}`,
      'jdbc:mysql://169.254.169.254:80/latest',
      'jdbc:mysql://[fd00:ec2::254]:80/latest',
      'jdbc:mysql://10.0.0.1:3306/mysql',
      'jdbc:mysql://192.168.0.1:3306/mysql',
      'jdbc:postgresql://127.0.0.1:5432/postgres',
      'jdbc:postgresql://localhost:5432/test',
    ];

    it('refuses every probe in the connection test, with the one message and no driver text', async () => {
      const replies = await Promise.all(probes.map(async (url) => ({ url, r: await server.call('jobJdbcDatasource/test', { token, body: await form(server, url) }) })));
      for (const { url, r } of replies) {
        expect(r.status, url).toBe(200);
        expect(r.body.data, url).toEqual({ ok: false, version: null, latencyMs: 0, error: expect.any(String) });
        expect(UNREACHABLE, url).toContain(r.body.data.error);
        expect(JSON.stringify(r.body), url).not.toMatch(LEAK);
      }
    });

    it('refuses every probe as a saved connection: tables, columns, query columns and imports (no dataset)', async () => {
      const before = await datasetCount(server, token);
      const saved: { url: string; id: string }[] = [];
      for (const url of probes) {
        const c = await server.call('jobJdbcDatasource/createDataSourceLink', { token, body: await form(server, url) });
        expect(c.body.code, url).toBe(0);
        saved.push({ url, id: c.body.data.id });
      }
      const calls = await Promise.all(
        saved.flatMap(({ url, id }) => [
          server.call('jobJdbcDatasource/tables', { token, body: { id } }).then((r) => ({ url, r })),
          server.call('metadata/getColumns', { token, body: { id, table: 'users' } }).then((r) => ({ url, r })),
          server.call('metadata/getColumnsByQuerySql', { token, body: { id, sql: 'select password_hash from users' } }).then((r) => ({ url, r })),
        ]),
      );
      for (const { url, r } of calls) {
        expect(r.status, url).toBe(502);
        expect(r.body.code, url).toBe(ErrorCode.dataSourceUnreachable);
        expect(r.body.data, url).toBeNull();
        expect(JSON.stringify(r.body), url).not.toMatch(LEAK);
      }
      // The finding: users.password_hash of the product's own database imported into a dataset.
      const started = await Promise.all(
        saved.map(async ({ url, id }) => {
          const r = await server.call('metadata/startImport', { token, body: { connectionId: id, sql: 'select username, password_hash from users', name: 'loot' } });
          expect(r.body.code, url).toBe(0);
          return { url, tableId: r.body.data.tableId as string };
        }),
      );
      for (const { url, tableId } of started) {
        const end = await importEnd(server, token, tableId);
        expect(end, url).toMatchObject({ state: 'failed', errorCode: 'dataSourceUnreachable', datasetId: null, rowsCopied: 0 });
        expect(JSON.stringify(end), url).not.toMatch(LEAK);
        const { tenant_id: tenantId } = (await server.app.db.knex('data_imports').where('id', tableId).first('tenant_id')) as { tenant_id: string };
        const { seen, job } = await endedJob(server, token, end.jobId, tenantId);
        expect(seen, url).toMatchObject({ state: 'failure', final: true });
        expect(JSON.stringify(seen), url).not.toMatch(LEAK);
        expect(job?.state, url).toBe('failure');
        expect(String(job?.error), url).not.toMatch(LEAK);
      }
      expect(await datasetCount(server, token)).toBe(before);
    }, 180_000);
  });

  describe.skipIf(skipWithout('mysql', import.meta.url))('with CONNECTION_ALLOW naming the test databases', () => {
    let server: TestServer;
    let token: string;
    beforeAll(async () => {
      server = await startTestServer(kind, { env: { CONNECTION_ALLOW: `${testConnectionAllow()},127.0.0.1/32`, CONNECTION_TIMEOUT_SECONDS: String(CONNECT_MS / 1000) } });
      token = await signedUp(server);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('reaches the same MariaDB that was refused without it (the probe above would work)', async () => {
      const r = await server.call('jobJdbcDatasource/test', { token, body: await form(server, `jdbc:mysql://127.0.0.1:${mysqlUrl!.port || 3306}/`) });
      expect(r.body.data).toMatchObject({ ok: true, error: null });
      expect(r.body.data.version).toBeTruthy();
    });

    it('answers a refused port, a silent one, a wrong protocol, a wrong password, an unknown database, a refused host and an unknown name alike', async () => {
      const silent = await tcpServer(() => undefined);
      const garbage = await tcpServer((s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
      const port = mysqlUrl!.port || '3306';
      const cases: [string, Record<string, unknown>][] = [
        [`jdbc:mysql://127.0.0.1:${await closedPort()}/x`, {}],
        [`jdbc:mysql://127.0.0.1:${silent.port}/x`, {}],
        [`jdbc:mysql://127.0.0.1:${garbage.port}/x`, {}],
        [`jdbc:mysql://127.0.0.1:${port}/`, { password: await encrypted(server, 'not-the-password') }],
        [`jdbc:mysql://127.0.0.1:${port}/no_such_db_${unique()}`, {}],
        ['jdbc:mysql://10.0.0.1:3306/x', {}],
        ['jdbc:mysql://no-such-host.invalid:3306/x', {}],
      ];
      const seen: { url: string; ms: number; data: unknown; tables: { status: number; code: number; message: string } }[] = [];
      try {
        for (const [url, extra] of cases) {
          const body = await form(server, url, extra);
          const t0 = performance.now();
          const r = await server.call('jobJdbcDatasource/test', { token, body });
          const ms = performance.now() - t0;
          const saved = await server.call('jobJdbcDatasource/createDataSourceLink', { token, body });
          const tables = await server.call('jobJdbcDatasource/tables', { token, body: { id: saved.body.data.id } });
          expect(JSON.stringify(r.body) + JSON.stringify(tables.body), url).not.toMatch(LEAK);
          seen.push({ url, ms, data: r.body.data, tables: { status: tables.status, code: tables.body.code, message: tables.body.message } });
        }
      } finally {
        await silent.close();
        await garbage.close();
      }
      // The same answer, to the character, for every case.
      for (const s of seen) {
        expect(s.data, s.url).toEqual(seen[0]!.data);
        expect(s.tables, s.url).toEqual(seen[0]!.tables);
      }
      expect(seen[0]!.tables.status).toBe(502);
      expect(UNREACHABLE).toContain((seen[0]!.data as { error: string }).error);
      // And at the same time: every failure waits out the connect time (was 7 ms refused vs 10 s silent).
      const times = seen.map((s) => s.ms);
      for (const s of seen) expect(s.ms, s.url).toBeGreaterThanOrEqual(CONNECT_MS - 20);
      expect(Math.max(...times) - Math.min(...times), JSON.stringify(seen.map((s) => [s.url, Math.round(s.ms)]))).toBeLessThan(600);
    });
  });

  const sources = [
    ...(skipWithout('mysql', import.meta.url) ? [] : (['mariadb'] as const)),
    ...(skipWithout('postgres', import.meta.url) ? [] : (['postgresql'] as const)),
  ];

  describe.each(sources)('an allowed %s is read-only, with a row and a time limit', (source) => {
    const tag = unique().replace(/[^a-z0-9]/gi, '').toLowerCase().slice(-10);
    const my = source === 'mariadb';
    const scratch = my ? `decisio_sec_${tag}` : `sec_${tag}`;
    let admin: Knex;
    let server: TestServer;
    let limited: TestServer;
    let token: string;
    let limitedToken: string;
    let jdbcUrl: string;
    let target: RemoteTarget;
    const q = (name: string) => (my ? `\`${scratch}\`.${name}` : `${scratch}.${name}`);
    const rows = async () => Number(((await admin.raw(`select count(*) as n from ${q('t')}`)) as any)[my ? 0 : 'rows'][0].n);

    beforeAll(async () => {
      const u = (my ? mysqlUrl : pgUrl)!;
      admin = knexFactory(
        my
          ? { client: 'mysql2', connection: { host: u.hostname, port: Number(u.port || 3306), user: rootUser, password: rootPassword, multipleStatements: false }, pool: { min: 0, max: 1 } }
          : { client: 'pg', connection: u.toString(), pool: { min: 0, max: 1 } },
      );
      if (my) {
        await admin.raw(`create database \`${scratch}\``);
        await admin.raw(`create table ${q('t')} (id int primary key, v varchar(20))`);
        await admin.raw(`create table ${q('many')} (id int primary key)`);
        await admin.raw(`create function ${q('bump')}() returns int modifies sql data begin insert into ${q('t')} values (99, 'bumped'); return 1; end`);
      } else {
        await admin.raw(`create schema ${scratch}`);
        await admin.raw(`create table ${q('t')} (id int primary key, v varchar(20))`);
        await admin.raw(`create table ${q('many')} (id int primary key)`);
        await admin.raw(`create function ${q('bump')}() returns int language sql volatile as $$ insert into ${q('t')} values (99, 'bumped') returning 1 $$`);
      }
      await admin.raw(`insert into ${q('t')} values (1, 'a'), (2, 'b'), (3, 'c')`);
      await admin.raw(`insert into ${q('many')} values ${Array.from({ length: 10 }, (_, i) => `(${i + 1})`).join(', ')}`);
      jdbcUrl = my ? `jdbc:mysql://${u.hostname}:${u.port || 3306}/${scratch}` : `jdbc:postgresql://${u.hostname}:${u.port || 5432}${u.pathname}`;
      target = { type: my ? 'mysql' : 'postgresql', url: jdbcUrl, database: '', username: my ? rootUser : decodeURIComponent(u.username), password: my ? rootPassword : decodeURIComponent(u.password) };
      server = await startTestServer(kind);
      limited = await startTestServer(kind, { env: { IMPORT_MAX_ROWS: '5', IMPORT_TIMEOUT_MINUTES: '0.05' } });
      await server.app.startJobs();
      await limited.app.startJobs();
      token = await signedUp(server);
      limitedToken = await signedUp(limited);
    });
    afterAll(async () => {
      await server?.stop();
      await limited?.stop();
      await admin?.raw(my ? `drop database if exists \`${scratch}\`` : `drop schema if exists ${scratch} cascade`).catch(() => undefined);
      await admin?.destroy();
    });

    const saveOn = async (s: TestServer, tok: string) => {
      const body = { type: target.type, name: `src ${unique()}`, url: jdbcUrl, username: target.username, password: target.password ? await encrypted(s, target.password) : '' };
      const r = await s.call('jobJdbcDatasource/createDataSourceLink', { token: tok, body });
      expect(r.body.code).toBe(0);
      return r.body.data.id as string;
    };

    it('imports a table (the allowed server works), but a query calling a writing function changes nothing', async () => {
      const id = await saveOn(server, token);
      const ok = await server.call('metadata/startImport', { token, body: { connectionId: id, table: 't', ...(my ? {} : { schema: scratch }), name: 'fine' } });
      expect(await importEnd(server, token, ok.body.data.tableId)).toMatchObject({ state: 'successful', rowsCopied: 3 });

      const bump = my ? 'select bump() as b' : `select ${scratch}.bump() as b`;
      const write = await server.call('metadata/startImport', { token, body: { connectionId: id, sql: bump, name: 'bump' } });
      const end = await importEnd(server, token, write.body.data.tableId);
      expect(end).toMatchObject({ state: 'failed', errorCode: 'importFailed', datasetId: null });
      expect(JSON.stringify(end)).not.toMatch(LEAK);
      const preview = await server.call('metadata/getColumnsByQuerySql', { token, body: { id, sql: bump } });
      expect(preview.status).toBe(400);
      expect(preview.body.code).toBe(ErrorCode.tableParamError);
      expect(JSON.stringify(preview.body)).not.toMatch(LEAK);
      expect(await rows()).toBe(3);
    });

    it('runs no second statement and writes no file: a table name with ; DROP, several statements, INTO OUTFILE', async () => {
      const id = await saveOn(server, token);
      const dropName = my ? 't`; drop table t; --' : 't"; drop table t; --';
      const named = await server.call('metadata/startImport', { token, body: { connectionId: id, table: dropName, ...(my ? {} : { schema: scratch }), name: 'drop' } });
      expect(await importEnd(server, token, named.body.data.tableId)).toMatchObject({ state: 'failed', errorCode: 'tableNotFound', datasetId: null });
      for (const sql of [
        `select 1; drop table ${q('t')}`,
        `select * from ${q('t')} into outfile '/tmp/decisio_${tag}'`,
        `select * from ${q('t')} /*!50000 into */ /**/ dumpfile '/tmp/decisio_${tag}'`,
        `delete from ${q('t')}`,
      ]) {
        const r = await server.call('metadata/startImport', { token, body: { connectionId: id, sql, name: 'no' } });
        expect(r.status, sql).toBe(400);
        expect(r.body.code, sql).toBe(ErrorCode.tableParamError);
      }
      expect(await rows()).toBe(3);
    });

    it('opens read-only sessions: the session says so and a write on the same connection fails', async () => {
      const options = connectorOptions({ guard: new HostGuard(testConnectionAllow()) });
      await withRemote(target, options, async (db) => {
        expect(await isReadOnlySession(db, target.type)).toBe(true);
        await expect(db.raw(`insert into ${q('t')} values (50, 'w')`)).rejects.toThrow(/read.only/i);
        await expect(db.raw(`update ${q('t')} set v = 'w'`)).rejects.toThrow(/read.only/i);
        await expect(db.raw(my ? `select ${q('bump')}() as b` : `select ${q('bump')}() as b`)).rejects.toThrow(/read.only/i);
      });
      expect(await rows()).toBe(3);
    });

    it('limits statements on the outside server too', async () => {
      const options = connectorOptions({ guard: new HostGuard(testConnectionAllow()), queryMs: 500 });
      const t0 = performance.now();
      const err = await withRemote(target, options, (db) => db.raw(my ? 'select sleep(5) as s' : 'select pg_sleep(5)')).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).not.toBeNull();
      expect(isStatementTimeout(err)).toBe(true);
      expect(performance.now() - t0).toBeLessThan(4000);
    });

    it('connects to the address the guard checked, never to the name again (DNS rebinding)', async () => {
      const u = (my ? mysqlUrl : pgUrl)!;
      let lookups = 0;
      // A name only the guard's resolver knows: were the driver to look it up again, it would fail.
      const lookup = async () => {
        lookups += 1;
        const address = net.isIP(u.hostname) ? u.hostname : '127.0.0.1';
        return [{ address, family: net.isIP(address) === 6 ? 6 : 4 }];
      };
      const guard = new HostGuard('db.rebind.invalid', lookup);
      const rebound = { ...target, url: jdbcUrl.replace(`//${u.hostname}:`, '//db.rebind.invalid:') };
      const version = await withRemote(rebound, connectorOptions({ guard }), (db) => db.raw('select version() as v'));
      expect(version).toBeTruthy();
      expect(lookups).toBe(1);
      // Without the name in the allow list the same resolver answer is refused.
      const refused = await withRemote(rebound, connectorOptions({ guard: new HostGuard('', lookup), connectMs: 200 }), async () => 1).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RemoteConnectError);
    });

    it('fails an import over IMPORT_MAX_ROWS (importTooManyRows, no dataset) and one over IMPORT_TIMEOUT_MINUTES (importTimeout)', async () => {
      const id = await saveOn(limited, limitedToken);
      const before = await datasetCount(limited, limitedToken);
      const big = await limited.call('metadata/startImport', { token: limitedToken, body: { connectionId: id, table: 'many', ...(my ? {} : { schema: scratch }), name: 'big' } });
      const bigEnd = await importEnd(limited, limitedToken, big.body.data.tableId);
      expect(bigEnd).toMatchObject({ state: 'failed', errorCode: 'importTooManyRows', datasetId: null });
      const small = await limited.call('metadata/startImport', { token: limitedToken, body: { connectionId: id, table: 't', ...(my ? {} : { schema: scratch }), name: 'small' } });
      expect(await importEnd(limited, limitedToken, small.body.data.tableId)).toMatchObject({ state: 'successful', rowsCopied: 3 });

      const t0 = performance.now();
      const slow = await limited.call('metadata/startImport', { token: limitedToken, body: { connectionId: id, sql: my ? 'select sleep(30) as s' : 'select pg_sleep(30) as s', name: 'slow' } });
      const slowEnd = await importEnd(limited, limitedToken, slow.body.data.tableId);
      expect(slowEnd).toMatchObject({ state: 'failed', errorCode: 'importTimeout', datasetId: null });
      expect(performance.now() - t0).toBeLessThan(20_000);
      expect(await datasetCount(limited, limitedToken)).toBe(before + 1);
    });
  });
});
