/**
 * `trainSSH/getTrainSSH` (issue 21 item 4): a terminal into the worker that runs a training. A
 * real environment training in debug mode (it waits at its breakpoint, still running on the
 * server's in-process worker) and an SSH server started by the test as that worker's SSH server
 * (`WORKER_SSH_ADDRESS`), signed in with the operator's key (`TRAIN_SSH_KEY_FILE`). Off by default.
 * The terminal never asks the worker for a login shell: it asks to run (`exec`, with a pty) the
 * bubblewrap-confined shell of `confine.ts`, and a worker that announced no sandbox is refused.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ErrorCode, SSH_CLOSE, messageOf } from '@decisio/domain';
import { jobRoot } from '@decisio/learning/sandbox';
import { createUser, issueToken } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/server';
import { TINY_BC, modellingTestServer, until } from '../modelling/testing';
import { confinedTerminalCommand } from './confine';
import { ed25519KeyPair, startSshServer, type TestSshServer } from './testing';

const JOB = '0123456789abcdef0123456789abcdef';

describe('trainSSH/getTrainSSH when the operator has not enabled it', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    token = await issueToken(server, await createUser(server));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers "get SSH information failed", and checks the caller and the input', async () => {
    const r = await server.call('trainSSH/getTrainSSH', { token, body: { jobId: JOB } });
    expect(r.body.code).toBe(ErrorCode.sshInfoFailed);
    expect(r.status).toBe(404);
    expect((await server.call('trainSSH/getTrainSSH', { body: { jobId: JOB } })).status).toBe(401);
    expect((await server.call('trainSSH/getTrainSSH', { token, body: { jobId: 'x' } })).body.code).toBe(ErrorCode.paramInvalid);
    const probe = await server.call('trainSSH/getTrainSSH', { token, body: { jobId: JOB, probe: true } });
    expect([probe.status, probe.body.data]).toEqual([200, { available: false }]);
  });
});

describe('trainSSH/getTrainSSH into the worker of a running training', () => {
  let server: TestServer;
  let worker: TestSshServer;
  let token: string;
  let otherToken: string;
  let dir: string;
  let jobId: string;
  let simulatorId: string;
  const get = (body: Record<string, unknown>, as = token) => server.call('trainSSH/getTrainSSH', { token: as, body: { jobId, ...body } });

  beforeAll(async () => {
    const operatorKey = ed25519KeyPair();
    worker = await startSshServer({ username: 'trainer', publicKey: operatorKey.public });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-train-ssh-'));
    const keyFile = path.join(dir, 'id_ed25519');
    fs.writeFileSync(keyFile, operatorKey.private, { mode: 0o600 });
    const m = await modellingTestServer('sqlite', {
      env: { TRAIN_SSH: 'on', TRAIN_SSH_USER: 'trainer', TRAIN_SSH_KEY_FILE: keyFile, WORKER_SSH_ADDRESS: `127.0.0.1:${worker.port}` },
    });
    ({ server, token } = m);
    const created = await server.call('trainSimulator/create', { token, body: { solutionId: m.solutionId, schemeId: m.schemeId, name: 'env-ssh', stopConditions: { system: true }, hyperparameters: { ...TINY_BC, epochs: 4 }, mode: 'debug' } });
    if (created.body.code !== 0) throw new Error(JSON.stringify(created.body));
    ({ id: simulatorId, jobId } = created.body.data as { id: string; jobId: string });
    otherToken = await issueToken(server, await createUser(server));
    await until(() => server.call('trainSimulator/get', { token, body: { id: simulatorId } }), (r) => r.body.data.state === 'debugging');
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await worker?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens a confined shell on the worker for the training\'s owner, after the worker\'s host key is confirmed', async () => {
    const row = await server.app.db.knex('workers').where({ status: 'online' }).first();
    expect(row.ssh_address).toBe(`127.0.0.1:${worker.port}`);
    // The worker announced how it confines a terminal: its bwrap (found by the sandbox's probe) and its job root.
    const sandbox = JSON.parse(String(row.terminal_sandbox));
    expect(sandbox).toMatchObject({ bwrap: expect.stringMatching(/^\/.*bwrap$/), jobRoot: jobRoot() });
    // The detail asks first whether a terminal would open: only for the owner, without connecting.
    expect((await get({ probe: true })).body.data).toEqual({ available: true });
    expect((await get({ probe: true }, otherToken)).body.data).toEqual({ available: false });
    // Someone else's training: the same answer as a missing one.
    expect((await get({}, otherToken)).body.code).toBe(ErrorCode.sshInfoFailed);
    // First time: the worker's key fingerprint, and no sign-in attempted yet.
    const first = await get({});
    expect(first.body.code).toBe(ErrorCode.sshHostKeyUnknown);
    expect(first.body.errors).toMatchObject({ fingerprint: worker.fingerprint, host: '127.0.0.1', port: String(worker.port) });
    expect(worker.authAttempts()).toBe(0);
    const r = await get({ trustFingerprint: worker.fingerprint, cols: 100, rows: 30 });
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({ target: `trainer@127.0.0.1:${worker.port}`, workerId: row.id, hostKey: { fingerprint: worker.fingerprint, trust: 'new' } });
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/ssh/terminal?ticket=${encodeURIComponent(r.body.data.ticket as string)}`);
    let text = '';
    ws.on('message', (d: Buffer) => (text += d.toString('utf8')));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await once(ws, 'open');
    ws.send('nvidia-smi\r');
    await until(async () => text, (t) => t.includes('out:nvidia-smi'), 5000);
    ws.send('exit\r');
    expect(await closed).toBe(SSH_CLOSE.ended);
    // The worker was asked to run the confined shell of this job, with a pty, and never for a login shell.
    expect(worker.requests()).toEqual([{ type: 'exec', command: confinedTerminalCommand(sandbox, jobId), pty: true }]);
    expect((worker.requests()[0] as { command: string }).command).toContain(`${jobRoot()}/${jobId}`);
    await server.app.flush();
    const opened = await server.app.db.knex('logs').where({ title: 'ssh/open', response_code: 0 }).orderBy('created_at', 'desc').first();
    expect(JSON.parse(String(opened.params))).toMatchObject({ jobId, workerId: row.id, username: 'trainer', confined: true });
    // The operator's private key never reaches the log.
    const all = (await server.app.db.knex('logs').where('title', 'like', '%SSH%').orWhere('title', 'like', 'ssh/%').select('params')).map((x: { params: string }) => String(x.params)).join('\n');
    expect(all).not.toContain('PRIVATE KEY');
  });

  it('refuses a worker that cannot confine the terminal (no bwrap announced) instead of opening a login shell', async () => {
    const knex = server.app.db.knex;
    const row = await knex('workers').where({ status: 'online' }).first();
    const [attempts, requests] = [worker.authAttempts(), worker.requests().length];
    await knex('workers').where({ id: row.id }).update({ terminal_sandbox: null });
    try {
      const r = await server.call('trainSSH/getTrainSSH', { token, body: { jobId, trustFingerprint: worker.fingerprint }, headers: { 'Accept-Language': 'en-US' } });
      expect(r.body.code).toBe(ErrorCode.sshTerminalUnconfined);
      expect(r.body.message).toBe(messageOf('sshTerminalUnconfined', 'en-US'));
      expect((await get({ trustFingerprint: worker.fingerprint })).body.message).toBe(messageOf('sshTerminalUnconfined', 'zh-CN'));
      expect((await get({ probe: true })).body.data).toEqual({ available: false });
      // Someone else still learns nothing about the job.
      expect((await get({}, otherToken)).body.code).toBe(ErrorCode.sshInfoFailed);
      // Not even a connection to the worker.
      expect([worker.authAttempts(), worker.requests().length]).toEqual([attempts, requests]);
    } finally {
      await knex('workers').where({ id: row.id }).update({ terminal_sandbox: row.terminal_sandbox });
    }
  });

  it('refuses once the training no longer runs', async () => {
    expect((await server.call('train/stopTrain', { token, body: { jobId } })).body.code).toBe(0);
    await until(() => server.call('trainSimulator/get', { token, body: { id: simulatorId } }), (r) => !['debugging', 'stopping', 'processing'].includes(r.body.data.state as string));
    expect((await get({})).body.code).toBe(ErrorCode.sshInfoFailed);
    expect((await get({ probe: true })).body.data).toEqual({ available: false });
  });
});
