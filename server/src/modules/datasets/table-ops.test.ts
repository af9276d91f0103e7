import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import knexFactory from 'knex';
import { ErrorCode, TABLE_DATA_READS_PER_WINDOW, TABLE_DATA_WINDOW_MS } from '@decisio/domain';
import { createTenant, createUser, encrypted, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { skipWithout } from '../../test/services';

/**
 * `table/filter`, `table/getAccessKey`, `table/append`, `table/updateTableFileUrl` on both
 * metadata databases; `table/copyTableToDataSource` into the machine's MariaDB and PostgreSQL.
 */
describe.each(databases)('table calls on %s', (kind) => {
  let server: TestServer;
  let alice: TestUser;
  let aliceToken: string;
  let bobToken: string;
  let strangerToken: string;
  let now = Date.now();

  beforeAll(async () => {
    server = await startTestServer(kind, { clock: { now: () => new Date(now) } });
    alice = await createUser(server);
    aliceToken = await issueToken(server, alice);
    bobToken = await issueToken(server, await createUser(server));
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const text = (s: string) => new TextEncoder().encode(s);
  async function upload(name: string, body: string, token = aliceToken, purpose: 'dataset' | 'file' = 'dataset'): Promise<string> {
    const bytes = text(body);
    const init = await server.call('file/uploadpartinit', { token, body: { name, size: bytes.length, purpose } });
    expect(init.status).toBe(200);
    const uploadId = init.body.data.uploadId as string;
    const put = await server.fetch(`/api/file/uploadOneFile?uploadId=${uploadId}&partNumber=1`, {
      method: 'PUT',
      headers: { Authorization: token, 'Content-Type': 'application/octet-stream' },
      body: bytes as unknown as BodyInit,
    });
    expect(put.status).toBe(200);
    const done = await server.call('file/uploadPartComplete', { token, body: { uploadId } });
    expect(done.status).toBe(200);
    return done.body.data.fileId as string;
  }
  async function dataset(name: string, csv: string): Promise<{ tableId: string; fileId: string }> {
    const fileId = await upload(`${name}.csv`, csv);
    const made = await server.call('table/create', { token: aliceToken, body: { fileId, name, type: 'business' } });
    expect(made.status).toBe(200);
    return { tableId: made.body.data.tableId, fileId };
  }
  const used = async (token = aliceToken) => Number((await server.call('file/getFreeSpace', { token })).body.data.usedBytes);

  it('filters rows by conditions, with order, columns and paging; checks fields and values', async () => {
    const rows = ['id,price,city'];
    for (let i = 1; i <= 30; i++) rows.push(`${i},${i % 5 === 0 ? '' : (i * 2).toFixed(1)},${['Paris', 'Lyon', 'Nice'][i % 3]}`);
    const { tableId } = await dataset('Filtered', rows.join('\n'));
    const call = (body: Record<string, unknown>, token = aliceToken) => server.call('table/filter', { token, body: { tableId, ...body } });

    const big = await call({ conditions: [{ field: 'price', op: 'gt', value: 40 }], orderBy: { field: 'id', desc: true }, limit: 3 });
    expect(big.status).toBe(200);
    // price 2i > 40 -> i in 21..30 without 25 and 30 (no price): 8 rows.
    expect(big.body.data.total).toBe(8);
    expect(big.body.data.rows.map((r: unknown[]) => r[0])).toEqual([29, 28, 27]);

    const some = await call({
      conditions: [
        { field: 'city', op: 'in', value: ['Lyon', 'Nice'] },
        { field: 'price', op: 'isNull' },
      ],
      columns: ['id'],
    });
    expect(some.body.data.columns).toEqual([{ name: 'id', type: 'BIGINT' }]);
    expect(some.body.data.rows.map((r: unknown[]) => r[0]).sort((a: number, b: number) => a - b)).toEqual([5, 10, 20, 25]);

    const word = await call({ conditions: [{ field: 'city', op: 'contains', value: 'AR' }, { field: 'id', op: 'le', value: 6 }] });
    expect(word.body.data.rows.map((r: unknown[]) => r[0])).toEqual([3, 6]);
    const page2 = await call({ conditions: [{ field: 'id', op: 'ge', value: '25' }], offset: 4, limit: 10 });
    expect(page2.body.data).toMatchObject({ total: 6, offset: 4 });
    expect(page2.body.data.rows.map((r: unknown[]) => r[0])).toEqual([29, 30]);

    expect((await call({ conditions: [{ field: 'nope', op: 'eq', value: 1 }] })).body).toMatchObject({ code: ErrorCode.tableFieldsMismatch });
    expect((await call({ conditions: [{ field: 'price', op: 'eq', value: 'cheap' }] })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call({ conditions: [{ field: 'price', op: 'in', value: 3 }] })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call({ conditions: [{ field: 'price', op: 'isNull', value: 3 }] })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call({}, bobToken)).body.code).toBe(ErrorCode.tableNotFound);
    expect((await call({}, strangerToken)).body.code).toBe(ErrorCode.tableNotFound);
    const anonymous = await server.call('table/filter', { body: { tableId } });
    expect(anonymous.status).toBe(401);
  });

  it('gives an access key that reads the data as Parquet or csv without signing in, until it expires', async () => {
    const { tableId } = await dataset('Keyed', 'a,b\n1,x\n2,y\n');
    const key = await server.call('table/getAccessKey', { token: aliceToken, body: { tableId, ttlSeconds: 120 } });
    expect(key.status).toBe(200);
    const { accessKey, url, csvUrl, expiresAt } = key.body.data;
    expect(new Date(expiresAt).getTime()).toBe(now + 120_000);
    const parquet = await server.fetch(url);
    expect(parquet.status).toBe(200);
    const bytes = new Uint8Array(await parquet.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe('PAR1');
    const csv = await server.fetch(csvUrl);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect((await csv.text()).trim().split('\n')).toEqual(['a,b', '1,x', '2,y']);

    // A changed key, another user's dataset and no key all fail.
    const forged = accessKey.slice(0, -4) + (accessKey.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const bad = await server.fetch(`/api/table/data?accessKey=${encodeURIComponent(forged)}`);
    expect((await bad.json()).code).toBe(ErrorCode.accessKeyFailed);
    expect((await (await server.fetch('/api/table/data')).json()).code).toBe(ErrorCode.accessKeyFailed);
    expect((await server.call('table/getAccessKey', { token: bobToken, body: { tableId } })).body.code).toBe(ErrorCode.tableNotFound);
    expect((await server.call('table/getAccessKey', { token: aliceToken, body: { tableId, ttlSeconds: 5 } })).body.code).toBe(ErrorCode.paramInvalid);

    now += 121_000;
    const late = await server.fetch(url);
    expect((await late.json()).code).toBe(ErrorCode.accessKeyFailed);
  });

  it('revokes every access key issued so far (owner only); a key issued afterwards reads again', async () => {
    now += 61_000; // a fresh read window
    const { tableId } = await dataset('Revoked', 'a\n1\n');
    const first = (await server.call('table/getAccessKey', { token: aliceToken, body: { tableId } })).body.data;
    const second = (await server.call('table/getAccessKey', { token: aliceToken, body: { tableId } })).body.data;
    expect((await server.fetch(first.csvUrl)).status).toBe(200);

    expect((await server.call('table/revokeAccessKeys', { token: bobToken, body: { tableId } })).body.code).toBe(ErrorCode.tableNotFound);
    expect((await server.call('table/revokeAccessKeys', { token: strangerToken, body: { tableId } })).body.code).toBe(ErrorCode.tableNotFound);
    expect((await server.call('table/revokeAccessKeys', { body: { tableId } })).status).toBe(401);
    expect((await server.call('table/revokeAccessKeys', { token: aliceToken, body: {} })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await server.fetch(second.csvUrl)).status).toBe(200);

    const revoked = await server.call('table/revokeAccessKeys', { token: aliceToken, body: { tableId } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.tableId).toBe(tableId);
    for (const key of [first, second]) {
      const refused = await server.fetch(key.csvUrl);
      expect((await refused.json()).code).toBe(ErrorCode.accessKeyFailed);
    }
    const third = (await server.call('table/getAccessKey', { token: aliceToken, body: { tableId } })).body.data;
    expect((await (await server.fetch(third.csvUrl)).text()).trim()).toBe('a\n1');
  });

  it('counts the reads of an address: past the window\'s reads it answers tooManyRequests, even for a bad key', async () => {
    now += 61_000; // a fresh read window
    const { tableId } = await dataset('Scraped', 'a\n1\n');
    const { url } = (await server.call('table/getAccessKey', { token: aliceToken, body: { tableId } })).body.data;
    for (let i = 0; i < TABLE_DATA_READS_PER_WINDOW - 1; i++) expect((await server.fetch(url)).status).toBe(200);
    // The last read of the window is a guess: it is counted too.
    expect((await (await server.fetch('/api/table/data?accessKey=tak1.guess')).json()).code).toBe(ErrorCode.accessKeyFailed);
    const limited = await server.fetch(url);
    expect(limited.status).toBe(429);
    expect((await limited.json()).code).toBe(ErrorCode.tooManyRequests);
    now += TABLE_DATA_WINDOW_MS + 1;
    expect((await server.fetch(url)).status).toBe(200);
  });

  it('appends the rows of another upload with the same columns; refuses other columns and keeps the data', async () => {
    const { tableId } = await dataset('Growing', 'id,price,city\n1,10,Paris\n2,20,Lyon\n3,30,Nice\n');
    const before = await used();
    // Same columns in another order.
    const more = await upload('more.csv', 'city,id,price\nRome,4,5\nOslo,5,45\n');
    const appended = await server.call('table/append', { token: aliceToken, body: { tableId, fileId: more } });
    expect(appended.status).toBe(200);
    expect(appended.body.data.amount).toBe(5);
    expect(appended.body.data.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'price', 'city']);
    expect(appended.body.data.columns[1]).toMatchObject({ min: 5, max: 45 });
    const rows = await server.call('table/filter', { token: aliceToken, body: { tableId, orderBy: { field: 'id' } } });
    expect(rows.body.data.rows).toEqual([
      [1, 10, 'Paris'],
      [2, 20, 'Lyon'],
      [3, 30, 'Nice'],
      [4, 5, 'Rome'],
      [5, 45, 'Oslo'],
    ]);
    // The Parquet copy grew and the quota follows it (the upload itself is charged as a file).
    const after = await used();
    expect(after).toBeGreaterThan(before);

    const missing = await upload('missing.csv', 'id,price\n6,60\n');
    const refused = await server.call('table/append', { token: aliceToken, body: { tableId, fileId: missing } });
    expect(refused.body).toMatchObject({ code: ErrorCode.tableFieldsMismatch, errors: { missing: 'city' } });
    const words = await upload('words.csv', 'id,price,city\n7,cheap,Rome\n');
    const typed = await server.call('table/append', { token: aliceToken, body: { tableId, fileId: words } });
    expect(typed.body).toMatchObject({ code: ErrorCode.tableFieldsMismatch, errors: { types: 'price' } });
    const same = await server.call('table/get', { token: aliceToken, body: { tableId } });
    expect(same.body.data.amount).toBe(5);
    expect(await used()).toBe(after + 0 + (await sizeOf([missing, words])));

    // Only its creator changes a dataset; another tenant does not see it.
    expect((await server.call('table/append', { token: bobToken, body: { tableId, fileId: more } })).body.code).toBe(ErrorCode.tableNotFound);
    expect((await server.call('table/append', { token: strangerToken, body: { tableId, fileId: more } })).body.code).toBe(ErrorCode.tableNotFound);
    expect((await server.call('table/append', { token: aliceToken, body: { tableId } })).body.code).toBe(ErrorCode.paramInvalid);
  });

  async function sizeOf(fileIds: string[]): Promise<number> {
    let n = 0;
    for (const fileId of fileIds) n += Number((await server.app.db.knex('storage_files').where({ id: fileId }).first('size')).size);
    return n;
  }

  it('replaces the data with another upload (updateTableFileUrl): the new file becomes the source', async () => {
    const { tableId, fileId } = await dataset('Replaced', 'id,price\n1,10\n2,20\n');
    const next = await upload('next.csv', 'price,id\n7,8\n9,10\n11,12\n');
    const replaced = await server.call('table/updateTableFileUrl', { token: aliceToken, body: { tableId, fileId: next } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({ amount: 3, fileName: 'next.csv' });
    expect(replaced.body.data.columns[1]).toMatchObject({ name: 'price', min: 7, max: 11 });
    // The old source file is free to delete now; the new one is in use.
    expect((await server.call('file/deleteFile', { token: aliceToken, body: { fileId } })).status).toBe(200);
    expect((await server.call('file/deleteFile', { token: aliceToken, body: { fileId: next } })).body.code).toBe(ErrorCode.tableInUse);
    // A file another dataset was made from cannot become this one's source.
    const other = await dataset('Other', 'id,price\n1,1\n');
    expect((await server.call('table/updateTableFileUrl', { token: aliceToken, body: { tableId, fileId: other.fileId } })).body.code).toBe(ErrorCode.tableInUse);
    // (A dataset upload would be refused as empty when it completes; a general file reaches the call.)
    const empty = await upload('empty.csv', 'id,price\n', aliceToken, 'file');
    expect((await server.call('table/updateTableFileUrl', { token: aliceToken, body: { tableId, fileId: empty } })).body.code).toBe(ErrorCode.datasetEmpty);
    expect((await server.call('table/get', { token: aliceToken, body: { tableId } })).body.data.amount).toBe(3);
  });

  describe.skipIf(skipWithout('mysql', import.meta.url))('copy to a MariaDB data connection', () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const db = `decisio_out_${tag}`;
    let admin: ReturnType<typeof knexFactory>;
    let url: URL;
    beforeAll(async () => {
      url = new URL(process.env.TEST_MYSQL_URL!);
      admin = knexFactory({ client: 'mysql2', connection: { host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }, pool: { min: 0, max: 1 } });
      await admin.raw(`create database \`${db}\``);
      for (const host of ['%', 'localhost']) {
        await admin.raw(`create user 'w_${tag}'@'${host}' identified by 'Pw-${tag}-1'`);
        await admin.raw(`grant select, create, insert, drop on \`${db}\`.* to 'w_${tag}'@'${host}'`);
        await admin.raw(`create user 'r_${tag}'@'${host}' identified by 'Pw-${tag}-2'`);
        await admin.raw(`grant select on \`${db}\`.* to 'r_${tag}'@'${host}'`);
      }
    });
    afterAll(async () => {
      await admin.raw(`drop database if exists \`${db}\``);
      for (const host of ['%', 'localhost']) {
        await admin.raw(`drop user if exists 'w_${tag}'@'${host}'`);
        await admin.raw(`drop user if exists 'r_${tag}'@'${host}'`);
      }
      await admin.destroy();
    });
    async function connection(user: string, password: string): Promise<string> {
      const made = await server.call('jobJdbcDatasource/createDataSourceLink', {
        token: aliceToken,
        body: { type: 'mariadb', name: `out ${user}`, url: `jdbc:mariadb://${url.hostname}:${url.port || 3306}/${db}`, username: user, password: await encrypted(server, password) },
      });
      expect(made.status).toBe(200);
      return made.body.data.id as string;
    }

    it('writes every row into a new table, never over an existing one, and leaves nothing when refused', async () => {
      const { tableId } = await dataset(`Out ${tag}`, 'id,price,city,when\n1,1.5,Paris,2024-01-02\n2,,Lyon,2024-02-03\n3,3.5,Nice,2024-03-04\n');
      const writer = await connection(`w_${tag}`, `Pw-${tag}-1`);
      const copied = await server.call('table/copyTableToDataSource', { token: aliceToken, body: { tableId, dataSourceId: writer, targetTable: 'sales_copy' } });
      expect(copied.status).toBe(200);
      expect(copied.body.data).toMatchObject({ rows: 3, targetTable: 'sales_copy' });
      const rows = await admin(`${db}.sales_copy`).orderBy('id').select('id', 'price', 'city');
      expect(rows.map((r: { id: number; price: number | null; city: string }) => [Number(r.id), r.price, r.city])).toEqual([
        [1, 1.5, 'Paris'],
        [2, null, 'Lyon'],
        [3, 3.5, 'Nice'],
      ]);
      const again = await server.call('table/copyTableToDataSource', { token: aliceToken, body: { tableId, dataSourceId: writer, targetTable: 'sales_copy' } });
      expect(again.body.code).toBe(ErrorCode.tableNameUsed);
      expect(await admin(`${db}.sales_copy`).count({ n: '*' })).toEqual([{ n: 3 }]);

      const reader = await connection(`r_${tag}`, `Pw-${tag}-2`);
      const refused = await server.call('table/copyTableToDataSource', { token: aliceToken, body: { tableId, dataSourceId: reader, targetTable: 'not_mine' } });
      expect(refused.body.code).toBe(ErrorCode.tableCopyFailed);
      expect(await admin.schema.withSchema(db).hasTable('not_mine')).toBe(false);

      expect((await server.call('table/copyTableToDataSource', { token: aliceToken, body: { tableId, dataSourceId: writer, targetTable: 'bad name;' } })).body.code).toBe(ErrorCode.paramInvalid);
      expect((await server.call('table/copyTableToDataSource', { token: bobToken, body: { tableId, dataSourceId: writer, targetTable: 'x1' } })).body.code).toBe(ErrorCode.tableNotFound);
    });
  });
});
