import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type RecognizedColumn, type StorehouseField } from '@decisio/domain';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { until } from '../modelling/testing';
import { loadServerPlugins } from '../../plugins/registry';
import { TemplateRegistry } from '../templates/registry';
import { StorehouseCatalogue, type CatalogueTemplate } from './catalogue';
import { fieldScore, matchTemplate, nameScore, nameWords } from './recognizer';

/** The templates the workspace's plugins contribute (the electric and coupon template plugins). */
let registry: TemplateRegistry;
let electricCsv: string;
beforeAll(async () => {
  registry = new TemplateRegistry(await loadServerPlugins());
  electricCsv = (await registry.dataOf('electric')).csv.toString('utf8');
});

/** The electric template's rows (first `rooms` rooms) with the user's own column names, in another order, plus a column of theirs. */
function electricTableOfUser(names: Record<string, string>, rooms = 3): string {
  const lines = electricCsv.trimEnd().split('\n');
  const header = lines[0]!.split(',');
  const order = [3, 0, 2, 1, 5, 4, 6]; // obs_temp, room, time, step, power_action, factor_door_state, next_obs_temp
  const out = [[...order.map((i) => names[header[i]!]!), 'operator'].join(',')];
  for (const line of lines.slice(1, 1 + rooms * 200)) {
    const cells = line.split(',');
    out.push([...order.map((i) => cells[i]!), 'shift-a'].join(','));
  }
  return out.join('\n') + '\n';
}

const ENGLISH = { room: 'cold_room_id', step: 't', time: 'timestamp', obs_temp: 'temperature', factor_door_state: 'door_open', power_action: 'cooling_power', next_obs_temp: 'next_temperature' };
const CHINESE = { room: '冷库编号', step: '序号', time: '时间', obs_temp: '温度', factor_door_state: '开门状态', power_action: '制冷功率', next_obs_temp: '下一时刻温度' };

describe('the recognizer', () => {
  let electric: CatalogueTemplate;
  beforeAll(async () => {
    electric = (await new StorehouseCatalogue(registry).get('electric'))!;
  });
  const col = (name: string, valueType: RecognizedColumn['valueType'], min: number | null, max: number | null, distinct: number): RecognizedColumn => ({ name, type: 'DOUBLE', valueType, min, max, distinct });

  it('reads names through synonyms, case, separators and Chinese', () => {
    expect(nameWords('coolingPower')).toEqual(['power', 'power']);
    expect(nameWords('next_obs_temp')).toEqual(['next', 'temp']);
    expect(nameWords('下一时刻温度')).toEqual(expect.arrayContaining(['next', 'temp']));
    expect(nameScore('obs_temp', 'Temperature')).toBe(1);
    // The state after the step is not the state before it.
    expect(nameScore('obs_temp', 'next_temperature')).toBeLessThan(0.6);
    // Fuzzy spelling still counts.
    expect(nameScore('season_index', 'seasn_idx')).toBeGreaterThan(0.3);
    expect(nameScore('price', 'operator')).toBeLessThan(0.2);
  });

  it('scores 0 when the value types cannot fit, and uses the value range', () => {
    const temp = electric.fields.find((f) => f.name === 'obs_temp')!;
    expect(fieldScore(temp, col('temperature', 'text', null, null, 5)).total).toBe(0);
    const near = fieldScore(temp, col('temperature', 'number', temp.min!, temp.max!, 500));
    const far = fieldScore(temp, col('temperature', 'number', 1000, 2000, 500));
    expect(near.range).toBe(1);
    expect(far.range).toBe(0);
    expect(near.total).toBeGreaterThan(far.total);
    const door = electric.fields.find((f) => f.name === 'factor_door_state')!;
    expect(door).toMatchObject({ valueType: 'integer', min: 0, max: 1, distinct: 2 });
    // A column with the right range but hundreds of distinct values fits a 0/1 state less.
    expect(fieldScore(door, col('x', 'integer', 0, 1, 2)).range).toBeGreaterThan(fieldScore(door, col('x', 'number', 0, 1, 400)).range);
  });

  it('proposes a complete mapping for a renamed table and leaves a field without a fitting column unmapped', () => {
    const fields = electric.fields as StorehouseField[];
    const columns: RecognizedColumn[] = [
      col('temperature', 'number', -2, 20, 900),
      col('cold_room_id', 'integer', 1, 3, 3),
      { name: 'timestamp', type: 'TIMESTAMP', valueType: 'datetime', min: null, max: null, distinct: 200 },
      col('t', 'integer', 0, 199, 200),
      col('cooling_power', 'number', 0, 10, 600),
      col('door_open', 'integer', 0, 1, 2),
      col('next_temperature', 'number', -2, 20, 900),
    ];
    const m = matchTemplate(fields, columns);
    expect(Object.fromEntries(m.mapping.map((p) => [p.field, p.column]))).toEqual({
      room: 'cold_room_id',
      step: 't',
      time: 'timestamp',
      obs_temp: 'temperature',
      factor_door_state: 'door_open',
      power_action: 'cooling_power',
      next_obs_temp: 'next_temperature',
    });
    expect(m.missing).toEqual([]);
    expect(m.score).toBeGreaterThan(70);
    const withoutTime = matchTemplate(fields, columns.filter((c) => c.name !== 'timestamp'));
    expect(withoutTime.missing).toEqual(['time']);
    expect(withoutTime.score).toBeLessThan(m.score);
  });
});

