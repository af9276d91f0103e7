import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostGuard } from '../../net/host-guard';
import type { TestServer } from '../../test/server';
import { GIT_UNREACHABLE, checkoutGit } from './engine/git';
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
  let secret: string;
  const SECRET = `server-secret-${process.pid}-${Date.now()}`;

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
    // A link to a file of the server's: checked out, it must not hand the server's file to user code.
    secret = path.join(base, 'server-secret.json');
    fs.writeFileSync(secret, JSON.stringify({ secret: SECRET }));
    fs.symlinkSync(secret, path.join(repo, 'leak.json'));
    git('add', '.');
    git('commit', '-q', '-m', 'helper');
    sha = git('rev-parse', 'HEAD');
    port = await freePort();
    daemon = spawn('git', ['daemon', '--reuseaddr', '--export-all', `--base-path=${base}`, '--listen=127.0.0.1', `--port=${port}`, base], { stdio: 'ignore' });
    await until(() => listening(port), (ok) => ok, 10_000);

    // The daemon listens on loopback: the operator allows it here, as CONNECTION_ALLOW documents.
    scope = await modellingTestServer('sqlite', { env: { CONNECTION_ALLOW: '127.0.0.1/32' } });
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
    expect(log.body.data.items.map((l: { message: string }) => l.message)).toContain(`git: checked out ${sha} (2 files)`);

    const bad = await train('env-git-bad', 'no-such-branch');
    const failed = await state(bad.body.data.id);
    expect(failed.body.data.state).toBe('failure');
    expect(failed.body.data.error).toContain('no-such-branch');
  });

  it('hands user code a link as its text, never the file it points at', async () => {
    const { files } = await checkoutGit({ enabled: true, url: `git://127.0.0.1:${port}/env`, commit: sha }, async () => undefined, { guard: new HostGuard('127.0.0.1/32') });
    expect(Object.keys(files).sort()).toEqual(['helper.py', 'leak.json']);
    expect(files['leak.json']).toBe(secret);
    for (const text of Object.values(files)) expect(text).not.toContain(SECRET);
  });

  it('refuses option-like commits and other protocols before running git', async () => {
    const log: string[] = [];
    const say = async (l: string) => void log.push(l);
    const guard = new HostGuard('127.0.0.1/32');
    const marker = path.join(base, 'upload-pack-ran');
    await expect(checkoutGit({ enabled: true, url: `git://127.0.0.1:${port}/env`, commit: `--upload-pack=touch ${marker}` }, say, { guard })).rejects.toThrow(/not a commit id or branch name/);
    for (const url of [`ssh://127.0.0.1:${port}/env`, `file://${base}/env`, `ext::sh -c touch% ${marker}`]) {
      await expect(checkoutGit({ enabled: true, url, commit: sha }, say, { guard })).rejects.toThrow(/not supported|not a URL/);
    }
    expect(fs.existsSync(marker)).toBe(false);
    expect(log).toEqual([]);
  });
});

describe.skipIf(!hasGit)('git repositories on hosts users may not reach', () => {
  it('never connects to loopback, private or metadata addresses unless allowed, and says one generic thing', async () => {
    let connections = 0;
    const listener = net.createServer((s) => {
      connections += 1;
      s.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const port = (listener.address() as net.AddressInfo).port;
    const reasons: string[] = [];
    try {
      for (const url of [`git://127.0.0.1:${port}/env`, `http://localhost:${port}/env.git`, `https://[::ffff:127.0.0.1]:${port}/env.git`, `http://2130706433:${port}/env.git`, 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/env.git', 'git://192.168.1.1/env']) {
        await expect(checkoutGit({ enabled: true, url, commit: 'main' }, async () => undefined, { guard: new HostGuard(), onRefused: (r) => reasons.push(r) })).rejects.toThrow(GIT_UNREACHABLE);
      }
      expect(connections).toBe(0);
      expect(reasons).toHaveLength(7);
      // Allowed, the same host is reached (and a closed repository still answers the generic message).
      await expect(checkoutGit({ enabled: true, url: `git://127.0.0.1:${port}/env`, commit: 'main' }, async () => undefined, { guard: new HostGuard('127.0.0.1/32'), timeoutMs: 10_000 })).rejects.toThrow(GIT_UNREACHABLE);
      expect(connections).toBe(1);
    } finally {
      listener.close();
    }
  });
});
