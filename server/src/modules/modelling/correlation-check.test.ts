import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { createSolution, uploadCsv } from './testing';

/** `solution/setTableCorrelation` applies the data-access rules on the server, in the caller's language. */
describe.each(databases)('table correlation rules on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let otherToken: string;
  let solutionId: string;
  let orders: string;
  let customers: string;
  let theirs: string;

  async function dataset(user: TestUser, userToken: string, name: string, csv: string): Promise<string> {
    const fileId = await uploadCsv(server, user, csv);
    await server.app.db.knex('storage_files').where({ id: fileId }).update({ name: `${name}.csv` });
    const made = await server.call('table/create', { token: userToken, body: { fileId, name, type: 'business' } });
    expect(made.status).toBe(200);
    return made.body.data.tableId as string;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = await createUser(server);
    token = await issueToken(server, owner);
    const other = await createUser(server);
    otherToken = await issueToken(server, other);
    ({ solutionId } = await createSolution(server, owner));
    orders = await dataset(owner, token, 'orders', 'traj,step,time,customer_id\n1,1,2026-01-01,7\n');
    customers = await dataset(owner, token, 'customers', 'id,region\n7,north\n');
    theirs = await dataset(other, otherToken, 'theirs', 'id,secret\n7,x\n');
  });
  afterAll(async () => {
    await server?.stop();
  });

  const set = (correlation: Record<string, unknown>, locale = 'en-US') =>
    server.call('solution/setTableCorrelation', { token, body: { solutionId, correlation: { trajectoryField: 'traj', sequenceField: 'step', ...correlation } }, headers: { 'Accept-Language': locale } });

  it('stores a correlation that keeps the rules; the datetime field may be left out', async () => {
    const ok = await set({ primaryTableId: orders, datetimeField: 'time', relations: [{ from: orders, fromField: 'customer_id', to: customers, toField: 'id' }] });
    expect(ok.body.code).toBe(0);
    expect((await set({ primaryTableId: orders })).body.code).toBe(0);
    // An uploaded csv file of the caller is a table too (its header gives the columns).
    const file = await uploadCsv(server, owner, 'traj,step,x\n1,1,0.5\n');
    expect((await set({ primaryTableId: file })).body.code).toBe(0);
  });

  it('refuses fields that are not columns, unconnected tables and tables the caller cannot read, naming each place', async () => {
    const fields = await set({ primaryTableId: orders, sequenceField: 'region', datetimeField: 'nope' });
    expect(fields.body.code).toBe(ErrorCode.paramInvalid);
    expect(fields.body.errors).toEqual({
      'correlation.sequenceField': "The field does not match the table's columns",
      'correlation.datetimeField': "The field does not match the table's columns",
    });
    const loose = await set({ primaryTableId: orders, relations: [{ from: customers, fromField: 'id', to: customers, toField: 'id' }] }, 'zh-CN');
    expect(loose.body.errors).toEqual({ 'correlation.relation.0': '请关联两张不同的表', 'correlation.table.1': '每张表都必须关联' });
    // Another user's dataset (same tenant, no shared project) reads as a table without structure.
    const foreign = await set({ primaryTableId: orders, relations: [{ from: orders, fromField: 'customer_id', to: theirs, toField: 'id' }] });
    expect(Object.keys(foreign.body.errors ?? {}).sort()).toEqual(['correlation.relation.0.toField', 'correlation.table.1']);
    const missing = await set({ primaryTableId: 'f'.repeat(32) });
    expect(missing.body.errors).toMatchObject({ 'correlation.primary': expect.any(String) });
    // What was stored before is unchanged.
    const got = await server.call('solution/getTableCorrelation', { token, body: { solutionId } });
    expect(got.body.data.correlation.primaryTableId).not.toBe('f'.repeat(32));
    expect((await server.call('solution/setTableCorrelation', { token: otherToken, body: { solutionId, correlation: { primaryTableId: theirs, trajectoryField: 'id', sequenceField: 'id' } } })).status).toBe(404);
  });
});