describe.each(databases)('template storehouse through HTTP on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let otherToken: string;
  let strangerToken: string;
  let limitedToken: string;
  const call = (name: string, body: unknown, as = token) => server.call(name, { token: as, body, headers: { 'Accept-Language': 'en-US' } });

  async function dataset(csv: string, name: string, as = token): Promise<string> {
    const bytes = new TextEncoder().encode(csv);
    const init = await server.call('file/uploadpartinit', { token: as, body: { name: `${name}.csv`, size: bytes.length, purpose: 'dataset' } });
    const uploadId = init.body.data.uploadId as string;
    const put = await server.fetch(`/api/file/uploadOneFile?uploadId=${uploadId}&partNumber=1`, { method: 'PUT', headers: { Authorization: as, 'Content-Type': 'application/octet-stream' }, body: bytes as unknown as BodyInit });
    expect(put.status).toBe(200);
    const fileId = (await server.call('file/uploadPartComplete', { token: as, body: { uploadId } })).body.data.fileId as string;
    const made = await server.call('table/create', { token: as, body: { fileId, name, type: 'business' } });
    expect(made.body.code).toBe(0);
    return made.body.data.tableId as string;
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { plugins: await loadServerPlugins() });
    await server.app.startJobs();
    owner = await createUser(server);
    token = await issueToken(server, owner);
    otherToken = await issueToken(server, await createUser(server));
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    // A role of the tenant with the project area only: the storehouse (template area) is not theirs.
    const roleId = newId();
    const now = new Date();
    await server.app.db.knex('roles').insert({ id: roleId, tenant_id: owner.tenantId, code: `projects-${roleId.slice(0, 6)}`, name: 'Projects only', is_system: false, permissions: JSON.stringify(['projects:use', 'datasets:use']), sort: 5, created_at: now, updated_at: now });
    const limited = await createUser(server, { roles: [] });
    await server.app.db.knex('user_roles').insert({ user_id: limited.id, role_id: roleId });
    limitedToken = await issueToken(server, limited);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists the templates with their fields, filters them, and lists the industries', async () => {
    const all = await call('templateWarehouse/getList', {});
    expect(all.status).toBe(200);
    // Every template a plugin contributes (the workspace has a third one beside electric and coupon).
    expect(all.body.data.map((t: { templateId: string }) => t.templateId)).toEqual(expect.arrayContaining(['coupon', 'electric']));
    expect(all.body.data.map((t: { templateId: string }) => t.templateId)).toEqual(registry.all().map((t) => t.def.id));
    const electric = all.body.data.find((t: { templateId: string }) => t.templateId === 'electric');
    expect(electric.fields.map((f: { name: string }) => f.name)).toEqual(['room', 'step', 'time', 'obs_temp', 'factor_door_state', 'power_action', 'next_obs_temp']);
    expect(electric.fields.find((f: { name: string }) => f.name === 'power_action')).toMatchObject({ role: 'field', node: 'action', decision: true, valueType: 'number', required: true });
    // The state after the step is in the template's table; without it, processing shifts the next row's.
    expect(electric.fields.find((f: { name: string }) => f.name === 'next_obs_temp')).toMatchObject({ required: false, node: null });
    expect(electric.plugin).toBe('decisio.template-electric');
    expect((await call('templateWarehouse/getList', { type: 'coupon' })).body.data.map((t: { templateId: string }) => t.templateId)).toEqual(['coupon']);
    expect((await call('templateWarehouse/getList', { keyword: 'next_obs_temp' })).body.data.map((t: { templateId: string }) => t.templateId)).toEqual(['electric']);
    expect((await call('templateWarehouse/getList', { keyword: 'nothing-like-it' })).body.data).toEqual([]);
    const bad = await call('templateWarehouse/getList', { type: 'Not An Industry!' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.paramInvalid);

    const types = await server.call('templateWarehouse/getTemplateTypeList', { method: 'GET', token });
    const industries = new Map<string, number>();
    for (const t of registry.all()) industries.set(t.def.industry, (industries.get(t.def.industry) ?? 0) + 1);
    expect(types.body.data.map((t: { type: string; count: number }) => [t.type, t.count])).toEqual([...industries]);
    expect(types.body.data.find((t: { type: string }) => t.type === 'electric').name).toEqual(registry.get('electric')!.def.industryName);

    expect((await server.call('templateWarehouse/getList', { body: {} })).status).toBe(401);
    const refused = await call('templateWarehouse/getTemplateTypeList', {}, limitedToken);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(ErrorCode.userNotPermission);
  });

  it('recognises an uploaded table (English names), keeps the result for its user only, and makes a project with the data mapped', async () => {
    const tableId = await dataset(electricTableOfUser(ENGLISH), 'my cold rooms');
    const rec = await call('templateWarehouse/recognizerUsed', { tableId });
    expect(rec.status).toBe(200);
    const r = rec.body.data;
    expect(r).toMatchObject({ tableId, tableName: 'my cold rooms', rows: 600, projectId: null });
    expect(r.columns.find((c: { name: string }) => c.name === 'timestamp').valueType).toBe('datetime');
    expect(r.columns.find((c: { name: string }) => c.name === 'operator').valueType).toBe('text');
    const [best, second] = r.matches;
    expect(best.templateId).toBe('electric');
    expect(best.complete).toBe(true);
    expect(best.score).toBeGreaterThan(second.score);
    expect(second.complete).toBe(false);
    const proposed = Object.fromEntries(best.mapping.map((m: { field: string; column: string }) => [m.field, m.column]));
    expect(proposed).toEqual(Object.fromEntries(Object.entries(ENGLISH)));

    const again = await call('templateWarehouse/getRecognizerResult', { recognitionId: r.recognitionId });
    expect(again.body.data).toEqual(r);
    for (const other of [otherToken, strangerToken]) {
      const hidden = await call('templateWarehouse/getRecognizerResult', { recognitionId: r.recognitionId }, other);
      expect(hidden.status).toBe(404);
      expect(hidden.body.code).toBe(ErrorCode.recognitionNotFound);
    }
    // Another user's table is not theirs to recognise.
    expect((await call('templateWarehouse/recognizerUsed', { tableId }, otherToken)).body.code).toBe(ErrorCode.tableNotFound);
    expect((await call('templateWarehouse/recognizerUsed', { tableId }, strangerToken)).body.code).toBe(ErrorCode.tableNotFound);
    expect((await call('templateWarehouse/recognizerUsed', { tableId: 'x' })).status).toBe(400);
    expect((await server.call('templateWarehouse/recognizerUsed', { body: { tableId } })).status).toBe(401);
    expect((await call('templateWarehouse/recognizerUsed', { tableId }, limitedToken)).status).toBe(403);

    // A mapping that puts text into a number, or one column into two fields, is refused and makes nothing.
    const projectsBefore = (await server.app.db.knex('projects').count<{ n: number }[]>({ n: '*' }))[0]!.n;
    const mapping = best.mapping.map((m: { field: string; column: string }) => ({ field: m.field, column: m.column }));
    const textInNumber = mapping.map((m: { field: string; column: string }) => (m.field === 'obs_temp' ? { ...m, column: 'operator' } : m));
    const bad = await call('templateWarehouse/createProject', { recognitionId: r.recognitionId, templateId: 'electric', mapping: textInNumber });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.templateMappingInvalid);
    expect(bad.body.errors).toEqual({ 'mapping.obs_temp': expect.any(String) });
    const twice = mapping.map((m: { field: string; column: string }) => (m.field === 'next_obs_temp' ? { ...m, column: 'temperature' } : m));
    expect((await call('templateWarehouse/createProject', { recognitionId: r.recognitionId, templateId: 'electric', mapping: twice })).body.code).toBe(ErrorCode.templateMappingInvalid);
    const short = mapping.filter((m: { field: string }) => m.field !== 'time');
    expect((await call('templateWarehouse/createProject', { recognitionId: r.recognitionId, templateId: 'electric', mapping: short })).body.errors).toEqual({ 'mapping.time': expect.any(String) });
    expect((await call('templateWarehouse/createProject', { recognitionId: r.recognitionId, templateId: 'electric', mapping }, otherToken)).body.code).toBe(ErrorCode.recognitionNotFound);
    expect((await server.app.db.knex('projects').count<{ n: number }[]>({ n: '*' }))[0]!.n).toBe(projectsBefore);

    const made = await call('templateWarehouse/createProject', { recognitionId: r.recognitionId, templateId: 'electric', mapping });
    expect(made.status).toBe(200);
    const { project, solutionId, datasetId } = made.body.data;
    expect(project).toMatchObject({ name: 'Cold room demo', industryTemplate: 'electric' });
    expect((await call('templateWarehouse/getRecognizerResult', { recognitionId: r.recognitionId })).body.data.projectId).toBe(project.projectId);
    // The project's dataset holds the user's rows under the template's field names.
    const ds = (await call('table/get', { tableId: datasetId })).body.data;
    expect(ds).toMatchObject({ projectId: project.projectId, amount: 600, type: 'business' });
    expect(ds.columns.map((c: { name: string }) => c.name)).toEqual(['room', 'step', 'time', 'obs_temp', 'factor_door_state', 'power_action', 'next_obs_temp']);
    const preview = (await call('file/previewCSV', { tableId: datasetId, rows: 2 })).body.data;
    const source = electricTableOfUser(ENGLISH).split('\n')[1]!.split(',');
    expect(preview.rows[0][3]).toBeCloseTo(Number(source[0]), 6); // obs_temp <- temperature
    expect((await call('solution/getTableCorrelation', { solutionId })).body.data.correlation).toMatchObject({ primaryTableId: datasetId, trajectoryField: 'room', sequenceField: 'step', datetimeField: 'time' });
    expect((await call('solution/getPattern', { solutionId })).body.data.graph.nodes.map((n: { name: string }) => n.name).sort()).toEqual(['action', 'door_open', 'next_temperature', 'temperature']);
    // The mapped data goes through the modelling flow: a scheme processes it.
    const scheme = await call('scheme/create', { solutionId, name: 's', period: 'day', startTime: '2026-01-01', endTime: '2026-02-01' });
    expect(scheme.body.code).toBe(0);
    await call('scheme/schemeDataProcess', { id: scheme.body.data.id });
    const processed = await until(() => call('scheme/get', { id: scheme.body.data.id }), (x) => x.body.data.processState !== 'processing');
    expect(processed.body.data.processState).toBe('completed');
  }, 120_000);

  it('recognises Chinese column names and ranks the matching template first', async () => {
    const tableId = await dataset(electricTableOfUser(CHINESE, 1), '中文冷库');
    const r = (await call('templateWarehouse/recognizerUsed', { tableId })).body.data;
    expect(r.matches[0].templateId).toBe('electric');
    expect(r.matches[0].complete).toBe(true);
    expect(Object.fromEntries(r.matches[0].mapping.map((m: { field: string; column: string }) => [m.field, m.column]))).toEqual(CHINESE);
    const only = (await call('templateWarehouse/recognizerUsed', { tableId, templateId: 'coupon' })).body.data;
    expect(only.matches.map((m: { templateId: string }) => m.templateId)).toEqual(['coupon']);
    expect(only.matches[0].complete).toBe(false);
  });
});
