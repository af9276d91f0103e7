import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, SOLUTION_DELETE_CONFIRMATIONS } from '@decisio/domain';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { artifactPrefix } from '../storage/artefact-keys';
import { readEventFile } from './engine/tfevents-testing';
import { findTensorBoard } from './tensorboard';
import { newId } from '../../db/ids';
import { TINY_BC, createSolution, modellingTestServer, until } from './testing';

/**
 * A stand-in for TensorBoard: serves HTTP on `--host:--port` and answers every request with
 * what it received, its arguments and the event files in `--logdir`.
 */
const FAKE_TENSORBOARD = `#!${process.execPath}
const http = require('node:http');
const fs = require('node:fs');
const arg = (n) => process.argv[process.argv.indexOf(n) + 1];
const logdir = arg('--logdir');
const host = arg('--host');
const prefix = arg('--path_prefix');
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-fake-tensorboard', '1');
    res.end(JSON.stringify({
      pid: process.pid, method: req.method, url: req.url, body: Buffer.concat(chunks).toString('utf8'),
      contentType: req.headers['content-type'] || null, cookie: req.headers.cookie || null, authorization: req.headers.authorization || null,
      host, prefix, files: fs.readdirSync(logdir, { recursive: true }).map(String).filter((f) => f.includes('tfevents')),
    }));
  });
}).listen(Number(arg('--port')), host);
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.each(databases)('TensorBoard on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let strangerToken: string;
  let memberToken: string;
  let jobId: string;
  let tmp: string;
  let fakeBin: string;

  const call = (name: string, body: unknown, as = token) => server.call(name, { token: as, body });
  const used = async () => Number((await server.app.db.knex('storage_quotas').where({ scope: 'user', owner_id: owner.id }).first('used_bytes'))?.used_bytes ?? 0);

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-tb-'));
    fakeBin = path.join(tmp, 'tensorboard');
    fs.writeFileSync(fakeBin, FAKE_TENSORBOARD, { mode: 0o755 });
    let solutionId: string;
    let schemeId: string;
    ({ server, owner, token, solutionId, schemeId } = await modellingTestServer(kind, { env: { TENSORBOARD_BIN: fakeBin } }));
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    memberToken = await issueToken(server, await createUser(server));
    const created = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-tb', stopConditions: { system: true }, hyperparameters: TINY_BC });
    expect(created.body.code).toBe(0);
    const done = await until(() => call('trainSimulator/get', { id: created.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(done.body.data.state).toBe('successful');
    jobId = created.body.data.jobId;
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('finds TensorBoard through TENSORBOARD_BIN, else on PATH', () => {
    const plain = path.join(tmp, 'plain');
    fs.mkdirSync(plain, { recursive: true });
    fs.writeFileSync(path.join(plain, 'tensorboard'), 'not executable', { mode: 0o644 });
    expect(findTensorBoard(null, [plain, tmp].join(path.delimiter))).toBe(fakeBin);
    expect(findTensorBoard(null, plain)).toBeNull();
    expect(findTensorBoard(path.join(tmp, 'missing'), tmp)).toBeNull();
    expect(findTensorBoard(fakeBin, '')).toBe(fakeBin);
    expect(findTensorBoard(tmp, '')).toBeNull(); // a folder
  });

  it('without TensorBoard writes the event file for download: the recorded metrics decode back', async () => {
    // A server of the same database whose TENSORBOARD_BIN is missing.
    const bare = await startTestServer(kind, { databaseUrl: server.databaseUrl, migrate: false, env: { TENSORBOARD_BIN: path.join(tmp, 'no-such-tensorboard') } });
    const bareCall = (name: string, body: unknown) => bare.call(name, { token, body });
    try {
      const before = await used();
      const r = await bareCall('train/reStartTensorBoard', { jobId });
      expect(r.body.code).toBe(0);
      expect(r.body.data).toEqual({ jobId, running: false, reason: 'notInstalled', downloadUrl: `/api/train/tensorBoardEvents?jobId=${jobId}` });

      const res = await bare.fetch(r.body.data.downloadUrl, { headers: { Authorization: token } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="events\.out\.tfevents\.\d+\.decisio"$/);
      const file = new Uint8Array(await res.arrayBuffer());
      expect(await used()).toBe(before + file.length); // charged to the job's owner

      const events = readEventFile(file);
      expect(events[0]!.fileVersion).toBe('brain.Event:2');
      const points = (await bareCall('train/getTrainDisplayDataList', { jobId })).body.data.points as Array<Record<string, unknown>>;
      expect(points.length).toBeGreaterThan(0);
      const scalarsOf = (p: Record<string, unknown>) =>
        Object.entries(p)
          .filter(([k, v]) => !['id', 'time', 'step'].includes(k) && typeof v === 'number' && Number.isFinite(v))
          .map(([tag, v]) => ({ tag, value: Math.fround(v as number) }));
      const expected = points.filter((p) => scalarsOf(p).length > 0);
      expect(events.slice(1)).toHaveLength(expected.length);
      expected.forEach((p, i) => {
        const e = events[i + 1]!;
        expect(e.values).toEqual(scalarsOf(p));
        if (typeof p.step === 'number' && p.step >= 0) expect(e.step).toBe(p.step);
        expect(e.wallTime).toBe(Date.parse(String(p.time)) / 1000);
      });
      // The BC trainer's per-node losses are there, at increasing steps.
      expect([...new Set(events.flatMap((e) => e.values.map((v) => v.tag)))]).toEqual(expect.arrayContaining(['nll/action', 'nll/next_obs']));
      expect(events.slice(1).every((e, i, all) => i === 0 || e.step > all[i - 1]!.step)).toBe(true);

      // Rewriting replaces the file (and its charge).
      expect((await bareCall('train/reStartTensorBoard', { jobId })).body.code).toBe(0);
      expect(await used()).toBe(before + file.length);
      // Destroying gives it back.
      expect((await bareCall('train/destroyTensorBoard', { jobId })).body.code).toBe(0);
      expect(await used()).toBe(before);
    } finally {
      await bare.stop();
    }
  });

  it('refuses other tenants, users without a right and anonymous callers', async () => {
    for (const as of [strangerToken, memberToken]) {
      for (const name of ['train/reStartTensorBoard', 'train/destroyTensorBoard']) {
        const r = await call(name, { jobId }, as);
        expect(r.status, name).toBe(404);
        expect(r.body.code, name).toBe(ErrorCode.trainNotFound);
      }
      const dl = await server.fetch(`/api/train/tensorBoardEvents?jobId=${jobId}`, { headers: { Authorization: as } });
      expect(dl.status).toBe(404);
      expect((await dl.json()).code).toBe(ErrorCode.trainNotFound);
    }
    expect((await server.call('train/reStartTensorBoard', { body: { jobId } })).status).toBe(401);
    expect((await call('train/reStartTensorBoard', { jobId: 'f'.repeat(32) })).body.code).toBe(ErrorCode.trainNotFound);
    expect((await call('train/reStartTensorBoard', { jobId: 'nope' })).body.code).toBe(ErrorCode.paramInvalid);
  });

  it('starts a TensorBoard per job, proxies it with the same checks, restarts and destroys it', async () => {
    const r = await call('train/reStartTensorBoard', { jobId });
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({ jobId, running: true, url: `/api/tensorboard/${jobId}/` });

    const page = await server.fetch(`${r.body.data.url}data/runs?x=1`, { headers: { Authorization: token } });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-fake-tensorboard')).toBe('1');
    const echo = await page.json();
    expect(echo).toMatchObject({ method: 'GET', url: `/api/tensorboard/${jobId}/data/runs?x=1`, host: '127.0.0.1', prefix: `/api/tensorboard/${jobId}`, authorization: null, cookie: null });
    expect(echo.files).toHaveLength(1);
    expect(echo.files[0]).toMatch(/^E-[0-9A-F]{8}\/events\.out\.tfevents\.\d+\.decisio$/);
    const pid = echo.pid as number;
    expect(alive(pid)).toBe(true);

    // A browser tab sends the session cookie; TensorBoard posts form data, passed on as sent.
    const form = new FormData();
    form.append('tags', '["loss"]');
    const posted = await server.fetch(`${r.body.data.url}data/plugin/scalars/scalars_multirun`, { method: 'POST', body: form, headers: { Cookie: `token=${token}` } });
    expect(posted.status).toBe(200);
    const postEcho = await posted.json();
    expect(postEcho.method).toBe('POST');
    expect(postEcho.contentType).toMatch(/^multipart\/form-data/);
    expect(postEcho.body).toContain('["loss"]');
    expect(postEcho.cookie).toBeNull();

    for (const as of [strangerToken, memberToken]) {
      const foreign = await server.fetch(r.body.data.url, { headers: { Authorization: as } });
      expect(foreign.status).toBe(404);
      expect((await foreign.json()).code).toBe(ErrorCode.trainNotFound);
    }
    expect((await server.fetch(r.body.data.url)).status).toBe(401);

    // Restart: a new process, the old one ended.
    const again = await call('train/reStartTensorBoard', { jobId });
    expect(again.body.data.running).toBe(true);
    const pid2 = (await (await server.fetch(r.body.data.url, { headers: { Authorization: token } })).json()).pid as number;
    expect(pid2).not.toBe(pid);
    expect(alive(pid)).toBe(false);

    const before = await used();
    const size = (await (await server.fetch(r.body.data.downloadUrl, { headers: { Authorization: token } })).arrayBuffer()).byteLength;
    const destroyed = await call('train/destroyTensorBoard', { jobId });
    expect(destroyed.body.data).toEqual({ jobId, running: false });
    expect(alive(pid2)).toBe(false);
    expect(await used()).toBe(before - size); // the log folder is deleted and its quota given back
    const gone = await server.fetch(r.body.data.url, { headers: { Authorization: token } });
    expect(gone.status).toBe(404);
    expect((await gone.json()).code).toBe(ErrorCode.notFound);
    expect((await server.fetch(r.body.data.downloadUrl, { headers: { Authorization: token } })).status).toBe(404);
    expect((await call('train/destroyTensorBoard', { jobId })).body.code).toBe(0); // idempotent
  });

  it('ends idle TensorBoards, and all of them when the server closes', async () => {
    let second: TestServer | undefined = await startTestServer(kind, { databaseUrl: server.databaseUrl, migrate: false, env: { TENSORBOARD_BIN: fakeBin, TENSORBOARD_IDLE_MINUTES: '0.02' } }); // 1.2 s
    try {
      const pidOf = async (url: string) => (await (await second!.fetch(url, { headers: { Authorization: token } })).json()).pid as number;
      const r = await second.call('train/reStartTensorBoard', { token, body: { jobId } });
      expect(r.body.data.running).toBe(true);
      const pid = await pidOf(r.body.data.url);
      // Requests keep it alive...
      for (let i = 0; i < 4; i++) {
        await new Promise((res) => setTimeout(res, 500));
        expect(await pidOf(r.body.data.url)).toBe(pid);
      }
      // ...without them it ends.
      await until(async () => alive(pid), (a) => !a, 10_000);
      expect(alive(pid)).toBe(false);
      expect((await second.fetch(r.body.data.url, { headers: { Authorization: token } })).status).toBe(404);

      expect((await second.call('train/reStartTensorBoard', { token, body: { jobId } })).body.data.running).toBe(true);
      const last = await pidOf(r.body.data.url);
      await second.stop();
      second = undefined;
      expect(alive(last)).toBe(false);
    } finally {
      await second?.stop();
    }
  });

  it('deleting a project or a solution ends the TensorBoards of its jobs', async () => {
    const knex = server.app.db.knex;
    /** A finished environment training of a new solution (in `projectId`, else a new project), its TensorBoard started. */
    const running = async (projectId?: string) => {
      const scope = await createSolution(server, owner, projectId ? { projectId } : {});
      const job = newId();
      const now = new Date();
      await knex('jobs').insert({ id: job, tenant_id: owner.tenantId, user_id: owner.id, kind: 'modelling.environment', name: 'env', state: 'successful', payload: '{}', created_at: now, updated_at: now });
      await knex('simulators').insert({ id: newId(), tenant_id: owner.tenantId, project_id: scope.projectId, solution_id: scope.solutionId, name: `env-${job.slice(0, 6)}`, algorithm: 'bc', job_id: job, state: 'successful', config: '{}', scheme_id: newId(), score: null, artifact_key: null, creator_id: owner.id, created_at: now, updated_at: now });
      const r = await call('train/reStartTensorBoard', { jobId: job });
      expect(r.body.data.running).toBe(true);
      const pid = (await (await server.fetch(r.body.data.url, { headers: { Authorization: token } })).json()).pid as number;
      expect(alive(pid)).toBe(true);
      return { ...scope, job, pid, url: r.body.data.url as string };
    };
    const folder = (job: string) => server.app.blobs.pathOf(artifactPrefix(owner.id, 'tensorboard', job));

    // A solution: its job's process ends; the other solution's in the same project runs on.
    const doomed = await running();
    const sibling = await running(doomed.projectId);
    expect((await call('solution/delete', { solutionId: doomed.solutionId, confirm: SOLUTION_DELETE_CONFIRMATIONS[0] })).body.code).toBe(0);
    expect(alive(doomed.pid)).toBe(false);
    expect(fs.existsSync(folder(doomed.job))).toBe(false);
    expect((await server.fetch(doomed.url, { headers: { Authorization: token } })).status).toBe(404);
    expect(alive(sibling.pid)).toBe(true);

    // A project: every job's process ends, and the folders go.
    expect((await call('project/deleteProject', { projectId: doomed.projectId })).body.code).toBe(0);
    expect(alive(sibling.pid)).toBe(false);
    expect(fs.existsSync(folder(sibling.job))).toBe(false);
  });

  it('deleting the training record ends its TensorBoard and deletes its log folder (a copy keeps the job\'s)', async () => {
    const before = await used();
    const r = await call('train/reStartTensorBoard', { jobId });
    expect(r.body.data.running).toBe(true);
    const pidOf = async () => (await (await server.fetch(r.body.data.url, { headers: { Authorization: token } })).json()).pid as number;
    const pid = await pidOf();
    const size = (await (await server.fetch(r.body.data.downloadUrl, { headers: { Authorization: token } })).arrayBuffer()).byteLength;
    expect(await used()).toBe(before + size);
    const simulator = await server.app.db.knex('simulators').where({ job_id: jobId }).first('id', 'artifact_key');
    const simulatorId = simulator.id as string;
    // The environment's own files: each record (the copy too) pays for its copy of them.
    const venv = (await server.app.blobs.stat(`${simulator.artifact_key}/venv.json`))!.size;

    // A copy refers to the same job: deleting the original leaves the TensorBoard to the copy.
    const copy = await call('simulator/copy', { id: simulatorId, name: 'env-tb-copy' });
    expect(copy.body.code).toBe(0);
    expect((await call('simulator/delete', { id: simulatorId })).body.code).toBe(0);
    expect(alive(pid)).toBe(true);
    expect(await pidOf()).toBe(pid);
    expect(await used()).toBe(before + size);

    // Deleting the last record of the job (train/deleteRecords) ends it and gives the quota back.
    const deleted = await call('train/deleteRecords', { jobIds: [jobId], acknowledged: true });
    expect(deleted.body.data).toEqual({ deleted: [jobId] });
    expect(alive(pid)).toBe(false);
    expect(await used()).toBe(before - venv);
    const job = await server.app.db.knex('jobs').where({ id: jobId }).first('user_id');
    expect(fs.existsSync(server.app.blobs.pathOf(artifactPrefix(job.user_id as string, 'tensorboard', jobId)))).toBe(false);
    const gone = await server.fetch(r.body.data.url, { headers: { Authorization: token } });
    expect(gone.status).toBe(404);
    expect((await gone.json()).code).toBe(ErrorCode.trainNotFound);
    expect((await call('train/reStartTensorBoard', { jobId })).body.code).toBe(ErrorCode.trainNotFound);
  });
});
