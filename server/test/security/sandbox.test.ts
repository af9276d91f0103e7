/**
 * User code isolation against a real server (SQLite, and MariaDB with `TEST_MYSQL_URL`): an
 * ordinary signed-up user sends reward code through `objective/tryReward` that does what an
 * attacker did before the bubblewrap sandbox (read `DATA_DIR`, write a session row, read other
 * processes' environment, reach the database over its Unix socket and TCP, write into `/tmp`,
 * fork 200 processes, leave a detached process behind). Each probe asserts that the harm did
 * not happen (host files unchanged, the forged token refused, no connection accepted, no
 * process left), not only that an error came back.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, issueToken, type TestUser } from '../../src/test/factories';
import { databases, startTestServer, type TestServer } from '../../src/test/server';
import { createSolution, tinyCsv, tinyGraph, uploadCsv } from '../../src/modules/modelling/testing';

/** Command lines of every process on the host (outside the sandbox). */
function hostCommandLines(): string[] {
  const out: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      out.push(readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim());
    } catch {
      /* gone */
    }
  }
  return out;
}

async function listener(where: { path: string } | { port: 0; host: string }): Promise<{ server: Server; accepted: () => number; port: number }> {
  let n = 0;
  const server = createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((resolve) => server.listen(where, resolve));
  const addr = server.address();
  return { server, accepted: () => n, port: typeof addr === 'object' && addr ? addr.port : 0 };
}

/** A reward whose value is what `probe()` (Python, returning a number) found; 0 means no harm. */
function reward(body: string): string {
  return `import os, subprocess, numpy as np, _socket

def probe():
${body
  .trim()
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}

def get_reward(data):
    v = float(probe())
    return np.full((np.asarray(data['obs']).shape[0], 1), v, dtype=np.float32)
`;
}

