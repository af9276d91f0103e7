/**
 * `npm run bench -- api [--duration=15] [--connections=10] [--rounds=3] [--db=sqlite|mysql] [--baseline=<checkout>]`:
 * the floor of a signed-in API call. An in-process server on a fresh database (SQLite in a temp
 * dir; `--db=mysql` a fresh database on `TEST_MYSQL_URL`) is driven over loopback by autocannon (a
 * child process, so the server keeps its own event loop) with
 *  - `user/checkToken`: the session token checked and nothing else (auth only),
 *  - `project/getProjectList`: auth, tenant check and a small list (an empty first page),
 * next to a bare Koa endpoint that returns a constant, all in the same run: the endpoints
 * alternate in `rounds`, so a change of load on a shared machine hits each of them.
 * `--baseline=<dir>` also starts the server of another checkout of this repository (e.g. a
 * `git worktree` of an older commit, its `node_modules` linked to this one's) on its own database,
 * and its endpoints join the same alternation: a before/after comparison in one run.
 * Prints one JSON line per figure: req/s, p50/p99 latency and the server's CPU time per request
 * (`process.cpuUsage` over the round divided by the requests answered in it).
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DecisioApp } from '../src/app';
import type { ServerConfig } from '../src/config';
import { createUser, issueToken } from '../src/test/factories';
import { createTestDatabase, type TestServer } from '../src/test/server';
import { bareEndpoint, cannon, close, flag, listen, option, root, type CannonResult } from './load';

function emit(figure: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'api', ...figure }));
}

/** One endpoint under load: where it is, what is sent, and what its rounds measured. */
interface Target {
  name: string;
  url: string;
  body: string;
  headers: Record<string, string>;
  runs: { result: CannonResult; cpuMicros: number }[];
}

/** One round of one endpoint, with the CPU time this process spent meanwhile. */
async function measure(t: Target, seconds: number, connections: number): Promise<void> {
  const before = process.cpuUsage();
  const result = await cannon(t.url, seconds, connections, t.body, t.headers);
  const used = process.cpuUsage(before);
  t.runs.push({ result, cpuMicros: used.user + used.system });
}

function report(t: Target, bare: Target | undefined): void {
  const sum = (f: (r: CannonResult) => number) => t.runs.reduce((s, r) => s + f(r.result), 0);
  const p50s = t.runs.map((r) => r.result.latency.p50).sort((a, b) => a - b);
  const rate = sum((r) => r.requests.average) / t.runs.length;
  const answered = sum((r) => r['2xx']);
  const cpu = t.runs.reduce((s, r) => s + r.cpuMicros, 0);
  const bareRate = bare ? bare.runs.reduce((s, r) => s + r.result.requests.average, 0) / bare.runs.length : 0;
  emit({
    figure: t.name,
    throughput: Math.round(rate),
    unit: 'req/s',
    p50_ms: p50s[p50s.length >> 1],
    p99_ms: Math.max(...t.runs.map((r) => r.result.latency.p99)),
    cpu_us_per_req: Math.round(cpu / Math.max(1, sum((r) => r.requests.total))),
    ...(bare && bare !== t ? { ratio_to_bare: Number((rate / bareRate).toFixed(3)) } : {}),
    failed: sum((r) => r.non2xx) + sum((r) => r.errors) + sum((r) => r.timeouts),
    answered,
  });
}

/** A migrated app of a checkout (this one, or `--baseline`) on a fresh database, listening, with a signed-in user. */
async function startServer(checkout: string, kind: 'sqlite' | 'mysql', label: string) {
  const appModule = (await import(pathToFileURL(path.join(checkout, 'server/src/app.ts')).href)) as typeof import('../src/app');
  const configModule = (await import(pathToFileURL(path.join(checkout, 'server/src/config.ts')).href)) as typeof import('../src/config');
  const database = await createTestDatabase(kind);
  const config: ServerConfig = {
    ...configModule.loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'warn', PUBLIC_DIR: path.join(database.dataDir, 'none') }),
    port: 0,
    host: '127.0.0.1',
  };
  const app: DecisioApp = appModule.createApp(config);
  await app.migrate();
  const { server, url } = await listen(app.handler);
  const ts = { app } as unknown as TestServer;
  const user = await createUser(ts);
  const token = await issueToken(ts, user);
  const headers = { 'Content-Type': 'application/json', Authorization: token };
  for (const [name, body] of [
    ['user/checkToken', '{}'],
    ['project/getProjectList', JSON.stringify({ page: 1, pageSize: 10 })],
  ] as const) {
    const res = await fetch(`${url}/api/${name}`, { method: 'POST', headers, body });
    const json = (await res.json()) as { code: number; message: string };
    if (json.code !== 0) throw new Error(`${label} ${name}: ${json.message}`);
  }
  const targets: Target[] = [
    { name: `${label}: user/checkToken (auth only)`, url: `${url}/api/user/checkToken`, body: '{}', headers, runs: [] },
    {
      name: `${label}: project/getProjectList (auth, tenant, empty page)`,
      url: `${url}/api/project/getProjectList`,
      body: JSON.stringify({ page: 1, pageSize: 10 }),
      headers,
      runs: [],
    },
  ];
  return {
    targets,
    async stop() {
      await close(server);
      await app.close();
      await database.drop();
    },
  };
}

async function main(): Promise<void> {
  process.env.DECISIO_QUIET = '1';
  const seconds = flag('duration', 15);
  const connections = flag('connections', 10);
  const rounds = Math.max(1, flag('rounds', 3));
  const kind = option('db') === 'mysql' ? 'mysql' : 'sqlite';
  if (kind === 'mysql' && !process.env.TEST_MYSQL_URL) throw new Error('--db=mysql needs TEST_MYSQL_URL (e.g. mysql://root@127.0.0.1:3306/test)');
  const baselineDir = option('baseline');

  const bareServer = await bareEndpoint(JSON.stringify({ code: 0, data: { valid: true, userId: '0'.repeat(32), expiresAt: new Date().toISOString() }, message: 'ok' }));
  const servers = [await startServer(root, kind, 'current')];
  if (baselineDir) servers.push(await startServer(path.resolve(baselineDir), kind, 'baseline'));

  try {
    const bareTarget: Target = { name: 'bare koa endpoint', url: bareServer.url, body: '{}', headers: { 'Content-Type': 'application/json' }, runs: [] };
    const targets = [bareTarget, ...servers.flatMap((s) => s.targets)];
    emit({
      note: `${kind}; ${os.cpus().length} cores; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${seconds} s per endpoint in ${rounds} alternating rounds, ${connections} connections`,
    });
    for (const t of targets.slice(1)) await cannon(t.url, Math.min(2, seconds), connections, t.body, t.headers); // warm-up (JIT, pools)
    const slice = Math.max(1, Math.round(seconds / rounds));
    for (let r = 0; r < rounds; r++) {
      // Alternate the order as well, so no endpoint always runs right after the same one.
      const order = r % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) await measure(t, slice, connections);
    }
    for (const t of targets) report(t, bareTarget);
    emit({ note: `load average after ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}` });
  } finally {
    await close(bareServer.server);
    for (const s of servers) await s.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
