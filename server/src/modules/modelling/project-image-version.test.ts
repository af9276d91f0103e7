/**
 * A project's default algorithm image version (`imageVersion`): one of the versions
 * `atmVersion/getAtmVersionList` lists (project create and edit, `template/createProject`), and
 * its trainings run only on a worker of it: a chosen machine of another version is refused, and
 * without one the embedded server runs them only when its own engine is of that version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { systemClock } from '../../clock';
import { JobStore } from '../../jobs/queue';
import { SERVER_VERSION } from '../../version';
import { databases } from '../../test/server';
import { TINY_BC, modellingTestServer, until, type ModellingTestServer } from './testing';

const OTHER = '9.9.9-test';

describe.each(databases)('project default algorithm image version on %s', (kind) => {
  let m: ModellingTestServer;
  let ownWorker: string;
  const call = (name: string, body: unknown, headers?: Record<string, string>) => m.server.call(name, { token: m.token, body, headers });
  const envTraining = (over: Record<string, unknown> = {}) => ({ solutionId: m.solutionId, schemeId: m.schemeId, name: `env-${Math.random().toString(36).slice(2, 8)}`, stopConditions: { system: true }, hyperparameters: TINY_BC, ...over });
  const simulators = async () => Number(((await m.server.app.db.knex('simulators').where({ solution_id: m.solutionId }).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);

  beforeAll(async () => {
    m = await modellingTestServer(kind);
    ownWorker = (await m.server.app.jobs.workers()).find((w) => w.status === 'online')!.id;
    // A second machine, of another engine version (a worker process that registered; it runs nothing here).
    await new JobStore(m.server.app.db, systemClock).registerWorker({ id: 'other-v9', host: 'other', cores: 2, memory: 2 ** 34, gpuAdapter: null, engineVersion: OTHER, concurrency: 1 });
  });
  afterAll(async () => {
    await m?.server.stop();
  });

  it('takes only a listed version on project create, edit and template/createProject', async () => {
    const listed = await call('atmVersion/getAtmVersionList', {});
    expect(listed.body.data.rows.map((r: { version: string }) => r.version)).toEqual([SERVER_VERSION, OTHER].sort());

    const bad = await call('project/createProject', { name: 'vbad', colour: 'ocean', imageVersion: 'no-such' }, { 'Accept-Language': 'en-US' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.paramInvalid);
    expect(bad.body.errors).toEqual({ imageVersion: 'Choose one of the listed engine versions (those of the online machines)' });
    const badZh = await call('project/createProject', { name: 'vbad', colour: 'ocean', imageVersion: 'no-such' }, { 'Accept-Language': 'zh-CN' });
    expect(badZh.body.errors).toEqual({ imageVersion: '请选择列表中的引擎版本（在线机器的版本）' });
    expect(await m.server.app.db.knex('projects').where({ name: 'vbad' }).first('id')).toBeUndefined();

    const ok = await call('project/createProject', { name: 'vok', colour: 'ocean', imageVersion: OTHER });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.imageVersion).toBe(OTHER);
    const projectId = ok.body.data.projectId as string;
    const none = await call('project/createProject', { name: 'vnone', colour: 'ocean' });
    expect(none.body.data.imageVersion).toBeNull();

    const badEdit = await call('project/editProject', { projectId, imageVersion: 'no-such' });
    expect(badEdit.body.code).toBe(ErrorCode.paramInvalid);
    expect(Object.keys(badEdit.body.errors ?? {})).toEqual(['imageVersion']);
    expect((await call('project/getProject', { projectId })).body.data.imageVersion).toBe(OTHER);
    expect((await call('project/editProject', { projectId, imageVersion: SERVER_VERSION })).body.data.imageVersion).toBe(SERVER_VERSION);
    expect((await call('project/editProject', { projectId, imageVersion: '' })).body.data.imageVersion).toBeNull();
    // A version kept as it was is not checked again (its machines may be offline for now).
    await m.server.app.db.knex('projects').where({ id: projectId }).update({ image_version: 'gone-1.0' });
    expect((await call('project/editProject', { projectId, name: 'vkept', imageVersion: 'gone-1.0' })).body.code).toBe(0);

    const tpl = await call('template/createProject', { templateId: 'electric', imageVersion: 'no-such' });
    expect(tpl.body.code).toBe(ErrorCode.paramInvalid);
    expect(Object.keys(tpl.body.errors ?? {})).toEqual(['imageVersion']);
    const tplOk = await call('template/createProject', { templateId: 'electric', imageVersion: OTHER });
    expect(tplOk.body.code).toBe(0);
    expect(tplOk.body.data.project.imageVersion).toBe(OTHER);
  });

  it('refuses a training on a machine or server of another version than the project\'s', async () => {
    expect((await call('project/editProject', { projectId: m.projectId, imageVersion: OTHER })).body.code).toBe(0);
    const before = await simulators();
    const pinned = await call('trainSimulator/create', envTraining({ workerId: ownWorker }), { 'Accept-Language': 'en-US' });
    expect(pinned.body.code).toBe(ErrorCode.trainWorkerVersionMismatch);
    expect(pinned.body.message).toMatch(/default algorithm image version/);
    // Without a machine the embedded server would run it itself, on its own (other) version.
    const here = await call('trainSimulator/create', envTraining(), { 'Accept-Language': 'zh-CN' });
    expect(here.body.code).toBe(ErrorCode.trainEngineVersionUnavailable);
    expect(here.body.message).toMatch(/默认算法镜像版本/);
    expect(await simulators()).toBe(before);

    // A machine of the project's version takes it (the job needs that version).
    const onOther = await call('trainSimulator/create', envTraining({ workerId: 'other-v9' }));
    expect(onOther.body.code).toBe(0);
    const job = await m.server.app.db.knex('jobs').where({ id: onOther.body.data.jobId }).first();
    expect(job).toMatchObject({ pin_worker_id: 'other-v9', engine_version: OTHER, state: 'waiting' });
    expect((await call('train/stopTrain', { jobId: onOther.body.data.jobId })).body.code).toBe(0);
  });

  it('runs a training of a project of the server\'s version on the server, and refuses a machine of another', async () => {
    expect((await call('project/editProject', { projectId: m.projectId, imageVersion: SERVER_VERSION })).body.code).toBe(0);
    expect((await call('trainSimulator/create', envTraining({ workerId: 'other-v9' }))).body.code).toBe(ErrorCode.trainWorkerVersionMismatch);
    const created = await call('trainSimulator/create', envTraining());
    expect(created.body.code).toBe(0);
    const done = await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(done.body.data.state).toBe('successful');
    expect(await m.server.app.db.knex('jobs').where({ id: created.body.data.jobId }).first()).toMatchObject({ worker_id: ownWorker, engine_version: SERVER_VERSION });

    // No version: any machine, as before.
    expect((await call('project/editProject', { projectId: m.projectId, imageVersion: null })).body.code).toBe(0);
    const any = await call('trainSimulator/create', envTraining());
    expect(any.body.code).toBe(0);
    expect((await m.server.app.db.knex('jobs').where({ id: any.body.data.jobId }).first()).engine_version).toBeNull();
    await until(() => call('trainSimulator/get', { id: any.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state));
  });
});
