/**
 * `solution/importRevive` on SQLite and MariaDB, through HTTP: REVIVE's csv (node-named
 * columns, pandas' unnamed row number) and npz uploads, as a REVIVE user has them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { writeNpz } from '@decisio/learning';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { createSolution } from '../modelling/testing';

const YAML = `metadata:
  graph:
    action:
    - temperature
    next_temperature:
    - action
    - temperature
    - door_open
  columns:
  - obs_temp:
      dim: temperature
      type: continuous
      max: 20
      min: -20
  - power_action:
      dim: action
      type: continuous
      max: 10
      min: 0
  - factor_door_state:
      dim: door_open
      type: continuous
`;

const REWARD = `import numpy as np

def get_reward(data):
    return -np.abs(data['next_temperature'][:, :1] + 2.0)
`;

/** REVIVE's refrigerator csv layout: 3 trajectories of 8 steps, pandas row numbers. */
function fridgeCsv(): string {
  const lines = [',door_open,temperature,action,next_temperature'];
  let row = 0;
  for (let t = 0; t < 3; t++) {
    let temp = 8 + 2 * t;
    for (let k = 0; k < 8; k++) {
      const action = 1 + 0.2 * ((k + t) % 4);
      const door = (k + t) % 5 === 0 ? 1 : 0;
      const next = temp - 0.6 * action + 0.8 * door;
      lines.push([row++, door, temp, action, next].join(','));
      temp = next;
    }
  }
  return `${lines.join('\n')}\n`;
}

