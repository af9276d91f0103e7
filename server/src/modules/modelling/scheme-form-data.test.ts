import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { createSolution, uploadCsv } from './testing';

/**
 * What the scheme and hyperparameter forms start from (issue 17 item 6): the fields and date
 * range of a template project's data (`solution/getTableCorrelation` with `withTable`), and
 * hyperparameter sets checked against the algorithm's schema on the server.
 */
describe.each(databases)('scheme form data and hyperparameter sets on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let strangerToken: string;
  const call = (name: string, body: unknown, as = token, locale = 'en-US') => server.call(name, { token: as, body, headers: { 'Accept-Language': locale } });

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = await createUser(server);
    token = await issueToken(server, owner);
    strangerToken = await issueToken(server, await createUser(server));
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Uploads a csv through the multipart calls and makes it a dataset; its id. */
  async function dataset(name: string, csv: string): Promise<string> {
    const bytes = new TextEncoder().encode(csv);
    const init = await call('file/uploadpartinit', { name: `${name}.csv`, size: bytes.length, purpose: 'dataset' });
    const uploadId = init.body.data.uploadId as string;
    const put = await server.fetch(`/api/file/uploadOneFile?uploadId=${uploadId}&partNumber=1`, { method: 'PUT', headers: { Authorization: token, 'Content-Type': 'application/octet-stream' }, body: bytes as unknown as BodyInit });
    expect(put.status).toBe(200);
    const fileId = (await call('file/uploadPartComplete', { uploadId })).body.data.fileId as string;
    const made = await call('table/create', { fileId, name, type: 'business' });
    expect(made.body.code).toBe(0);
    return made.body.data.tableId as string;
  }

  /** A template-shaped table (the electric template's layout): 4 rooms x 12 steps of 15 minutes from 2026-01-01 00:00 UTC. */
  const roomsCsv = () => {
    const lines = ['room,step,time,obs_temp,power_action,next_obs_temp'];
    for (let r = 1; r <= 4; r++) for (let k = 0; k < 12; k++) lines.push(`${r},${k},${new Date(Date.UTC(2026, 0, 1) + k * 900_000).toISOString()},${(4 + r + k / 10).toFixed(2)},${(k % 3) / 2},${(4 + r + (k + 1) / 10).toFixed(2)}`);
    return lines.join('\n') + '\n';
  };

  it('describes a solution\'s data: its fields (joined tables included) and the datetime field\'s range over every row', async () => {
    const { solutionId } = await createSolution(server, owner);
    const datasetId = await dataset('Cold room history', roomsCsv());
    const correlation = { primaryTableId: datasetId, datasetId, trajectoryField: 'room', sequenceField: 'step', datetimeField: 'time', relations: [] };
    expect((await call('solution/setTableCorrelation', { solutionId, correlation })).body.code).toBe(0);

    // Without withTable the reply stays as it was.
    const plain = (await call('solution/getTableCorrelation', { solutionId })).body.data;
    expect(plain.table).toBeUndefined();
    expect(plain.correlation.datetimeField).toBe('time');

    const data = (await call('solution/getTableCorrelation', { solutionId, withTable: true })).body.data;
    expect(data.table.primary).toBe('Cold room history');
    expect(data.table.rows).toBe(48);
    expect(data.table.fields.map((f: { name: string }) => f.name)).toEqual(['room', 'step', 'time', 'obs_temp', 'power_action', 'next_obs_temp']);
    expect(data.table.fields[3]).toMatchObject({ name: 'obs_temp', table: 'Cold room history', column: 'obs_temp', kind: 'float', min: 5, max: 9.1 });
    expect(data.table.fields[2].kind).toBe('datetime');
    // The last of 12 steps is 11 x 15 minutes after the first.
    expect(data.table.dateRange).toEqual({ field: 'time', min: '2026-01-01T00:00:00.000Z', max: '2026-01-01T02:45:00.000Z' });

    // A related table (an uploaded csv) adds its columns as the processing names them: a taken name gets the table's prefix, the key is left out.
    const rooms = await uploadCsv(server, owner, ['room,obs_temp,zone', ...Array.from({ length: 4 }, (_, i) => `${i + 1},${10 + i},z${i % 3}`)].join('\n') + '\n');
    const joinedCorrelation = { ...correlation, relations: [{ from: datasetId, fromField: 'room', to: rooms, toField: 'room' }] };
    expect((await call('solution/setTableCorrelation', { solutionId, correlation: joinedCorrelation })).body.code).toBe(0);
    const joined = (await call('solution/getTableCorrelation', { solutionId, withTable: true })).body.data.table;
    expect(joined.fields.slice(6)).toEqual([
      { name: 'tiny_obs_temp', table: 'tiny', column: 'obs_temp', type: 'VARCHAR', kind: null, min: null, max: null },
      { name: 'zone', table: 'tiny', column: 'zone', type: 'VARCHAR', kind: null, min: null, max: null },
    ]);

    // An uploaded csv file as the primary table: rows counted, times read as the processing reads them (mixed forms).
    const { solutionId: csvSolution } = await createSolution(server, owner);
    const file = await uploadCsv(server, owner, 'traj,step,when,x\n1,0,2026-03-02 06:00:00,1\n1,1,2026-03-01T23:30:00Z,2\n2,0,,3\n2,1,2026-03-04T12:00:00+02:00,4\n');
    expect((await call('solution/setTableCorrelation', { solutionId: csvSolution, correlation: { primaryTableId: file, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'when', relations: [] } })).body.code).toBe(0);
    const csv = (await call('solution/getTableCorrelation', { solutionId: csvSolution, withTable: true })).body.data.table;
    expect(csv).toMatchObject({ primary: 'tiny', rows: 4, dateRange: { field: 'when', min: '2026-03-01T23:30:00.000Z', max: '2026-03-04T10:00:00.000Z' } });
    expect(csv.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual(['traj:VARCHAR', 'step:VARCHAR', 'when:VARCHAR', 'x:VARCHAR']);

    // A solution without a correlation has no table yet.
    const { solutionId: bare } = await createSolution(server, owner);
    expect((await call('solution/getTableCorrelation', { solutionId: bare, withTable: true })).body.data).toEqual({ solutionId: bare, correlation: null, table: null });
  });

  it('refuses without a session, for another user and with a bad id', async () => {
    const { solutionId } = await createSolution(server, owner);
    expect((await server.call('solution/getTableCorrelation', { body: { solutionId, withTable: true } })).status).toBe(401);
    const stranger = await call('solution/getTableCorrelation', { solutionId, withTable: true }, strangerToken);
    expect(stranger.body.code).not.toBe(0);
    expect(stranger.body.data?.table).toBeUndefined();
    expect((await call('solution/getTableCorrelation', { solutionId: 'nope', withTable: true })).body.code).toBe(ErrorCode.paramInvalid);
  });

  it('checks a hyperparameter set against its algorithm\'s schema, with messages in the caller\'s language', async () => {
    const bad = { name: 'bad set', trainType: 'environment', algorithm: 'bc', params: [{ name: 'lr', default: 0 }, { name: 'learningRate', default: 1 }, { name: 'batchSize', searchMode: 'continuous', searchValues: [256, 64] }] };
    const en = await call('hyperparameter/create', bad);
    expect(en.body.code).toBe(ErrorCode.paramInvalid);
    expect(en.body.errors).toEqual({
      'params.0.default': 'lr: a number, above 0',
      'params.1.name': '"learningRate" is not a hyperparameter of this algorithm',
      'params.2.searchValues': 'batchSize: continuous search takes [min, max], min below max, each a whole number, at least 1',
    });
    const zh = await call('hyperparameter/create', bad, token, 'zh-CN');
    expect(zh.body.errors?.['params.0.default']).toBe('lr：数值，大于 0');
    expect((await call('hyperparameter/create', { ...bad, algorithm: 'ppo', params: [] })).body.errors).toEqual({ algorithm: 'Choose an algorithm of this training type' });

    const good = { name: 'good set', trainType: 'environment', algorithm: 'bc', params: [{ name: 'lr', type: 'float', default: 0.001, searchMode: 'continuous', searchValues: [1e-4, 1e-2] }, { name: 'hidden', type: 'intList', default: [32, 32] }] };
    const made = await call('hyperparameter/create', good);
    expect(made.body.code).toBe(0);
    const edit = await call('hyperparameter/edit', { ...good, id: made.body.data.id, params: [{ name: 'ensemble', default: 11 }] });
    expect(edit.body.code).toBe(ErrorCode.paramInvalid);
    expect(edit.body.errors).toEqual({ 'params.0.default': 'ensemble: a whole number, at least 1, at most 10' });
    expect((await call('hyperparameter/createTrainParams', { id: made.body.data.id })).body.data.hyperparameters).toEqual({ lr: 0.001, hidden: [32, 32] });
  });
});
