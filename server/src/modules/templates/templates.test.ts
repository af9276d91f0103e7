import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { defineServerPlugin } from '@decisio/sdk-plugin/server';
import { inventoryTask, thermalTask } from '@decisio/learning';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { discoverServerPlugins } from '../../plugins/discover';
import { ModellingRecords } from '../modelling/records';
import { StorageService } from '../storage/service';
import { until } from '../modelling/testing';
import { numberedName } from './service';
import { referenceDataDef, templateCsv } from './reference-data';
import { TemplateRegistry } from './registry';

/** The templates the workspace's plugins contribute, as the server reads them. */
const registry = new TemplateRegistry(await discoverServerPlugins());
/** A template's data file as text. */
const dataText = async (id: string) => (await registry.dataOf(id)).csv.toString('utf8');

describe('template plugins', () => {
  it('are found as plugins under plugins/*: no template is built into the server', async () => {
    expect(registry.all().map((t) => [t.pluginId, t.def.id, t.def.industry])).toEqual([
      ['decisio.template-coupon', 'coupon', 'coupon'],
      ['decisio.template-electric', 'electric', 'electric'],
      ['decisio.template-inventory', 'inventory', 'retail'],
    ]);
    // No server module imports a template plugin.
    const sources = fs.readdirSync(new URL('../../', import.meta.url), { recursive: true, encoding: 'utf8' }).filter((f) => /\.ts$/.test(f) && !f.endsWith('.test.ts'));
    expect(sources.length).toBeGreaterThan(100);
    for (const f of sources) expect(fs.readFileSync(new URL(`../../${f}`, import.meta.url), 'utf8'), f).not.toMatch(/(from|import)\s*\(?\s*['"][^'"]*template-(electric|coupon|inventory)/);
  });

  it('ship the electric and coupon data generated from the learning engine\'s reference tasks, graphs and rewards included', async () => {
    for (const [id, task] of [['electric', thermalTask], ['coupon', inventoryTask]] as const) {
      // The same bytes as the task's behaviour policy in its true simulator from seed 2026.
      expect(await dataText(id), id).toBe(templateCsv(referenceDataDef(id)!));
      const def = registry.get(id)!.def;
      expect(def.reward).toBe(task.rewardPy);
      expect(def.graphDocument).toEqual(task.graph());
      expect(def.agent).toBe(task.agent);
    }
    const lines = (await dataText('electric')).trimEnd().split('\n');
    expect(lines[0]).toBe('room,step,time,obs_temp,factor_door_state,power_action,next_obs_temp');
    expect(lines).toHaveLength(1 + 20 * 200);
    const [first, second] = [lines[1]!.split(','), lines[2]!.split(',')];
    expect(first.slice(0, 3)).toEqual(['1', '0', '2026-01-01T00:00:00.000Z']);
    expect(second[3]).toBe(first[6]);
    const coupon = (await dataText('coupon')).trimEnd().split('\n');
    expect(coupon[0]).toBe('store,period,date,stock_level,season_index,price,order_quantity,units_sold,next_stock_level');
    for (const line of coupon.slice(1, 200)) {
      const [, , , stock, , price, order, sold, next] = line.split(',').map(Number);
      expect([8, 10, 12, 14]).toContain(price);
      // Stock flow of the simulator: next = min(100, stock + order - sales).
      expect(next).toBe(Math.min(100, stock! + order! - sold!));
    }
  });

  it('measure their reports on their own data with their rewards', async () => {
    const electric = (await registry.reportOf('electric'))!;
    const rows = (await dataText('electric')).trimEnd().split('\n').slice(1).map((l) => l.split(',').map(Number));
    const rewards = rows.map((r) => thermalTask.reward({ next_temperature: [r[6]!], action: [r[5]!] }));
    expect(electric.figures.find((f) => f.id === 'meanReward')!.value).toBeCloseTo(rewards.reduce((a, b) => a + b, 0) / rewards.length, 10);
    expect(electric.basis['en-US']).toContain('4000 quarter-hours of 20 rooms');
    const coupon = (await registry.reportOf('coupon'))!;
    const crow = (await dataText('coupon')).trimEnd().split('\n').slice(1).map((l) => l.split(',').map(Number));
    const profits = crow.map((r) => inventoryTask.reward({ decision: [r[5]!, r[6]!], sales: [r[7]!], next_stock: [r[8]!] }));
    expect(coupon.figures.find((f) => f.id === 'meanProfit')!.value).toBeCloseTo(profits.reduce((a, b) => a + b, 0) / profits.length, 10);
  });

  it('refuses malformed templates when the plugin is defined, and a template id given twice when the server starts', () => {
    const good = registry.get('inventory')!.def;
    const tpl = { ...good, id: 'x' };
    expect(() => defineServerPlugin({ id: 'acme.t', templates: [{ ...tpl, projectName: { 'zh-CN': '名', 'en-US': 'A project name longer than twenty' } }] })).toThrow(/projectName \(en-US\) is longer than 20/);
    expect(() => defineServerPlugin({ id: 'acme.t', templates: [{ ...tpl, rewardName: { 'zh-CN': '', 'en-US': 'x' } }] })).toThrow(/rewardName needs text in zh-CN/);
    expect(() => defineServerPlugin({ id: 'acme.t', templates: [{ ...tpl, graph: 'metadata: [' }] })).toThrow(/not valid REVIVE YAML/);
    const twoAgents = 'metadata:\n  graph:\n    a:\n    - b\n    c:\n    - b\n  columns:\n  - x: {dim: b, type: continuous, min: 0, max: 1}\n  - y: {dim: a, type: continuous, min: 0, max: 1}\n  - z: {dim: c, type: continuous, min: 0, max: 1}\n';
    expect(() => defineServerPlugin({ id: 'acme.t', templates: [{ ...tpl, graph: twoAgents }] })).toThrow(/exactly one agent node \(found 2\)/);
    const noAgent = 'metadata:\n  graph:\n    next_b:\n    - b\n  columns:\n  - x: {dim: b, type: continuous, min: 0, max: 1}\n';
    expect(() => defineServerPlugin({ id: 'acme.t', templates: [{ ...tpl, graph: noAgent }] })).toThrow(/exactly one agent node \(found 0\)/);
    expect(() => defineServerPlugin({ id: 'acme.t', templates: [{ ...tpl, reward: 'def reward(x): pass' }] })).toThrow(/get_reward/);
    expect(() => defineServerPlugin({ id: 'acme.t', templates: [{ ...tpl, id: 'Bad Id' }] })).toThrow(/kebab-case/);
    expect(() => defineServerPlugin({ id: 'acme.t', templates: [{ ...tpl, data: { ...tpl.data, file: 'data.csv' as unknown as URL } }] })).toThrow(/data.file must be a URL/);
    expect(() => defineServerPlugin({ id: 'acme.t', templates: [tpl, tpl] })).toThrow(/duplicate template "x"/);
    const copy = defineServerPlugin({ id: 'acme.copy', templates: [{ ...good }] });
    expect(() => new TemplateRegistry([...registry.all().map((t) => ({ id: t.pluginId, templates: [t.def], migrations: [], seeds: [], jobKinds: [], routes: null })), copy])).toThrow(/"inventory" is contributed by both "decisio.template-inventory" and "acme.copy"/);
  });

  it('refuse a data file without the graph\'s columns at first use', async () => {
    const broken = defineServerPlugin({
      id: 'acme.broken',
      templates: [{ ...registry.get('inventory')!.def, id: 'broken', data: { ...registry.get('inventory')!.def.data, file: registry.get('coupon')!.def.data.file } }],
    });
    const r = new TemplateRegistry([broken]);
    await expect(r.dataOf('broken')).rejects.toThrow(/no column "shop"/);
  });

  it('numbers names within their length', () => {
    expect(numberedName('Cold room demo', 1, 20)).toBe('Cold room demo');
    expect(numberedName('Cold room demo', 2, 20)).toBe('Cold room demo 2');
    expect(numberedName('A very long template name', 12, 20)).toBe('A very long templ 12');
  });
});

describe.each(databases)('template projects through HTTP on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  // English unless told (the server's default language is zh-CN).
  const call = (name: string, body: unknown, headers: Record<string, string> = { 'Accept-Language': 'en-US' }) => server.call(name, { token, body, headers });

  /** A tiny BC environment trains on the processed template data (category and discrete fields included). */
  const expectEnvironmentTrains = async (solutionId: string, schemeId: string) => {
    const name = `env-${schemeId.slice(0, 6)}`;
    const created = await call('trainSimulator/create', { solutionId, schemeId, name, stopConditions: { system: true }, hyperparameters: { epochs: 2, hidden: [16], updatesPerStep: 4, batchSize: 32 } });
    expect(created.body.code).toBe(0);
    const done = await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(done.body.data.error).toBeNull();
    expect(done.body.data.state).toBe('successful');
    expect(typeof done.body.data.score).toBe('number');
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { concurrency: 1 } });
    await server.app.startJobs();
    owner = await createUser(server);
    token = await issueToken(server, owner);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists the templates of the plugins in both languages, signed-in only', async () => {
    expect((await server.call('template/getTemplateList', { method: 'GET' })).status).toBe(401);
    const list = await server.call('template/getTemplateList', { method: 'GET', token });
    expect(list.body.code).toBe(0);
    const rows = list.body.data as Array<Record<string, any>>;
    expect(rows.map((t) => [t.id, t.task, t.plugin, t.industry])).toEqual([
      ['coupon', 'inventory', 'decisio.template-coupon', 'coupon'],
      ['electric', 'thermal', 'decisio.template-electric', 'electric'],
      ['inventory', 'generated (seed 7)', 'decisio.template-inventory', 'retail'],
    ]);
    for (const t of rows) {
      expect(Object.keys(t.name).sort()).toEqual(['en-US', 'zh-CN']);
      expect(t.description['zh-CN']).not.toBe(t.description['en-US']);
    }
    const [coupon, electric, inventory] = rows;
    expect(electric!.nodes).toEqual(expect.arrayContaining(['temperature', 'door_open', 'action', 'next_temperature']));
    expect(coupon!.agent).toBe('decision');
    expect(electric!.industryName).toEqual({ 'zh-CN': '电力', 'en-US': 'Electric' });
    // The preview: what the policy decides, and the first rows of the template's own CSV.
    expect(electric!.decisionFields).toEqual(['power_action']);
    expect(coupon!.decisionFields).toEqual(['price', 'order_quantity']);
    expect(inventory!.decisionFields).toEqual(['order_qty']);
    const csv = (await dataText('electric')).trimEnd().split('\n');
    expect(electric!.sample.columns).toEqual(csv[0]!.split(','));
    expect(electric!.sample.rows).toEqual(csv.slice(1, 9).map((l) => l.split(',')));
    expect([electric!.rows, electric!.trajectories, electric!.steps]).toEqual([4000, 20, 200]);
    expect([inventory!.rows, inventory!.trajectories, inventory!.steps]).toEqual([300, 5, 60]);
    // The results each report renderer measured on the data.
    expect(electric!.report.figures.map((f: { id: string }) => f.id)).toEqual(['meanReward', 'meanDeviation', 'meanPower', 'doorOpenShare']);
    expect(electric!.report).toEqual(await registry.reportOf('electric'));
    expect((await call('template/getTemplateList', {})).body.data).toHaveLength(3);
  });

  it('creates a seeded project whose data, correlation, graph and reward read back, and whose scheme processes', async () => {
    const before = (await call('file/getFreeSpace', {})).body.data.usedBytes as number;
    const created = await call('template/createProject', { templateId: 'electric' });
    expect(created.body.code).toBe(0);
    const { project, solutionId, datasetId, fileId, objectiveId } = created.body.data;
    expect(project.name).toBe('Cold room demo');
    expect(project.industryTemplate).toBe('electric');
    expect(project.solutionCount).toBe(1);

    const solutions = (await call('solution/getSolutionList', { projectId: project.projectId })).body.data;
    expect(solutions.map((s: { solutionId: string }) => s.solutionId)).toEqual([solutionId]);

    // The data appears like an upload: a file in the file list, a business dataset of the project, charged.
    const dataset = (await call('table/get', { tableId: datasetId })).body.data;
    expect(dataset).toMatchObject({ type: 'business', fileType: 'csv', amount: 4000, projectId: project.projectId, name: 'Cold room history' });
    expect(dataset.columns.map((c: { name: string }) => c.name)).toEqual(['room', 'step', 'time', 'obs_temp', 'factor_door_state', 'power_action', 'next_obs_temp']);
    const files = (await call('file/fileItemList', { page: 1, pageSize: 20 })).body.data.rows;
    expect(files.map((f: { fileId: string; name: string }) => [f.fileId, f.name])).toContainEqual([fileId, 'electric-template.csv']);
    const projectTables = (await call('table/list', { page: 1, pageSize: 20, projectId: project.projectId })).body.data;
    expect(projectTables.total).toBe(1);
    const after = (await call('file/getFreeSpace', {})).body.data.usedBytes as number;
    expect(after - before).toBeGreaterThanOrEqual(Buffer.byteLength(await dataText('electric')));
    const preview = (await call('file/previewCSV', { tableId: datasetId, rows: 2 })).body.data;
    const firstLine = (await dataText('electric')).split('\n')[1]!.split(',');
    expect(preview.total).toBe(4000);
    expect(Number(preview.rows[0][3])).toBeCloseTo(Number(firstLine[3]), 4);

    const correlation = (await call('solution/getTableCorrelation', { solutionId })).body.data.correlation;
    expect(correlation).toEqual({ primaryTableId: datasetId, datasetId, trajectoryField: 'room', sequenceField: 'step', datetimeField: 'time', relations: [] });
    const pattern = (await call('solution/getPattern', { solutionId })).body.data;
    expect(pattern.graph.nodes.map((n: { name: string; role: string }) => [n.name, n.role]).sort()).toEqual([
      ['action', 'agent'],
      ['door_open', 'external'],
      ['next_temperature', 'environment'],
      ['temperature', 'state'],
    ]);
    const rewards = (await call('objective/list', { solutionId })).body.data.rows;
    expect(rewards.map((r: { id: string }) => r.id)).toEqual([objectiveId]);
    const reward = (await call('objective/detail', { id: objectiveId })).body.data;
    expect(reward.files['reward.py']).toContain('def get_reward(data)');
    expect(reward.name).toBe('Temperature & power');

    // The user's next step works on it: a scheme over the first day processes every room's rows.
    const schemeId = (await call('scheme/create', { solutionId, name: 'first day', period: 'day', startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-01T23:59:59Z' })).body.data.id as string;
    expect((await call('scheme/schemeDataProcess', { id: schemeId })).body.code).toBe(0);
    const done = await until(() => call('scheme/get', { id: schemeId }), (r) => r.body.data.processState !== 'processing');
    expect(done.body.data.processState).toBe('completed');
    expect(done.body.data.rows).toBe(20 * 96); // 96 quarter-hours a day, next_ column present: no step dropped
    await expectEnvironmentTrains(solutionId, schemeId);
  });

  it('numbers default names, names in the caller’s language, and seeds the coupon template', async () => {
    const again = (await call('template/createProject', { templateId: 'electric' })).body.data;
    expect(again.project.name).toBe('Cold room demo 2');
    expect((await call('table/get', { tableId: again.datasetId })).body.data.name).toBe('Cold room history 2');

    const zh = await call('template/createProject', { templateId: 'coupon', colour: 'purple', info: 'mine' }, { 'Accept-Language': 'zh-CN' });
    expect(zh.body.code).toBe(0);
    expect(zh.body.data.project).toMatchObject({ name: '定价补货示例', colour: 'purple', info: 'mine', industryTemplate: 'coupon' });
    const { solutionId } = zh.body.data;
    expect((await call('objective/detail', { id: zh.body.data.objectiveId })).body.data.name).toBe('利润');
    const pattern = (await call('solution/getPattern', { solutionId })).body.data;
    expect(pattern.graph.nodes.find((n: { name: string }) => n.name === 'decision').role).toBe('agent');
    // The seeded reward.py runs in the sandbox on the seeded table: every row's profit, as the task defines it.
    const files = (await call('objective/detail', { id: zh.body.data.objectiveId })).body.data.files;
    const tried = (await call('objective/tryReward', { solutionId, files, rows: 2048 })).body.data;
    expect(tried).toMatchObject({ ok: true, rows: 2000, source: { kind: 'table' } });
    const profits = (await dataText('coupon'))
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => {
        const [, , , , , price, order, sold, next] = line.split(',').map(Number);
        return price! * sold! - 6 * order! - 0.2 * next!;
      });
    expect(tried.summary.mean).toBeCloseTo(profits.reduce((a, b) => a + b, 0) / profits.length, 2);
    expect(tried.summary.max).toBeCloseTo(Math.max(...profits), 3);

    const schemeId = (await call('scheme/create', { solutionId, name: 'q1', period: 'day', startTime: '2026-01-01', endTime: '2026-03-31' })).body.data.id as string;
    await call('scheme/schemeDataProcess', { id: schemeId });
    const done = await until(() => call('scheme/get', { id: schemeId }), (r) => r.body.data.processState !== 'processing');
    expect(done.body.data.processState).toBe('completed');
    expect(done.body.data.rows).toBe(20 * 90);
    await expectEnvironmentTrains(solutionId, schemeId);

    const named = await call('template/createProject', { templateId: 'coupon', name: 'Cold room demo' });
    expect(named.body.code).toBe(ErrorCode.projectNameUsed);
  });

  it('creates a project from the template written from the SDK docs alone (inventory)', async () => {
    const made = await call('template/createProject', { templateId: 'inventory' });
    expect(made.body.code).toBe(0);
    const { project, solutionId, datasetId, objectiveId } = made.body.data;
    // Its industry (retail) is not one the project form knows: the project records none.
    expect(project).toMatchObject({ name: 'Restocking demo', colour: 'green', industryTemplate: null });
    expect((await call('table/get', { tableId: datasetId })).body.data).toMatchObject({ amount: 300, name: 'Shop history' });
    expect((await call('solution/getTableCorrelation', { solutionId })).body.data.correlation).toMatchObject({ trajectoryField: 'shop', sequenceField: 'day', datetimeField: 'date' });
    const pattern = (await call('solution/getPattern', { solutionId })).body.data;
    expect(pattern.graph.nodes.map((n: { name: string; role: string }) => [n.name, n.role]).sort()).toEqual([
      ['next_stock', 'environment'],
      ['order', 'agent'],
      ['sales', 'environment'],
      ['stock', 'state'],
      ['weekday', 'external'],
    ]);
    // Its reward.py runs in the sandbox on its table and gives the margins its report measured.
    const files = (await call('objective/detail', { id: objectiveId })).body.data.files;
    const tried = (await call('objective/tryReward', { solutionId, files, rows: 2048 })).body.data;
    expect(tried).toMatchObject({ ok: true, rows: 300 });
    const report = (await registry.reportOf('inventory'))!;
    expect(tried.summary.mean).toBeCloseTo(report.figures.find((f) => f.id === 'meanMargin')!.value, 3);
  });

  it('refuses an unknown or malformed template id, and leaves nothing behind when the quota is short', async () => {
    for (const templateId of ['steel', 'Bad Id', 'x'.repeat(33), 7]) {
      const bad = await call('template/createProject', { templateId });
      expect(bad.status, String(templateId)).toBe(400);
      expect(bad.body.code).toBe(ErrorCode.paramInvalid);
      expect(Object.keys(bad.body.errors ?? {})).toEqual(['templateId']);
    }

    const poor = await createUser(server);
    const poorToken = await issueToken(server, poor);
    await server.app.db.knex('storage_quotas').insert({ scope: 'user', owner_id: poor.id, tenant_id: poor.tenantId, total_bytes: 1000, used_bytes: 0, updated_at: new Date() });
    const refused = await server.call('template/createProject', { token: poorToken, body: { templateId: 'coupon' } });
    expect(refused.body.code).toBe(ErrorCode.storageInsufficient);
    const projects = await server.call('project/getProjectList', { token: poorToken, body: { page: 1, pageSize: 10 } });
    expect(projects.body.data.total).toBe(0);
    const files = await server.call('file/fileItemList', { token: poorToken, body: { page: 1, pageSize: 10 } });
    expect(files.body.data.total).toBe(0);
  });
});

