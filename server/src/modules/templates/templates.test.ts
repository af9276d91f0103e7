import fsp from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode, LIMITS } from '@decisio/domain';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { ModellingRecords } from '../modelling/records';
import { StorageService } from '../storage/service';
import { until } from '../modelling/testing';
import { numberedName } from './service';
import { INDUSTRY_TEMPLATE_DEFS, templateCsv, templateDef } from './templates';

describe('template data', () => {
  it('is the reference task generated from a fixed seed, one CSV row per step with every graph field', () => {
    const electric = templateDef('electric')!;
    const csv = templateCsv(electric);
    expect(templateCsv(electric)).toBe(csv);
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe('room,step,time,obs_temp,factor_door_state,power_action,next_obs_temp');
    expect(lines).toHaveLength(1 + 20 * 200);
    // Trajectory 1 starts at step 0 at the template's start; the next row's temperature is this row's next one.
    const [first, second] = [lines[1]!.split(','), lines[2]!.split(',')];
    expect(first.slice(0, 3)).toEqual(['1', '0', '2026-01-01T00:00:00.000Z']);
    expect(second.slice(0, 3)).toEqual(['1', '1', '2026-01-01T00:15:00.000Z']);
    expect(second[3]).toBe(first[6]);
    expect(lines[201]!.split(',').slice(0, 2)).toEqual(['2', '0']);

    const coupon = templateCsv(templateDef('coupon')!).trimEnd().split('\n');
    expect(coupon[0]).toBe('store,period,date,stock_level,season_index,price,order_quantity,units_sold,next_stock_level');
    expect(coupon).toHaveLength(1 + 20 * 100);
    for (const line of coupon.slice(1, 200)) {
      const [, , , stock, , price, order, sold, next] = line.split(',').map(Number);
      expect([8, 10, 12, 14]).toContain(price);
      expect(order! % 10).toBe(0);
      // Stock flow of the simulator: next = min(100, stock + order - sales).
      expect(next).toBe(Math.min(100, stock! + order! - sold!));
    }
  });

  it('names everything within the limits of the calls that create it (MariaDB refuses longer text)', () => {
    for (const def of INDUSTRY_TEMPLATE_DEFS) {
      for (const locale of ['zh-CN', 'en-US'] as const) {
        expect(def.projectName[locale].length).toBeLessThanOrEqual(LIMITS.projectNameMax);
        expect(def.name[locale].length).toBeLessThanOrEqual(LIMITS.projectInfoMax);
        expect(def.solutionName[locale].length).toBeLessThanOrEqual(LIMITS.solutionNameMax);
        expect(def.datasetName[locale].length).toBeLessThanOrEqual(LIMITS.datasetNameMax);
        expect(def.rewardName[locale].length).toBeLessThanOrEqual(LIMITS.rewardNameMax);
        expect(def.rewardDescription[locale].length).toBeLessThanOrEqual(LIMITS.descriptionMax);
      }
      // The key columns lead the table.
      expect(def.columns.slice(0, 3).map((c) => c.name)).toEqual([def.trajectoryField, def.sequenceField, def.datetimeField]);
    }
  });

  it('leaves only the template task\'s decision to the policy (an output that reads it, such as the coupon\'s sales, is the environment\'s)', () => {
    for (const def of INDUSTRY_TEMPLATE_DEFS) {
      const agents = def.task.graph().nodes.filter((n) => n.role === 'agent').map((n) => n.name);
      expect(agents, def.id).toEqual([def.task.agent]);
    }
    expect(templateDef('coupon')!.task.graph().nodes.find((n) => n.name === 'sales')!.role).toBe('environment');
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

  it('lists the built-in templates in both languages, signed-in only', async () => {
    expect((await server.call('template/getTemplateList', { method: 'GET' })).status).toBe(401);
    const list = await server.call('template/getTemplateList', { method: 'GET', token });
    expect(list.body.code).toBe(0);
    const rows = list.body.data as Array<Record<string, any>>;
    expect(rows.map((t) => [t.id, t.task])).toEqual([
      ['electric', 'thermal'],
      ['coupon', 'inventory'],
    ]);
    for (const t of rows) {
      expect(Object.keys(t.name).sort()).toEqual(['en-US', 'zh-CN']);
      expect(t.description['zh-CN']).not.toBe(t.description['en-US']);
    }
    expect(rows[0]!.nodes).toEqual(expect.arrayContaining(['temperature', 'door_open', 'action', 'next_temperature']));
    expect(rows[1]!.agent).toBe('decision');
    // The preview: what the policy decides, and the first rows of the template's own CSV.
    expect(rows[0]!.decisionFields).toEqual(['power_action']);
    expect(rows[1]!.decisionFields).toEqual(['price', 'order_quantity']);
    const csv = templateCsv(templateDef('electric')!).trimEnd().split('\n');
    expect(rows[0]!.sample.columns).toEqual(csv[0]!.split(','));
    expect(rows[0]!.sample.rows).toEqual(csv.slice(1, 9).map((l) => l.split(',')));
    expect((await call('template/getTemplateList', {})).body.data).toHaveLength(INDUSTRY_TEMPLATE_DEFS.length);
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
    expect(after - before).toBeGreaterThanOrEqual(Buffer.byteLength(templateCsv(templateDef('electric')!)));
    const preview = (await call('file/previewCSV', { tableId: datasetId, rows: 2 })).body.data;
    const firstLine = templateCsv(templateDef('electric')!).split('\n')[1]!.split(',');
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
    const profits = templateCsv(templateDef('coupon')!)
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

  it('refuses an unknown template, and leaves nothing behind when the quota is short', async () => {
    const bad = await call('template/createProject', { templateId: 'steel' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.paramInvalid);
    expect(Object.keys(bad.body.errors ?? {})).toEqual(['templateId']);

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
