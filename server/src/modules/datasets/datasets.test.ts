import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { writeH5, writeNpz } from '@decisio/learning';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { loadDatasetTable } from './reader';
import { datasetUseGuards, type DatasetUseGuard } from './service';

describe.each(databases)('datasets on %s', (kind) => {
  let server: TestServer;
  let alice: TestUser;
  let aliceToken: string;
  let bobToken: string;
  let strangerToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    alice = await createUser(server);
    aliceToken = await issueToken(server, alice);
    bobToken = await issueToken(server, await createUser(server));
    const other = await createTenant(server);
    strangerToken = await issueToken(server, await createUser(server, { tenantId: other }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  /**
   * Uploads bytes through the multipart calls; resolves with the file id. A dataset upload is
   * checked when it completes (upload-checks.test.ts); a general one (`purpose: 'file'`) is
   * not, so `table/create` meets its checks.
   */
  async function upload(name: string, bytes: Uint8Array, token = aliceToken, purpose: 'dataset' | 'file' = 'dataset'): Promise<string> {
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
  const text = (s: string) => new TextEncoder().encode(s);
  const create = (fileId: string, name: string, token = aliceToken, type = 'business') =>
    server.call('table/create', { token, body: { fileId, name, type } });

  it('makes a dataset from a csv: Parquet copy, columns, preview with statistics, chunks, reader', async () => {
    const rows = ['id,price,city,when'];
    for (let i = 1; i <= 250; i++) rows.push(`${i},${(i * 1.5).toFixed(1)},"c, ${i % 3}",2024-01-${String((i % 28) + 1).padStart(2, '0')}`);
    rows.push('251,,"c, 0",2024-02-01');
    const fileId = await upload('orders.csv', text(rows.join('\n') + '\n'));
    const made = await create(fileId, 'Orders 2024');
    expect(made.status).toBe(200);
    const ds = made.body.data;
    expect(ds).toMatchObject({ name: 'Orders 2024', type: 'business', fileType: 'csv', fileName: 'orders.csv', amount: 251, delimiter: ',', creatorId: alice.id });
    expect(ds.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'price', 'city', 'when']);
    expect(ds.columns[0]).toMatchObject({ kind: 'int', dataType: 'continuous', min: 1, max: 251, hidden: false });
    expect(ds.columns[1]).toMatchObject({ kind: 'float', min: 1.5, max: 375 });
    expect(ds.columns[2]).toMatchObject({ kind: 'string', dataType: 'category' });
    expect(ds.columns[3].kind).toBe('datetime');

    const preview = await server.call('file/previewCSV', { token: aliceToken, body: { tableId: ds.tableId, rows: 5 } });
    expect(preview.status).toBe(200);
    expect(preview.body.data.total).toBe(251);
    expect(preview.body.data.rows).toHaveLength(5);
    expect(preview.body.data.rows[0].slice(0, 3)).toEqual([1, 1.5, 'c, 1']);
    const price = preview.body.data.stats.find((s: { name: string }) => s.name === 'price');
    expect(price).toMatchObject({ count: 250, nulls: 1, min: 1.5, max: 375 });
    expect(price.mean).toBeCloseTo(188.25);
    const city = preview.body.data.stats.find((s: { name: string }) => s.name === 'city');
    expect(city).toMatchObject({ count: 251, nulls: 0, distinct: 3, mean: null });

    const chunk = await server.call('file/previewchunkcsv', { token: aliceToken, body: { tableId: ds.tableId, offset: 249, limit: 10 } });
    expect(chunk.body.data.rows.map((r: unknown[]) => r[0])).toEqual([250, 251]);
    expect(chunk.body.data.rows[1][1]).toBeNull();
    // The raw upload previews too (DuckDB over the csv itself).
    const raw = await server.call('file/previewchunkcsv', { token: aliceToken, body: { fileId, offset: 0, limit: 2 } });
    expect(raw.body.data.rows.map((r: unknown[]) => r[0])).toEqual([1, 2]);

    const table = await loadDatasetTable(server.app.db.knex, server.app.blobs, ds.tableId, { tenantId: alice.tenantId });
    expect(table.rows).toBe(251);
    expect(table.columns).toEqual([
      { name: 'id', type: 'number' },
      { name: 'price', type: 'number' },
      { name: 'city', type: 'string' },
      { name: 'when', type: 'string' },
    ]);
    const prices = table.column('price') as Float64Array;
    expect(prices[1]).toBe(3);
    expect(Number.isNaN(prices[250])).toBe(true);
    expect((table.column('city') as string[])[2]).toBe('c, 0');
    await expect(loadDatasetTable(server.app.db.knex, server.app.blobs, ds.tableId, { tenantId: 'f'.repeat(32) })).rejects.toMatchObject({
      codeName: 'tableNotFound',
    });
    expect((await loadDatasetTable(server.app.db.knex, server.app.blobs, ds.tableId, { limit: 3 })).rows).toBe(3);

    // Listed for its creator only; other users and tenants do not see it.
    const list = await server.call('table/list', { token: aliceToken, body: { type: 'business' } });
    expect(list.body.data.rows.map((r: { tableId: string }) => r.tableId)).toContain(ds.tableId);
    expect(list.body.data.rows[0].creatorName).toBe(alice.username);
    expect((await server.call('dataSource/queryDataSourceTableList', { token: bobToken, body: {} })).body.data.total).toBe(0);
    for (const token of [bobToken, strangerToken]) {
      const got = await server.call('table/get', { token, body: { tableId: ds.tableId } });
      expect(got.status).toBe(404);
      expect(got.body.code).toBe(ErrorCode.tableNotFound);
      expect((await server.call('file/previewCSV', { token, body: { tableId: ds.tableId } })).status).toBe(404);
      expect((await server.call('table/drop', { token, body: { tableId: ds.tableId } })).status).toBe(404);
    }
    expect((await server.call('table/get', { body: { tableId: ds.tableId } })).status).toBe(401);

    // The name is taken; the source file is in use while the dataset lives.
    const again = await create(await upload('orders2.csv', text('a,b\n1,2\n')), 'Orders 2024');
    expect(again.body.code).toBe(ErrorCode.tableNameUsed);
    expect((await server.call('file/deleteFile', { token: aliceToken, body: { fileId } })).body.code).toBe(ErrorCode.tableInUse);
    const url = await server.call('file/getDataSourceDownloadUrl', { token: aliceToken, body: { tableId: ds.tableId } });
    const dl = await server.fetch(url.body.data.url, { headers: { Authorization: aliceToken } });
    expect((await dl.text()).split('\n')[0]).toBe('id,price,city,when');

    // Field settings.
    const set = await server.call('table/setFields', {
      token: aliceToken,
      body: { tableId: ds.tableId, fields: [{ name: 'price', min: 0, max: 500 }, { name: 'city', hidden: true }, { name: 'id', dataType: 'discrete', discreteNumber: 10 }] },
    });
    expect(set.status).toBe(200);
    expect(set.body.data.columns[1]).toMatchObject({ min: 0, max: 500 });
    expect(set.body.data.columns[2].hidden).toBe(true);
    expect(set.body.data.columns[0]).toMatchObject({ dataType: 'discrete', discreteNumber: 10 });
    const badRange = await server.call('table/setFields', { token: aliceToken, body: { tableId: ds.tableId, fields: [{ name: 'price', min: 5, max: 5 }] } });
    expect(badRange.status).toBe(400);
    expect(badRange.body.errors).toHaveProperty(['fields.0.max']);
    const badCount = await server.call('table/setFields', { token: aliceToken, body: { tableId: ds.tableId, fields: [{ name: 'id', discreteNumber: 1.5 }] } });
    expect(badCount.status).toBe(400);
    const noValues = await server.call('table/setFields', { token: aliceToken, body: { tableId: ds.tableId, fields: [{ name: 'city', dataType: 'category', values: [] }] } });
    expect(noValues.status).toBe(400);
    const none = await server.call('table/setFields', { token: aliceToken, body: { tableId: ds.tableId, fields: [] } });
    expect(none.status).toBe(400);
    const unknown = await server.call('table/setFields', { token: aliceToken, body: { tableId: ds.tableId, fields: [{ name: 'nope', hidden: true }] } });
    expect(unknown.body.code).toBe(ErrorCode.tableFieldsMismatch);
    const values = await server.call('metadata/getColumnsValue', { token: aliceToken, body: { tableId: ds.tableId, column: 'city' } });
    expect(values.body.data.values).toHaveLength(3);

    // In use by a solution's data access: refused until the correlation no longer names it.
    await server.app.db.knex('modelling_patterns').insert({
      solution_id: 'c'.repeat(32),
      tenant_id: alice.tenantId,
      correlation: JSON.stringify({ primaryTableId: ds.tableId }),
      updated_at: new Date(),
    });
    const inUse = await server.call('table/drop', { token: aliceToken, body: { tableId: ds.tableId } });
    expect(inUse.status).toBe(400);
    expect(inUse.body.code).toBe(ErrorCode.tableInUse);
    await server.app.db.knex('modelling_patterns').where({ solution_id: 'c'.repeat(32) }).delete();

    // Delete: the Parquet copy goes and its space is freed; the source file can then go too.
    const used = (await server.call('file/getFreeSpace', { token: aliceToken })).body.data.usedBytes as number;
    const parquet = Number((await server.app.db.knex('datasets').where({ id: ds.tableId }).first('columnar_size')).columnar_size);
    expect(await server.app.blobs.stat(`u/${alice.id}/ds/${ds.tableId}.parquet`)).toEqual({ size: parquet });
    expect((await server.call('table/drop', { token: aliceToken, body: { tableId: ds.tableId } })).status).toBe(200);
    expect((await server.call('file/getFreeSpace', { token: aliceToken })).body.data.usedBytes).toBe(used - parquet);
    expect(await server.app.blobs.stat(`u/${alice.id}/ds/${ds.tableId}.parquet`)).toBeNull();
    expect((await server.call('table/get', { token: aliceToken, body: { tableId: ds.tableId } })).status).toBe(404);
    expect((await server.call('file/deleteFile', { token: aliceToken, body: { fileId } })).status).toBe(200);
  });

  it('rejects csv files with the spec messages and leaves no dataset', async () => {
    const cases: [string, string, number][] = [
      ['dup.csv', 'a,b,A\n1,2,3\n', ErrorCode.tableRepeatedColumns],
      ['semi.csv', 'a;b;c\n1;2;3\n4;5;6\n', ErrorCode.tableFileFormatError],
      ['tab.csv', 'a\tb\n1\t2\n', ErrorCode.tableFileFormatError],
      ['header.csv', 'a,b\n', ErrorCode.datasetEmpty],
      ['blank.csv', '\n\n  \n', ErrorCode.datasetEmpty],
      ['ragged.csv', 'a,b\n1,2\n3,4,5\n', ErrorCode.tableFileFormatError],
      ['long.csv', `${'x'.repeat(51)},b\n1,2\n`, ErrorCode.tableParamError],
      ['chars.csv', 'a$,b\n1,2\n', ErrorCode.tableParamError],
      ['noname.csv', 'a,,c\n1,2,3\n', ErrorCode.tableParamError],
    ];
    let n = 0;
    for (const [name, body, code] of cases) {
      const fileId = await upload(name, text(body), aliceToken, 'file');
      const r = await create(fileId, `bad ${n++}`);
      expect([name, r.status, r.body.code]).toEqual([name, 400, code]);
    }
    const dup = await create(await upload('dup2.csv', text('x,y,x\n1,2,3\n'), aliceToken, 'file'), 'dup');
    expect(dup.body.errors).toEqual({ columns: 'x' });
    const semi = await create(await upload('semi2.csv', text('a;b\n1;2\n'), aliceToken, 'file'), 'semi');
    expect(semi.body.errors).toEqual({ delimiter: ';' });
    const gbk = await create(await upload('gbk.csv', new Uint8Array([0x61, 0x2c, 0x62, 0x0a, 0xc4, 0xe3, 0x2c, 0x31, 0x0a]), aliceToken, 'file'), 'gbk');
    expect(gbk.body.code).toBe(ErrorCode.tableFileFormatError);
    // A file that is not csv/npz/h5 by name cannot become a dataset.
    const init = await server.call('file/uploadpartinit', { token: aliceToken, body: { name: 'x.txt', size: 3, purpose: 'file' } });
    await server.fetch(`/api/file/uploadOneFile?uploadId=${init.body.data.uploadId}&partNumber=1`, {
      method: 'PUT',
      headers: { Authorization: aliceToken },
      body: 'a,b',
    });
    const txt = await server.call('file/uploadPartComplete', { token: aliceToken, body: { uploadId: init.body.data.uploadId } });
    expect((await create(txt.body.data.fileId, 'txt')).body.code).toBe(ErrorCode.tableFileFormatError);

    expect(await server.app.db.knex('datasets').where({ user_id: alice.id }).whereRaw("name like 'bad%'")).toHaveLength(0);
    const leftovers = (await import('node:fs')).readdirSync(server.app.blobs.pathOf(`u/${alice.id}/ds`));
    expect(leftovers).toEqual([]);
  });

  it('validates the request: name up to 30, type, a file of the caller', async () => {
    const fileId = await upload('ok.csv', text('a,b\n1,2\n'));
    const long = await create(fileId, 'n'.repeat(31));
    expect(long.status).toBe(400);
    expect(long.body.errors).toHaveProperty('name');
    const type = await create(fileId, 'ok', aliceToken, 'other');
    expect(type.body.errors).toHaveProperty('type');
    const foreign = await create(fileId, 'mine', bobToken);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe(ErrorCode.fileNotFound);
    expect((await create(fileId, 'theirs', strangerToken)).status).toBe(404);
    expect((await server.call('table/create', { body: { fileId, name: 'x', type: 'business' } })).status).toBe(401);
    const ok = await create(fileId, 'n'.repeat(30), aliceToken, 'simulation');
    expect(ok.status).toBe(200);
    expect(ok.body.data.type).toBe('simulation');
    expect((await create(fileId, 'second')).body.code).toBe(ErrorCode.tableInUse);
  });

  it('a refused creation deletes the file uploaded for it (each retry would add a copy against the quota); a taken name keeps it for another name; a general file stays', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const csv = text('a,b\n1,2\n');
    expect((await create(await upload('good.csv', csv, token), 'good', token)).body.code).toBe(0);
    const usage = async () => {
      const files = await server.call('file/fileItemList', { token, body: { page: 1, pageSize: 100 } });
      return { names: (files.body.data.rows as { name: string }[]).map((f) => f.name), used: (await server.call('file/getFreeSpace', { token })).body.data.usedBytes as number };
    };
    const before = await usage();
    expect(before.names).toEqual(['good.csv']);
    // A taken name keeps the upload: the same file becomes a dataset under another name.
    const again = await upload('good.csv', csv, token);
    const taken = await create(again, 'GOOD', token);
    expect([taken.status, taken.body.code]).toEqual([400, ErrorCode.tableNameUsed]);
    expect((await create(again, 'good 2', token)).body.code).toBe(0);
    // No right on the project named: the upload goes with the refusal, every time.
    const withSecond = await usage();
    const foreignProject = await server.call('project/createProject', { token: aliceToken, body: { name: `not carol's ${newId().slice(0, 6)}`, colour: 'ocean' } });
    for (let i = 0; i < 2; i++) {
      const fileId = await upload('p.csv', csv, token);
      const refused = await server.call('table/create', { token, body: { fileId, name: 'p', type: 'business', projectId: foreignProject.body.data.projectId } });
      expect(refused.body.code).toBe(ErrorCode.projectNotFound);
      expect(await usage()).toEqual(withSecond);
    }
    // A file uploaded as a general file (storage) is the user's to keep.
    const general = await upload('kept.csv', csv, token, 'file');
    expect((await create(general, 'good', token)).body.code).toBe(ErrorCode.tableNameUsed);
    expect((await usage()).names).toContain('kept.csv');
    // The file a dataset was made from is never removed by another refused creation.
    const made = (await server.call('table/list', { token, body: { page: 1, pageSize: 10 } })).body.data.rows[0] as { tableId: string };
    const source = await server.call('file/getDataSourceDownloadUrl', { token, body: { tableId: made.tableId } });
    expect(source.body.data.name).toBe('good.csv');
  });

  it('ingests npz and h5 arrays, REVIVE index as a trajectory column', async () => {
    const obs = { dtype: 'f4', shape: [4, 2], data: new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]) };
    const act = { dtype: 'f8', shape: [4], data: new Float64Array([0.5, 1.5, 2.5, 3.5]) };
    const index = { dtype: 'i8', shape: [2], data: new BigInt64Array([1n, 4n]) };
    const npz = await create(await upload('traj.npz', writeNpz({ obs, act, index } as never)), 'npz set', aliceToken, 'decision');
    expect(npz.status).toBe(200);
    expect(npz.body.data).toMatchObject({ fileType: 'npz', amount: 4, delimiter: null });
    expect(npz.body.data.columns.map((c: { name: string }) => c.name)).toEqual(['trajectory', 'obs_0', 'obs_1', 'act']);
    const t = await loadDatasetTable(server.app.db.knex, server.app.blobs, npz.body.data.tableId);
    expect(Array.from(t.column('trajectory') as Float64Array)).toEqual([0, 1, 1, 1]);
    expect(Array.from(t.column('obs_1') as Float64Array)).toEqual([2, 4, 6, 8]);

    const h5 = await create(await upload('traj.h5', await writeH5({ obs, act } as never)), 'h5 set');
    expect(h5.status).toBe(200);
    expect(h5.body.data).toMatchObject({ fileType: 'h5', amount: 4 });
    const preview = await server.call('file/previewCSV', { token: aliceToken, body: { tableId: h5.body.data.tableId } });
    expect(preview.body.data.rows[3]).toEqual(expect.arrayContaining([7, 8, 3.5]));

    const broken = await create(await upload('broken.npz', text('not a zip at all'), aliceToken, 'file'), 'broken');
    expect(broken.body.code).toBe(ErrorCode.tableFileFormatError);
    const mismatch = await create(
      await upload('mismatch.npz', writeNpz({ obs, act: { dtype: 'f8', shape: [3], data: new Float64Array(3) } } as never), aliceToken, 'file'),
      'mismatch',
    );
    expect(mismatch.body.code).toBe(ErrorCode.tableFileFormatError);
  });

  it("lists a project's datasets, any member's, to whoever may view the project, and nothing of theirs from elsewhere", async () => {
    const carol = await createUser(server);
    const carolToken = await issueToken(server, carol);
    const project = await server.call('project/createProject', { token: aliceToken, body: { name: `shared ${newId().slice(0, 6)}`, colour: 'ocean' } });
    const projectId = project.body.data.projectId as string;
    const grant = await server.call('project/createProjectPermissionsList', {
      token: aliceToken,
      body: { projectId, permissions: [{ subjectType: 'user', subjectId: carol.id, permission: 'view' }] },
    });
    expect(grant.status).toBe(200);
    const tag = newId().slice(0, 6);
    const inside = await server.call('table/create', { token: aliceToken, body: { fileId: await upload(`in-${tag}.csv`, text('a,b\n1,2\n')), name: `inside ${tag}`, type: 'business', projectId } });
    expect(inside.body.code).toBe(0);
    expect((await create(await upload(`out-${tag}.csv`, text('a,b\n1,2\n')), `outside ${tag}`)).body.code).toBe(0);
    expect((await create(await upload(`c-${tag}.csv`, text('a,b\n1,2\n'), carolToken), `carol ${tag}`, carolToken)).body.code).toBe(0);

    const names = (r: { body: { data: { rows: { name: string }[] } } }) => r.body.data.rows.map((d) => d.name);
    const asCarol = await server.call('table/list', { token: carolToken, body: { page: 1, pageSize: 100, projectId } });
    expect(asCarol.status).toBe(200);
    expect(names(asCarol)).toEqual([`inside ${tag}`]);
    expect(asCarol.body.data.rows[0]).toMatchObject({ tableId: inside.body.data.tableId, projectId, creatorName: alice.username });
    expect(names(await server.call('dataSource/queryDataSourceTableList', { token: aliceToken, body: { page: 1, pageSize: 100, projectId } }))).toEqual([`inside ${tag}`]);
    // Without a project: the caller's own datasets.
    expect(names(await server.call('table/list', { token: carolToken, body: { page: 1, pageSize: 100 } }))).toEqual([`carol ${tag}`]);
    // No right on the project, another tenant, no token, a malformed id.
    expect((await server.call('table/list', { token: bobToken, body: { page: 1, pageSize: 100, projectId } })).body.code).toBe(ErrorCode.projectNotFound);
    expect((await server.call('table/list', { token: strangerToken, body: { page: 1, pageSize: 100, projectId } })).body.code).toBe(ErrorCode.projectNotFound);
    expect((await server.call('table/list', { body: { page: 1, pageSize: 100, projectId } })).status).toBe(401);
    expect((await server.call('table/list', { token: carolToken, body: { page: 0, pageSize: 100, projectId } })).status).toBe(400);
  });

  it('refuses to delete a dataset a stored environment was updated with, naming the environment', async () => {
    const project = await server.call('project/createProject', { token: aliceToken, body: { name: `env data ${newId().slice(0, 6)}`, colour: 'ocean' } });
    expect(project.body.code).toBe(0);
    const projectId = project.body.data.projectId as string;
    const make = async (name: string) => {
      const fileId = await upload(`${name}.csv`, text('x,decision_a,outcome_x\n1,2,3\n'));
      const made = await server.call('table/create', { token: aliceToken, body: { fileId, name, type: 'business', projectId } });
      expect(made.body.code).toBe(0);
      return made.body.data.tableId as string;
    };
    const trainedOn = await make('calls trained');
    const queued = await make('calls queued');
    const free = await make('calls free');
    // A trained environment as `train/createTrainUpdate` leaves it: the artefact names the
    // datasets its last training appended; the config names those of the update queued since.
    const knex = server.app.db.knex;
    const simId = newId();
    const artifactKey = `u/${alice.id}/modelling/simulators/${simId}`;
    await server.app.blobs.put(`${artifactKey}/venv.json`, Buffer.from(JSON.stringify({ format: 'decisio.venv', algorithm: 'bc', seed: 0, hidden: [8], schemeId: 'e'.repeat(32), score: null, weights: {}, extraDatasetIds: [trainedOn] })));
    const now = new Date();
    await knex('simulators').insert({
      id: simId,
      tenant_id: alice.tenantId,
      project_id: projectId,
      solution_id: 'd'.repeat(32),
      name: 'env-calls',
      algorithm: 'bc',
      job_id: null,
      state: 'successful',
      config: JSON.stringify({ stopConditions: { system: true }, hyperparameters: {}, datasetIds: [queued] }),
      scheme_id: 'e'.repeat(32),
      score: null,
      artifact_key: artifactKey,
      creator_id: alice.id,
      created_at: now,
      updated_at: now,
    });
    for (const tableId of [trainedOn, queued]) {
      const refused = await server.call('table/drop', { token: aliceToken, body: { tableId } });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: ErrorCode.tableInUse, errors: { environment: 'env-calls' } });
      expect((await server.call('table/get', { token: aliceToken, body: { tableId } })).body.code).toBe(0);
      expect(await server.app.blobs.stat(`u/${alice.id}/ds/${tableId}.parquet`)).not.toBeNull();
    }
    expect((await server.call('table/drop', { token: aliceToken, body: { tableId: free } })).status).toBe(200);

    // Trained again without them: the artefact and the config no longer name them, so they can go.
    await server.app.blobs.put(`${artifactKey}/venv.json`, Buffer.from(JSON.stringify({ format: 'decisio.venv', schemeId: 'e'.repeat(32), weights: {}, extraDatasetIds: [] })));
    await knex('simulators').where({ id: simId }).update({ config: JSON.stringify({ stopConditions: { system: true }, hyperparameters: {} }) });
    for (const tableId of [trainedOn, queued]) expect((await server.call('table/drop', { token: aliceToken, body: { tableId } })).status).toBe(200);
    await knex('simulators').where({ id: simId }).delete();
    await server.app.blobs.removePrefix(artifactKey);

    // A deleted project's environments and data access are never loaded again: they hold nothing.
    const solutionId = newId();
    await knex('solutions').insert({ id: solutionId, tenant_id: alice.tenantId, project_id: projectId, name: 'sol', data_type: 'data_driven', goal_type: 'policy_search', creator_id: alice.id, created_at: now, updated_at: now });
    const lastData = await make('calls of a deleted project');
    await knex('simulators').insert({
      id: newId(),
      tenant_id: alice.tenantId,
      project_id: projectId,
      solution_id: solutionId,
      name: 'env-2',
      algorithm: 'bc',
      job_id: null,
      state: 'successful',
      config: JSON.stringify({ datasetIds: [lastData] }),
      scheme_id: 'e'.repeat(32),
      score: null,
      artifact_key: null,
      creator_id: alice.id,
      created_at: now,
      updated_at: now,
    });
    await knex('modelling_patterns').insert({ solution_id: solutionId, tenant_id: alice.tenantId, correlation: JSON.stringify({ primaryTableId: lastData }), updated_at: now });
    expect((await server.call('table/drop', { token: aliceToken, body: { tableId: lastData } })).body.code).toBe(ErrorCode.tableInUse);
    expect((await server.call('project/deleteProject', { token: aliceToken, body: { projectId } })).body.code).toBe(0);
    expect((await server.call('table/drop', { token: aliceToken, body: { tableId: lastData } })).status).toBe(200);
  });

  it('a delete and an environment update naming the dataset at once: whichever comes second is refused', async () => {
    const knex = server.app.db.knex;
    const project = await server.call('project/createProject', { token: aliceToken, body: { name: `race ${newId().slice(0, 6)}`, colour: 'ocean' } });
    expect(project.body.code).toBe(0);
    const projectId = project.body.data.projectId as string;
    const now = new Date();
    const solutionId = newId();
    await knex('solutions').insert({ id: solutionId, tenant_id: alice.tenantId, project_id: projectId, name: 'sol', data_type: 'data_driven', goal_type: 'policy_search', creator_id: alice.id, created_at: now, updated_at: now });
    /** A trained environment (its job over) that `train/createTrainUpdate` accepts; no job runs here, so an update stays queued. */
    const environment = async () => {
      const jobId = newId();
      await knex('jobs').insert({ id: jobId, tenant_id: alice.tenantId, user_id: alice.id, kind: 'modelling.environment', name: 'env', state: 'successful', payload: '{}', created_at: now, updated_at: now });
      const id = newId();
      await knex('simulators').insert({ id, tenant_id: alice.tenantId, project_id: projectId, solution_id: solutionId, name: `env-${id.slice(0, 6)}`, algorithm: 'bc', job_id: jobId, state: 'successful', config: '{}', scheme_id: newId(), score: null, artifact_key: null, creator_id: alice.id, created_at: now, updated_at: now });
      return id;
    };
    const make = async (name: string) => {
      const fileId = await upload(`${name}.csv`, text('x,decision_a,outcome_x\n1,2,3\n'));
      const made = await server.call('table/create', { token: aliceToken, body: { fileId, name, type: 'business', projectId } });
      expect(made.body.code).toBe(0);
      return made.body.data.tableId as string;
    };
    const drop = (tableId: string) => server.call('table/drop', { token: aliceToken, body: { tableId } });
    const update = (id: string, tableId: string) => server.call('train/createTrainUpdate', { token: aliceToken, body: { id, kind: 'environment', hyperparameters: { epochs: 1 }, datasetIds: [tableId] } });
    const configOf = async (id: string) => JSON.parse((await knex('simulators').where({ id }).first('config')).config as string) as { datasetIds?: string[] };
    type Query = { sql: string; bindings?: unknown[] };
    /** Resolves once a statement matching `sql` and naming `id` is sent. */
    const sent = (sql: RegExp, id: string) =>
      new Promise<void>((resolve) => {
        const listener = (q: Query) => {
          if (!sql.test(q.sql) || !(q.bindings ?? []).includes(id)) return;
          knex.off('query', listener);
          resolve();
        };
        knex.on('query', listener);
      });
    /**
     * Resolves once `call` has settled, or waits on the database: it sent a `FOR UPDATE` naming
     * `id` (MariaDB), or asked for the one SQLite connection while a transaction holds it.
     */
    const settledOrWaiting = (call: Promise<unknown>, id: string) =>
      new Promise<void>((resolve) => {
        const pool = (knex.client as { pool: { numPendingAcquires(): number } }).pool;
        const locking = (q: Query) => {
          if (/for update/i.test(q.sql) && (q.bindings ?? []).includes(id)) done();
        };
        const poll = setInterval(() => {
          if (kind === 'sqlite' && pool.numPendingAcquires() > 0) done();
        }, 5);
        function done() {
          knex.off('query', locking);
          clearInterval(poll);
          resolve();
        }
        knex.on('query', locking);
        void call.then(done, done);
      });

    // The update first: the delete comes between its check of the dataset and its config write
    // (held there on MariaDB by a lock on the environment's row): it waits, then finds it named.
    const named = await make('named by an update');
    const first = await environment();
    const hold = kind === 'mysql' ? await knex.transaction() : null;
    if (hold) await hold('simulators').where({ id: first }).forUpdate().first('id');
    const writing = sent(/^update [`"]simulators[`"]/i, first);
    const updating = update(first, named);
    await writing;
    const dropping = drop(named);
    await settledOrWaiting(dropping, named);
    await hold?.commit();
    expect((await updating).body.code).toBe(0);
    expect((await dropping).body).toMatchObject({ code: ErrorCode.tableInUse, errors: { environment: expect.stringMatching(/^env-/) } });
    expect((await server.call('table/get', { token: aliceToken, body: { tableId: named } })).body.code).toBe(0);
    expect((await configOf(first)).datasetIds).toEqual([named]);
    expect((await drop(named)).body.code).toBe(ErrorCode.tableInUse); // and while the update is queued

    // The delete first: the update comes while its in-use checks run (a guard of this test): it
    // waits, then finds no dataset.
    const gone = await make('deleted first');
    const second = await environment();
    let late: Promise<Awaited<ReturnType<typeof update>>> | null = null;
    const guard: DatasetUseGuard = async (_deps, dataset) => {
      if (dataset.id !== gone || late) return null;
      late = update(second, gone);
      await settledOrWaiting(late, gone);
      return null;
    };
    datasetUseGuards.push(guard);
    try {
      expect((await drop(gone)).status).toBe(200);
    } finally {
      datasetUseGuards.splice(datasetUseGuards.indexOf(guard), 1);
    }
    expect(late).not.toBeNull();
    expect((await late!).body.code).toBe(ErrorCode.tableNotFound);
    expect((await configOf(second)).datasetIds).toBeUndefined();
    expect((await server.call('train/getTrainUpdateListPage', { token: aliceToken, body: { id: second, kind: 'environment' } })).body.data.total).toBe(0);
    expect((await update(second, gone)).body.code).toBe(ErrorCode.tableNotFound); // and after it
  });

  it('refuses a dataset whose columnar copy does not fit in the quota', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const lines = ['a,b'];
    for (let i = 0; i < 2000; i++) lines.push(`${i},${Math.random()}`);
    const csv = text(lines.join('\n'));
    const fileId = await upload('q.csv', csv, token);
    // Shrink the quota to what the upload uses.
    await server.app.db.knex('storage_quotas').where({ scope: 'user', owner_id: user.id }).update({ total_bytes: csv.length });
    const r = await create(fileId, 'q', token);
    expect(r.body.code).toBe(ErrorCode.storageInsufficient);
    expect(await server.app.db.knex('datasets').where({ user_id: user.id })).toHaveLength(0);
    // The upload made for it went with the refusal (the dialog uploads the file again on a retry).
    expect((await server.call('file/getFreeSpace', { token })).body.data.usedBytes).toBe(0);
  });
});