describe.each(databases)('user code sandbox through objective/tryReward on %s', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let solutionId: string;
  const marker = `${process.pid % 1000}${Date.now() % 100000}.${kind.length}`;
  const tmpEscape = `/tmp/decisio-escape-${marker}`;
  const tryReward = (code: string, locale = 'en-US') =>
    server.call('objective/tryReward', { token, body: { solutionId, files: { 'reward.py': code }, rows: 4 }, headers: { 'Accept-Language': locale } });
  /** The reward ran and found nothing (every row 0), or it failed: either way no harm was reported. */
  const harmless = (r: Awaited<ReturnType<typeof tryReward>>) => {
    expect(r.body.code).toBe(0);
    if (r.body.data.ok) expect(r.body.data.summary.max).toBe(0);
    return r.body.data;
  };
  const leftovers = () => hostCommandLines().filter((c) => c.includes(`sleep ${marker}`));

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { concurrency: 1 } });
    owner = await createUser(server);
    token = await issueToken(server, owner);
    ({ solutionId } = await createSolution(server, owner));
    await server.call('solution/setPattern', { token, body: { solutionId, graph: tinyGraph() } });
    const tableId = await uploadCsv(server, owner, tinyCsv(3, 6));
    await server.call('solution/setTableCorrelation', { token, body: { solutionId, correlation: { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' } } });
    const ok = await tryReward(reward('return 0'));
    expect(ok.body.data).toMatchObject({ ok: true });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(tmpEscape, { force: true });
  });

  it('cannot read DATA_DIR (database file, key pair, other users\' files)', async () => {
    const dataDir = server.config.dataDir;
    const files = readdirSync(dataDir, { recursive: true }).map(String);
    expect(files.length).toBeGreaterThan(0); // there is something to steal
    const r = await tryReward(
      reward(`
root = ${JSON.stringify(dataDir)}
n = 0
for d, _, names in os.walk(root):
    for f in names:
        with open(os.path.join(d, f), 'rb') as h:
            n += len(h.read())
n += 1 if os.path.exists(root) else 0
return n`),
    );
    harmless(r);
    if (kind === 'sqlite') {
      const db = path.join(dataDir, 'decisio.sqlite');
      expect(existsSync(db)).toBe(true);
      const e = await tryReward(reward(`return len(open(${JSON.stringify(db)}, 'rb').read())`), 'zh-CN');
      expect(e.body.data.ok).toBe(false);
      expect(e.body.data.error.code).toBe('sandbox.exception');
      expect(e.body.data.error.message).toContain('FileNotFoundError');
      expect(e.body.data.error.message).toContain('第'); // the user's language
    }
  });

  it('cannot write a session row for the admin and sign in with it', async () => {
    const forged = randomBytes(32).toString('base64url');
    const hash = createHash('sha256').update(forged).digest('hex');
    const db = path.join(server.config.dataDir, 'decisio.sqlite');
    const before = existsSync(db) ? statSync(db).mtimeMs : null; // with MariaDB: no such file (the sockets are the next probe)
    const r = await tryReward(
      reward(`
import sqlite3
c = sqlite3.connect(${JSON.stringify(db)})
u = c.execute('select id, tenant_id from users limit 1').fetchone()
c.execute("insert into sessions (id, user_id, tenant_id, token_hash, created_at, expires_at) values ('forged0000000000000000000000000', ?, ?, ?, '2026-01-01', '2099-01-01')", (u[0], u[1], ${JSON.stringify(hash)}))
c.commit()
return 1`),
    );
    harmless(r);
    expect(await server.app.db.knex('sessions').where({ token_hash: hash }).first()).toBeUndefined();
    expect((await server.call('user/getUser', { token: forged })).status).toBe(401);
    expect(existsSync(db) ? statSync(db).mtimeMs : null).toBe(before);
  });

  it("reads no other process's environment from /proc", async () => {
    // A variable of the server process's environment as /proc shows it on the host.
    const entry = readFileSync(`/proc/${process.pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => /^[A-Z_][A-Z0-9_]*=./.test(e) && !/^(PATH|HOME|TMPDIR|LANG|OMP_NUM_THREADS|OPENBLAS_NUM_THREADS|MKL_NUM_THREADS)=/.test(e));
    expect(entry).toBeDefined();
    const r = await tryReward(
      reward(`
hits = 0
for p in os.listdir('/proc'):
    if p.isdigit():
        try:
            if ${JSON.stringify(entry)}.encode() in open('/proc/%s/environ' % p, 'rb').read():
                hits += 1
        except OSError:
            pass
return hits`),
    );
    harmless(r);
    const pids = await tryReward(reward(`return len([p for p in os.listdir('/proc') if p.isdigit()]) - 2`));
    expect(pids.body.data).toMatchObject({ ok: true, summary: { max: 0 } }); // only bwrap's init and the runner
  });

  it("reaches neither the database's Unix socket nor 127.0.0.1 (MariaDB, PostgreSQL, Redis, the server)", async () => {
    const sockDir = mkdtempSync(path.join(os.tmpdir(), 'decisio-sock-'));
    chmodSync(sockDir, 0o777);
    const unix = await listener({ path: path.join(sockDir, 'db.sock') });
    chmodSync(path.join(sockDir, 'db.sock'), 0o777);
    const tcp = await listener({ port: 0, host: '127.0.0.1' });
    const serverPort = Number(new URL(server.url).port);
    try {
      const sockets = [path.join(sockDir, 'db.sock'), '/run/mysqld/mysqld.sock', '/var/run/mysqld/mysqld.sock', '/var/run/postgresql/.s.PGSQL.5432'];
      const r = await tryReward(
        reward(`
n = 0
for p in ${JSON.stringify(sockets)}:
    try:
        s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        s.connect(p)
        n += 1
    except OSError:
        pass
for port in ${JSON.stringify([tcp.port, 3306, 5432, 6379, serverPort])}:
    try:
        s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
        s.settimeout(2)
        s.connect(('127.0.0.1', port))
        n += 1
    except OSError:
        pass
return n`),
      );
      const data = harmless(r);
      expect(data.ok).toBe(true); // every connection was tried, and none got through
      expect(unix.accepted()).toBe(0);
      expect(tcp.accepted()).toBe(0);
    } finally {
      unix.server.close();
      tcp.server.close();
      rmSync(sockDir, { recursive: true, force: true });
    }
  });

  it('writes nothing the host sees: /tmp is private', async () => {
    const r = await tryReward(reward(`open(${JSON.stringify(tmpEscape)}, 'w').write('owned')\nreturn 0`));
    expect(r.body.data.ok).toBe(true); // written into the sandbox's own /tmp ...
    expect(existsSync(tmpEscape)).toBe(false); // ... which is not the host's
  });

  it('refuses 200 forks with a clear message and leaves no process behind', async () => {
    const r = await tryReward(reward(`procs = [subprocess.Popen(['sleep', '${marker}']) for i in range(200)]\nreturn len(procs)`));
    expect(r.body.data.ok).toBe(false);
    expect(r.body.data.error.code).toBe('sandbox.processLimit');
    expect(r.body.data.error.message).toContain('processes');
    const zh = await tryReward(reward(`procs = [subprocess.Popen(['sleep', '${marker}']) for i in range(200)]\nreturn len(procs)`), 'zh-CN');
    expect(zh.body.data.error.message).toContain('进程');
    expect(leftovers()).toEqual([]);
  });

  it('a detached process does not outlive the call', async () => {
    const r = await tryReward(
      reward(`subprocess.Popen(['sleep', '${marker}'], start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\nreturn 0`),
    );
    expect(r.body.data.ok).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('cannot read root-only files (/etc/shadow, /root)', async () => {
    const r = await tryReward(
      reward(`
n = 0
for p in ['/etc/shadow', '/etc/passwd', '/root/.bash_history']:
    try:
        n += len(open(p, 'rb').read())
    except OSError:
        pass
return n`),
    );
    harmless(r);
    expect(r.body.data.ok).toBe(true);
  });
});
