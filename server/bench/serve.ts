/**
 * `npm run bench -- serve [--duration=30] [--connections=10] [--rounds=3] [--hidden=256,256,256]`: single-row
 * decisions of a 3 x 256 MLP policy through the access address (`POST /api/decide/<id>`) of an in-process server on
 * SQLite in a temp dir, driven over loopback by autocannon (a child process, so the server keeps
 * its own event loop), next to a bare Koa endpoint that returns a constant in the same run (the
 * two alternate in `rounds`, so a change of load on a shared machine hits both).
 * Prints one JSON line per figure: throughput, p50/p99 latency, the ratio to the bare endpoint,
 * failed calls, and whether every answered decision was recorded exactly once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getBackend } from '@decisio/compute';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { SAMPLE_ROW, insertPolicy, insertProject, samplePolicyFiles } from '../src/modules/deploy/fixtures';
import { createUser, issueToken } from '../src/test/factories';
import type { TestServer } from '../src/test/server';
import { bareEndpoint, cannon, close, flag, listen, type CannonResult } from './load';

/** Rounds of one endpoint as one figure: mean throughput, the median p50, the worst p99, summed failures. */
function combine(runs: CannonResult[]): CannonResult {
  const sum = (f: (r: CannonResult) => number) => runs.reduce((s, r) => s + f(r), 0);
  const p50s = runs.map((r) => r.latency.p50).sort((a, b) => a - b);
  return {
    requests: { average: sum((r) => r.requests.average) / runs.length, total: sum((r) => r.requests.total) },
    latency: { p50: p50s[p50s.length >> 1]!, p99: Math.max(...runs.map((r) => r.latency.p99)), average: sum((r) => r.latency.average) / runs.length },
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
    '2xx': sum((r) => r['2xx']),
  };
}

function emit(figure: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'serve', ...figure }));
}

async function main(): Promise<void> {
  process.env.DECISIO_QUIET = '1';
  const seconds = flag('duration', 30);
  const connections = flag('connections', 10);
  const rounds = Math.max(1, flag('rounds', 3));
  const hiddenArg = process.argv.find((a) => a.startsWith('--hidden='));
  const hidden = hiddenArg ? hiddenArg.slice('--hidden='.length).split(',').map(Number) : [256, 256, 256];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-bench-serve-'));
  const decisio = createApp({ ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLIC_DIR: path.join(dataDir, 'none') }), port: 0, host: '127.0.0.1' });
  await decisio.migrate();
  let answered = 0;
  const { server, url } = await listen((req, res) => {
    if (req.url?.startsWith('/api/decide/')) res.on('finish', () => answered++);
    decisio.handler(req, res);
  });

  const bareServer = await bareEndpoint(JSON.stringify({ code: 0, data: { decisionId: '0'.repeat(32), decisions: { discount: 0.25, level: 5 } }, message: 'ok' }));

  try {
    // A user, a project and a trained-shape policy (3 hidden layers of 256), deployed and started.
    const ts = { app: decisio } as unknown as TestServer;
    const user = await createUser(ts);
    const token = await issueToken(ts, user);
    const project = await insertProject(decisio, user.tenantId, user.id);
    const policyId = await insertPolicy(decisio, { tenantId: user.tenantId, creatorId: user.id, ...project }, { files: await samplePolicyFiles(hidden) });
    const call = async (name: string, body: unknown) => {
      const res = await fetch(`${url}/api/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: token }, body: JSON.stringify(body) });
      const json = (await res.json()) as { code: number; data: any; message: string };
      if (json.code !== 0) throw new Error(`${name}: ${json.message}`);
      return json.data;
    };
    const waitFor = async (id: string, status: string) => {
      for (let i = 0; i < 1000; i++) {
        const d = await call('modeldeploy/queryDetail', { id });
        if (d.status === status) return;
        if (d.status === 'failure') throw new Error(`service failed: ${d.failureReason}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`service never reached ${status}`);
    };
    const created = await call('modeldeploy/create', { serviceName: 'bench', policyId });
    await waitFor(created.id, 'waiting');
    await call('modeldeploy/start', { id: created.id });
    await waitFor(created.id, 'running');
    const address = `${url}/api/decide/${created.id}`;
    const body = JSON.stringify(SAMPLE_ROW);
    const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${created.accessToken}` };
    const probe = await fetch(address, { method: 'POST', headers, body });
    const probeJson = (await probe.json()) as { code: number; data: unknown };
    if (probeJson.code !== 0) throw new Error(`probe decision failed: ${JSON.stringify(probeJson)}`);

    emit({ note: `cpu path ${getBackend().capabilities.path}; ${os.cpus().length} cores; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${seconds} s per endpoint in ${rounds} alternating rounds, ${connections} connections` });
    await cannon(address, Math.min(3, seconds), connections, body, headers); // warm-up (JIT, pools)
    // Alternate bare and decision runs so that a change of load on a shared machine hits both.
    const bareRuns: CannonResult[] = [];
    const serveRuns: CannonResult[] = [];
    const slice = Math.max(1, Math.round(seconds / rounds));
    for (let r = 0; r < rounds; r++) {
      bareRuns.push(await cannon(bareServer.url, slice, connections, body, headers));
      serveRuns.push(await cannon(address, slice, connections, body, headers));
    }
    const bareResult = combine(bareRuns);
    const serveResult = combine(serveRuns);

    // Let the last in-flight calls finish, then write the queued records and count them.
    await new Promise((r) => setTimeout(r, 300));
    await decisio.flush();
    const row = (await decisio.db.knex('model_service_records').where('service_id', created.id).count({ n: '*' }).first()) as { n: number | string };
    const recorded = Number(row.n);
    const failedRecords = Number(
      ((await decisio.db.knex('model_service_records').where({ service_id: created.id, result: 'failure' }).count({ n: '*' }).first()) as { n: number | string }).n,
    );

    const rate = serveResult.requests.average;
    emit({ figure: 'bare koa endpoint', throughput: Math.round(bareResult.requests.average), unit: 'req/s', p50_ms: bareResult.latency.p50, p99_ms: bareResult.latency.p99 });
    emit({
      figure: `single-row decisions, MLP ${hidden.join(' x ')}`,
      throughput: Math.round(rate),
      unit: 'decisions/s',
      p50_ms: serveResult.latency.p50,
      p99_ms: serveResult.latency.p99,
      ratio_to_bare: Number((rate / bareResult.requests.average).toFixed(3)),
      goal: '>= 5000 decisions/s, p99 < 10 ms, >= 0.5x bare',
      met: rate >= 5000 && serveResult.latency.p99 < 10 && rate >= 0.5 * bareResult.requests.average,
    });
    emit({
      figure: 'failed calls',
      non2xx: serveResult.non2xx,
      errors: serveResult.errors,
      timeouts: serveResult.timeouts,
      failed_records: failedRecords,
    });
    emit({
      figure: 'recorded calls',
      answered_by_server: answered,
      recorded,
      exactly_once: recorded === answered,
    });
  } finally {
    await close(bareServer.server);
    await close(server);
    await decisio.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