describe.each(databases)('a template project that fails midway on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.stop();
  });

  /** Files under a blob folder (none when it does not exist). */
  const filesUnder = async (key: string): Promise<string[]> =>
    (await fsp.readdir(server.app.blobs.pathOf(key), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).map((e) => e.name);

  it('deletes the files it stored, and keeps no row and no charge', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const before = (await server.call('file/getFreeSpace', { token })).body.data.usedBytes as number;
    const uploads = vi.spyOn(StorageService.prototype, 'initUpload');
    // The last step fails, once everything was stored: the upload's file and the dataset's Parquet copy.
    const seen: string[] = [];
    vi.spyOn(ModellingRecords.prototype, 'createObjective').mockImplementationOnce(async () => {
      seen.push(...(await filesUnder(`u/${user.id}`)));
      throw new Error('forced failure');
    });
    const failed = await server.call('template/createProject', { token, body: { templateId: 'electric' } });
    expect(failed.status).toBe(500);
    expect(seen).toHaveLength(2);
    const uploadId = ((await uploads.mock.results[0]!.value) as { uploadId: string }).uploadId;
    uploads.mockRestore();

    expect(await filesUnder(`u/${user.id}`)).toEqual([]);
    expect(await filesUnder(`tmp/uploads/${uploadId}`)).toEqual([]);
    const knex = server.app.db.knex;
    expect(await knex('projects').where({ owner_id: user.id })).toHaveLength(0);
    expect(await knex('storage_files').where({ user_id: user.id })).toHaveLength(0);
    expect(await knex('uploads').where({ user_id: user.id })).toHaveLength(0);
    expect(await knex('datasets').where({ user_id: user.id })).toHaveLength(0);
    expect((await server.call('file/getFreeSpace', { token })).body.data.usedBytes).toBe(before);

    // The same call then succeeds, with the default names (nothing of the failed one holds them).
    const made = await server.call('template/createProject', { token, body: { templateId: 'electric' }, headers: { 'Accept-Language': 'en-US' } });
    expect(made.body, JSON.stringify(made.body)).toMatchObject({ code: 0 });
    expect(made.body.data.project.name).toBe('Cold room demo');
    expect(await filesUnder(`u/${user.id}`)).toHaveLength(2);
  });
});