describe.each(databases)('solution/importRevive on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let strangerToken: string;
  let memberToken: string;
  let solutionId: string;

  const call = (body: unknown, as: string = token, headers: Record<string, string> = {}) => server.call('solution/importRevive', { token: as, body, headers });
  const upload = async (name: string, bytes: Uint8Array): Promise<string> => {
    const id = newId();
    const key = `u/${owner.id}/f/${id}`;
    const { size } = await server.app.blobs.put(key, Buffer.from(bytes));
    const now = new Date();
    await server.app.db.knex('storage_files').insert({ id, tenant_id: owner.tenantId, user_id: owner.id, kind: 'upload', name, path: `/${name}`, blob_key: key, size, content_type: 'application/octet-stream', created_at: now, updated_at: now });
    return id;
  };
  const countTables = async () => Number((await server.app.db.knex('datasets').where({ tenant_id: owner.tenantId }).count({ n: '*' }))[0]!.n);

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = await createUser(server);
    token = await issueToken(server, owner);
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    memberToken = await issueToken(server, await createUser(server));
    ({ solutionId } = await createSolution(server, owner));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('asks about the unnamed column first, then imports the csv: fields mapped, YAML min/max kept, correlation and reward set', async () => {
    const dataFileId = await upload('refrigerator.csv', new TextEncoder().encode(fridgeCsv()));
    const before = await countTables();
    const asked = await call({ solutionId, yaml: YAML, dataFileId, tableName: 'fridge', reward: REWARD });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toEqual({ status: 'indexColumn', position: 0, sample: ['0', '1', '2', '3', '4'] });
    expect(await countTables()).toBe(before);
    expect((await server.call('solution/getPattern', { token, body: { solutionId } })).body.data.graph).toBeNull();

    const done = await call({ solutionId, yaml: YAML, dataFileId, tableName: 'fridge', reward: REWARD, indexColumn: 'drop' });
    expect(done.body.code).toBe(0);
    const d = done.body.data;
    expect(d.status).toBe('imported');
    expect(d.report.mapped).toEqual([
      { from: 'temperature', to: ['obs_temp'] },
      { from: 'door_open', to: ['factor_door_state'] },
      { from: 'action', to: ['power_action'] },
      { from: 'next_temperature', to: ['next_obs_temp'] },
    ]);
    expect(d.report.indexColumn).toEqual({ position: 0, action: 'drop' });
    expect(d.report.trajectories).toBe(3);
    expect(d.report.rows).toBe(24);
    expect(d.report.bounds.find((b: { field: string }) => b.field === 'obs_temp')).toEqual({ field: 'obs_temp', node: 'temperature', min: -20, max: 20, from: 'yaml' });
    expect(d.nodes.find((n: { name: string }) => n.name === 'action').role).toBe('agent');

    const table = await server.call('table/get', { token, body: { tableId: d.tableId } });
    expect(table.body.code).toBe(0);
    expect(table.body.data.columns.map((c: { name: string }) => c.name)).toEqual(['trajectory', 'step', 'obs_temp', 'factor_door_state', 'power_action', 'next_obs_temp']);
    const pattern = (await server.call('solution/getPattern', { token, body: { solutionId } })).body.data.graph;
    const temp = pattern.nodes.find((n: { name: string }) => n.name === 'temperature');
    expect(temp.fields[0]).toMatchObject({ name: 'obs_temp', min: -20, max: 20 });
    const corr = (await server.call('solution/getTableCorrelation', { token, body: { solutionId } })).body.data.correlation;
    expect(corr).toMatchObject({ primaryTableId: d.tableId, trajectoryField: 'trajectory', sequenceField: 'step' });
    const reward = await server.call('objective/detail', { token, body: { id: d.objectiveId } });
    expect(reward.body.code).toBe(0);
    // the reward ran on the imported table's rows in the sandbox
    expect(reward.body.data.checkState).toBe('checked');
  }, 120_000);

  it('imports an npz (arrays by node, index as trajectory ends) and keeps a named index column of a csv', async () => {
    const f32 = (v: number[]) => ({ dtype: '<f4', shape: [v.length, 1], data: Float32Array.from(v) });
    const npz = writeNpz({
      temperature: f32([5, 4, 3, 2, 6, 5, 4]),
      action: f32([1, 1, 1, 1, 2, 2, 2]),
      door_open: f32([0, 0, 1, 0, 0, 1, 0]),
      index: { dtype: '<i8', shape: [2], data: BigInt64Array.of(4n, 7n) },
    });
    const { solutionId: other } = await createSolution(server, owner);
    const r = await call({ solutionId: other, yaml: YAML, dataFileId: await upload('data.npz', npz), tableName: 'fridge npz' });
    expect(r.body.code).toBe(0);
    expect(r.body.data.report).toMatchObject({ trajectories: 2, trajectorySource: 'index', rows: 7, indexColumn: null });
    expect(r.body.data.objectiveId).toBeNull();

    const { solutionId: third } = await createSolution(server, owner);
    const named = await call({ solutionId: third, yaml: YAML, dataFileId: await upload('fridge2.csv', new TextEncoder().encode(fridgeCsv())), tableName: 'fridge named', indexColumn: { name: 'row' } });
    expect(named.body.code).toBe(0);
    expect(named.body.data.report.indexColumn).toEqual({ position: 0, action: 'named', name: 'row' });
    const table = await server.call('table/get', { token, body: { tableId: named.body.data.tableId } });
    expect(table.body.data.columns.map((c: { name: string }) => c.name).at(-1)).toBe('row');
  }, 120_000);

  it('refuses bad input, a REVIVE feature it does not run, bad YAML and data that does not fit, in the caller language', async () => {
    const dataFileId = await upload('bad.csv', new TextEncoder().encode(fridgeCsv().replace(',door_open,', ',door,')));
    const missing = await call({ solutionId, dataFileId, tableName: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe(ErrorCode.paramInvalid);
    const badYaml = await call({ solutionId, yaml: 'graph: [', dataFileId, tableName: 'x' });
    expect(badYaml.body.code).toBe(ErrorCode.reviveYamlInvalid);
    expect(badYaml.body.errors?.yaml).toMatch(/YAML/);
    const frozen = await call({ solutionId, yaml: `${YAML}  nodes:\n    next_temperature:\n      freeze: true\n`, dataFileId, tableName: 'x' });
    expect(frozen.body.code).toBe(ErrorCode.reviveFeatureUnsupported);
    expect(frozen.body.errors?.yaml).toBe('nodes.next_temperature.freeze');
    const before = await countTables();
    const noDoor = await call({ solutionId, yaml: YAML, dataFileId, tableName: 'x', indexColumn: 'drop' }, token, { 'Accept-Language': 'zh-CN' });
    expect(noDoor.status).toBe(400);
    expect(noDoor.body.code).toBe(ErrorCode.reviveDataInvalid);
    expect(noDoor.body.errors?.dataFileId).toBe('数据中缺少节点 "door_open" 的数组');
    expect(await countTables()).toBe(before);
  }, 60_000);

  it('answers 401 without a token and not-found to a stranger or a user without rights on the project', async () => {
    const dataFileId = await upload('r.csv', new TextEncoder().encode(fridgeCsv()));
    const body = { solutionId, yaml: YAML, dataFileId, tableName: 'y', indexColumn: 'drop' };
    expect((await server.call('solution/importRevive', { body })).status).toBe(401);
    const stranger = await call(body, strangerToken);
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe(ErrorCode.solutionNotFound);
    const member = await call(body, memberToken);
    expect(member.status).toBe(404);
    expect(member.body.code).toBe(ErrorCode.projectNotFound);
  });
});
