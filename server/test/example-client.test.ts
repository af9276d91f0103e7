/**
 * The example client of the docs (docs/examples/client.mjs) run as a user would run it: a
 * separate `node` process against a real server (real database, real job threads), with tiny
 * hyperparameters. It must go from a CSV to 2,000 decisions and print its JSON summary; a
 * change of the API that breaks the documented flow fails here.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../src/test/factories';
import { databases, startTestServer, type TestServer } from '../src/test/server';

const CLIENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/examples/client.mjs');

function runClient(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLIENT], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.each(databases)('the example client of the docs on %s', (kind) => {
  let server: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { concurrency: 1 } });
    await server.app.startJobs();
    user = await createUser(server);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('goes from a CSV to a running service and 2,000 decisions', async () => {
    const run = await runClient({ DECISIO_URL: server.url, DECISIO_USERNAME: user.username, DECISIO_PASSWORD: user.password, DECISIO_DECISIONS: '2000' });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    expect(summary).toMatchObject({ ok: true, decisions: 2000, service: { status: 'running' } });
    expect(summary.environment.metricsPoints).toBeGreaterThan(0);
    expect(Number.isFinite(summary.meanDecision)).toBe(true);
    // What it made is the user's, as the API says.
    const service = await server.app.db.knex('model_services').where({ id: summary.service.id }).first('status', 'created_by');
    expect(service).toMatchObject({ status: 'running', created_by: user.id });
    await server.app.flush();
    const calls = await server.app.db.knex('model_service_records').where({ service_id: summary.service.id }).count({ n: '*' });
    expect(Number((calls as Array<{ n: number }>)[0]!.n)).toBeGreaterThan(0);
  }, 180_000);
});
