import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/server';
import { freePort } from './tensorboard';
import { TINY_BC, modellingTestServer, until, type ModellingTestServer } from './testing';

const hasGit = spawnSync('git', ['--version']).status === 0;

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => {
      c.end();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

describe.skipIf(!hasGit)('training code from a git repository', () => {
  let server: TestServer;
  let scope: ModellingTestServer;
  let daemon: ChildProcess;
  let base: string;
  let port: number;
  let sha: string;

  beforeAll(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-gitd-'));
    const repo = path.join(base, 'env');
    const git = (...args: string[]) => {
      const r = spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd: repo, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      return r.stdout.trim();
    };
    fs.mkdirSync(repo);
    git('init', '-q');
    fs.writeFileSync(path.join(repo, 'helper.py'), 'SCALE = 1.0\n');
    git('add', '.');
    git('commit', '-q', '-m', 'helper');
    sha = git('rev-parse', 'HEAD');
    port = await freePort();
    daemon = spawn('git', ['daemon', '--reuseaddr', '--export-all', `--base-path=${base}`, '--listen=127.0.0.1', `--port=${port}`, base], { stdio: 'ignore' });
    await until(() => listening(port), (ok) => ok, 10_000);

    scope = await modellingTestServer('sqlite');
    server = scope.server;
  });
  afterAll(async () => {
    daemon?.kill();
    await server?.stop();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('checks out the commit into the job workspace, and fails the job for an unknown commit', async () => {
    const { token, solutionId, schemeId } = scope;
    const call = (name: string, body: unknown) => server.call(name, { token, body });
    const train = (name: string, commit: string) =>
      call('trainSimulator/create', { solutionId, schemeId, name, stopConditions: { system: true }, hyperparameters: TINY_BC, git: { enabled: true, url: `git://127.0.0.1:${port}/env`, commit } });
    const state = (id: string) => until(() => call('trainSimulator/get', { id }), (r) => ['successful', 'failure'].includes(r.body.data.state));

    const ok = await train('env-git', sha);
    expect(ok.body.code).toBe(0);
    expect((await state(ok.body.data.id)).body.data.state).toBe('successful');
    const log = await call('train/getTrainLog', { jobId: ok.body.data.jobId });
    expect(log.body.data.items.map((l: { message: string }) => l.message)).toContain(`git: checked out ${sha} (1 files)`);

    const bad = await train('env-git-bad', 'no-such-branch');
    const failed = await state(bad.body.data.id);
    expect(failed.body.data.state).toBe('failure');
    expect(failed.body.data.error).toContain('no-such-branch');
  });
});
