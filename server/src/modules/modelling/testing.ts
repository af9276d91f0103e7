/**
 * Test helpers of the modelling module: a project and solution, a CSV table, a tiny graph, a
 * server with a processed scheme, and tiny BC hyperparameters.
 */
import { importReviveYaml } from '@decisio/learning';
import { TINY_ACTION, TINY_OBS, TINY_YAML, reviveYaml } from '@decisio/learning/testing';
import type { DatabaseKind } from '../../db/database';
import { newId } from '../../db/ids';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { startTestServer, type TestServer, type TestServerOptions } from '../../test/server';

/** A REVIVE graph: obs -> action -> next_obs (x' = 0.9 x + 0.5 a); the learning engine's fixture. */
export { TINY_YAML };

/** The decision graph document of {@link TINY_YAML}. */
export function tinyGraph(): unknown {
  return importReviveYaml(TINY_YAML).graph;
}

/** A tuning graph: a tunable gain `g` (constant per trajectory) feeds the action. */
export const TUNING_YAML = reviveYaml([{ name: 'g', dim: 'parameter', type: 'continuous', max: 1, min: 0 }, TINY_OBS, TINY_ACTION]);

/** The decision graph document of {@link TUNING_YAML}. */
export function tuningGraph(): unknown {
  return importReviveYaml(TUNING_YAML).graph;
}

/** A reward file: stay close to zero. */
export const REWARD_PY = `import numpy as np

def get_reward(data):
    return -np.abs(np.asarray(data['next_obs'])[:, :1])
`;

/** CSV of `trajectories` x `steps` rows of the linear system, with traj, step and time fields. */
export function tinyCsv(trajectories = 6, steps = 12): string {
  const lines = ['traj,step,time,x,a,g'];
  let seed = 7;
  const rnd = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (let t = 0; t < trajectories; t++) {
    let x = rnd() * 3 - 1.5;
    const g = rnd();
    for (let k = 0; k < steps; k++) {
      const a = Math.max(-1, Math.min(1, -g * x + 0.1 * (rnd() - 0.5)));
      lines.push(`${t},${k},2026-01-01T00:${String(k).padStart(2, '0')}:00Z,${x.toFixed(5)},${a.toFixed(5)},${g.toFixed(4)}`);
      x = 0.9 * x + 0.5 * a;
    }
  }
  return lines.join('\n') + '\n';
}

/** Inserts a project owned by `owner` and a solution in it. */
export async function createSolution(server: TestServer, owner: TestUser, options: { projectId?: string; goalType?: string } = {}): Promise<{ projectId: string; solutionId: string }> {
  const knex = server.app.db.knex;
  const now = new Date();
  const projectId = options.projectId ?? newId();
  if (!options.projectId) {
    await knex('projects').insert({ id: projectId, tenant_id: owner.tenantId, owner_id: owner.id, name: `p${projectId.slice(0, 6)}`, colour: '#123456', created_at: now, updated_at: now });
  }
  const solutionId = newId();
  await knex('solutions').insert({
    id: solutionId,
    tenant_id: owner.tenantId,
    project_id: projectId,
    name: `s${solutionId.slice(0, 6)}`,
    data_type: 'data_driven',
    goal_type: options.goalType ?? 'policy_search',
    creator_id: owner.id,
    created_at: now,
    updated_at: now,
  });
  return { projectId, solutionId };
}

/** Stores `text` as an uploaded CSV file of `owner`; returns the file id (a table id). */
export async function uploadCsv(server: TestServer, owner: TestUser, text: string): Promise<string> {
  const id = newId();
  const key = `u/${owner.id}/f/${id}`;
  const { size } = await server.app.blobs.put(key, Buffer.from(text, 'utf8'));
  const now = new Date();
  await server.app.db.knex('storage_files').insert({ id, tenant_id: owner.tenantId, user_id: owner.id, kind: 'upload', name: 'tiny.csv', path: '/tiny.csv', blob_key: key, size, content_type: 'text/csv', created_at: now, updated_at: now });
  return id;
}

/** Polls `fn` until `done` holds (at most `ms`). */
export async function until<T>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A solution with the tiny graph, a CSV table and a processed scheme, through HTTP. */
export async function processedScheme(server: TestServer, owner: TestUser, token: string): Promise<{ projectId: string; solutionId: string; schemeId: string }> {
  const call = (name: string, body: unknown) => server.call(name, { token, body });
  const { projectId, solutionId } = await createSolution(server, owner);
  await call('solution/setPattern', { solutionId, graph: tinyGraph() });
  const tableId = await uploadCsv(server, owner, tinyCsv());
  await call('solution/setTableCorrelation', { solutionId, correlation: { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' } });
  const schemeId = (await call('scheme/create', { solutionId, name: 's', period: 'day', startTime: '2026-01-01', endTime: '2026-02-01' })).body.data.id as string;
  await call('scheme/schemeDataProcess', { id: schemeId });
  const done = await until(() => call('scheme/get', { id: schemeId }), (r) => r.body.data.processState !== 'processing');
  if (done.body.data.processState !== 'completed') throw new Error(`scheme processing ended ${done.body.data.processState}`);
  return { projectId, solutionId, schemeId };
}

/**
 * Hyperparameters of a BC environment training that takes a moment on the tiny data: 2 steps
 * (epochs) of 2 updates, one hidden layer of 8. A test that needs more steps or another width
 * spreads it and says why.
 */
export const TINY_BC = { epochs: 2, hidden: [8], updatesPerStep: 2, batchSize: 32 };

/** What {@link modellingTestServer} starts. */
export interface ModellingTestServer {
  server: TestServer;
  /** A user of the default tenant, and a session token of theirs. */
  owner: TestUser;
  token: string;
  /** A project and solution of `owner`, with the tiny graph and a processed scheme ({@link processedScheme}). */
  projectId: string;
  solutionId: string;
  schemeId: string;
}

/**
 * A test server of `kind` running jobs, one at a time (`options.jobs` and the rest are passed on
 * to `startTestServer`), with a user and a solution whose scheme is processed. Stops the server
 * when a step after its start fails.
 */
export async function modellingTestServer(kind: DatabaseKind, options: TestServerOptions = {}): Promise<ModellingTestServer> {
  const server = await startTestServer(kind, { ...options, jobs: { concurrency: 1, ...options.jobs } });
  try {
    await server.app.startJobs();
    const owner = await createUser(server);
    const token = await issueToken(server, owner);
    return { server, owner, token, ...(await processedScheme(server, owner, token)) };
  } catch (err) {
    await server.stop();
    throw err;
  }
}
