/**
 * Builds the workbench when stale, starts the real server (SQLite, fresh data directory,
 * free port) as a child process and hands its address to the specs (`inject('baseUrl')`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureWebBuild, root } from '../scripts/lib.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/**
 * `CONNECTION_ALLOW` of the e2e server: exactly the hosts of the test databases the specs import
 * from (`TEST_MYSQL_URL`, `TEST_POSTGRES_URL`); every other non-public host stays refused.
 */
function testConnectionAllow(): string {
  const hosts = new Set<string>();
  for (const url of [process.env.TEST_MYSQL_URL, process.env.TEST_POSTGRES_URL]) {
    if (!url) continue;
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    if (host) hosts.add(net.isIP(host) === 4 ? `${host}/32` : net.isIP(host) === 6 ? `${host}/128` : host);
  }
  return [...hosts].join(',');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitHealthy(url: string, child: ChildProcess, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy within ${ms} ms`);
}

let child: ChildProcess | undefined;

export async function setup(project: TestProject): Promise<void> {
  const code = await ensureWebBuild();
  if (code !== 0) throw new Error('workbench build failed');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = fs.openSync(path.join(dataDir, 'server.log'), 'a');
  child = spawn(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'server/src/main.ts')],
    {
      cwd: root,
      // Every spec signs its users up from this one address: the per-address code limit would
      // otherwise count the whole suite's sign-ups (modules/codes/README.md).
      env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', CONNECTION_ALLOW: testConnectionAllow(), CODE_ADDRESS_MAX_PER_HOUR: '1000' },
      stdio: ['ignore', log, log],
    },
  );
  try {
    await waitHealthy(baseUrl, child, 120_000);
  } catch (e) {
    process.stderr.write(fs.readFileSync(path.join(dataDir, 'server.log'), 'utf8'));
    throw e;
  }
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
}

export async function teardown(): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child!.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}
