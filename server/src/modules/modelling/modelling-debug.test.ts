/**
 * Debug mode's tensor summaries (real trainings: BC, revive-p and revive-t environments, PPO and
 * SAC policies stop at their breakpoints, `train/getTrainDisplayDataList` serves the summaries of
 * the live networks), and
 * the project log's paging of `train/getAllTrainList` by project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createTenant, createUser, issueToken, type TestUser } from '../../test/factories';
import type { TestServer } from '../../test/server';
import { REWARD_PY, TINY_BC, modellingTestServer, processedScheme, until } from './testing';

const STOP = { system: true };
/**
 * This file's BC trainings: four steps (they are stopped at the second breakpoint, still
 * training) and a hidden layer of 16 (the summaries' shapes are checked against it).
 */
const DEBUG_BC = { ...TINY_BC, epochs: 4, hidden: [16] };

interface Summary {
  name: string;
  shape: number[];
  size: number;
  mean: number;
  std: number;
  min: number;
  max: number;
  norm: number;
  zeros: number;
  nan: number;
  inf: number;
  hist: { lo: number; hi: number; counts: number[] };
  gradNorm: number | null;
}
interface Snapshot {
  id: number;
  step: number;
  time: string;
  tensors: Summary[];
  omitted: number;
}

/** Checks that each summary agrees with itself: sizes, histogram, moments and norm. */
function expectConsistent(tensors: Summary[]) {
  for (const t of tensors) {
    expect(t.size, t.name).toBe(t.shape.reduce((a, b) => a * b, 1));
    expect(t.hist.counts.reduce((a, b) => a + b, 0), t.name).toBe(t.size);
    expect([t.nan, t.inf], t.name).toEqual([0, 0]);
    expect(t.min, t.name).toBeLessThanOrEqual(t.mean);
    expect(t.mean, t.name).toBeLessThanOrEqual(t.max);
    expect([t.hist.lo, t.hist.hi], t.name).toEqual([t.min, t.max]);
    // |x|^2 = n (std^2 + mean^2)
    expect(t.norm ** 2, t.name).toBeCloseTo(t.size * (t.std ** 2 + t.mean ** 2), 2);
    if (t.name.endsWith('.weight')) expect(t.std, t.name).toBeGreaterThan(0);
  }
}

describe('debug mode tensor summaries and the project log paging', () => {
  let server: TestServer;
  let owner: TestUser;
  let token: string;
  let strangerToken: string;
  let projectId: string;
  let solutionId: string;
  let schemeId: string;
  const call = (name: string, body: unknown, as = token) => server.call(name, { token: as, body });
  const display = async (jobId: string) => (await call('train/getTrainDisplayDataList', { jobId })).body.data as { points: Array<Record<string, number>>; tensors: Snapshot | null };

  beforeAll(async () => {
    ({ server, owner, token, projectId, solutionId, schemeId } = await modellingTestServer('sqlite'));
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps the tensors of the environment networks at each breakpoint, read from the live networks', async () => {
    const created = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-debug', stopConditions: STOP, hyperparameters: DEBUG_BC, mode: 'debug' });
    expect(created.body.code).toBe(0);
    const { id, jobId } = created.body.data as { id: string; jobId: string };
    const get = () => call('trainSimulator/get', { id });
    const paused = await until(get, (r) => r.body.data.state === 'debugging');
    // progress counts the steps done: one of four at the breakpoint after step 1
    expect(paused.body.data.progress).toBeCloseTo(0.25, 6);
    const first = await display(jobId);
    expect(first.tensors).not.toBeNull();
    const snap = first.tensors!;
    expect(snap.step).toBe(1);
    expect(snap.omitted).toBe(0);
    // the node networks of the tiny graph: action (obs) and next_obs (obs, action), one hidden layer of 16
    const names = snap.tensors.map((t) => t.name).sort();
    expect(names).toEqual(['action.0.bias', 'action.0.weight', 'action.1.bias', 'action.1.weight', 'next_obs.0.bias', 'next_obs.0.weight', 'next_obs.1.bias', 'next_obs.1.weight']);
    expect(snap.tensors.find((t) => t.name === 'action.0.weight')!.shape[1]).toBe(16);
    expectConsistent(snap.tensors);
    // one step of BC updates ran: every parameter has the gradient of the last one
    for (const t of snap.tensors) expect(t.gradNorm, t.name).toBeGreaterThan(0);
    // the log pages leave the summary line out; the breakpoint is there
    const log = (await call('train/getTrainLog', { jobId })).body.data.items as Array<{ level: string; message: string }>;
    expect(log.map((l) => l.message)).toContain('breakpoint after step 1');
    expect(log.some((l) => l.message.startsWith('tensors '))).toBe(false);
    const lines = await server.app.db.knex('job_logs').where({ job_id: jobId, level: 'debug' }).andWhere('message', 'like', 'tensors %').select('message');
    expect(lines).toHaveLength(1);
    expect(String(lines[0].message).length).toBeLessThan(60_100);

    // the next breakpoint has its own summary, of weights one more step trained
    expect((await call('train/skipBreakpoint', { jobId })).body.code).toBe(0);
    const second = await until(() => display(jobId), (d) => (d.tensors?.step ?? 0) >= 2);
    expect(second.tensors!.step).toBe(2);
    expect((await get()).body.data.progress).toBeCloseTo(0.5, 6);
    expect(second.tensors!.id).toBeGreaterThan(snap.id);
    expectConsistent(second.tensors!.tensors);
    const w0 = snap.tensors.find((t) => t.name === 'next_obs.0.weight')!;
    const w1 = second.tensors!.tensors.find((t) => t.name === 'next_obs.0.weight')!;
    expect([w1.mean, w1.std, w1.norm]).not.toEqual([w0.mean, w0.std, w0.norm]);

    // the stored environment has exactly the summarised parameters, of the same sizes
    expect((await call('train/stopTrain', { jobId })).body.code).toBe(0);
    await until(get, (r) => r.body.data.state === 'successful by manual stop');
    const row = await server.app.db.knex('simulators').where({ id }).first();
    const artifact = JSON.parse((await server.app.blobs.get(`${row.artifact_key}/venv.json`)).toString('utf8')) as { weights: Record<string, Record<string, number[]>> };
    const sizes = Object.entries(artifact.weights).flatMap(([node, w]) => Object.entries(w).map(([k, v]) => [`${node}.${k}`, v.length] as const));
    expect(Object.fromEntries(sizes)).toEqual(Object.fromEntries(second.tensors!.tensors.map((t) => [t.name, t.size])));
  }, 120_000);

  it('keeps the discriminators and value nets of revive-p, and the critics of revive-t, beside the generator', async () => {
    for (const [algorithm, extra] of [
      ['revive_p', ['disc.', 'value.']],
      ['revive_t', ['disc.', 'critic.']],
    ] as const) {
      const created = await call('trainSimulator/create', { solutionId, schemeId, name: `env-${algorithm}`, algorithm, mode: 'debug', stopConditions: STOP, hyperparameters: { ...DEBUG_BC, bcSteps: 2, rollouts: 4 } });
      expect(created.body.code).toBe(0);
      const get = () => call('trainSimulator/get', { id: created.body.data.id });
      const at = await until(get, (r) => ['debugging', 'failure'].includes(r.body.data.state));
      expect(at.body.data.error).toBeNull();
      const snap = (await display(created.body.data.jobId)).tensors!;
      const names = snap.tensors.map((t) => t.name);
      expect(names.filter((n) => n.startsWith('action.') || n.startsWith('next_obs.'))).toHaveLength(8);
      for (const prefix of extra) expect(names.some((n) => n.startsWith(prefix)), `${algorithm} ${prefix}`).toBe(true);
      expectConsistent(snap.tensors);
      expect((await call('train/stopTrain', { jobId: created.body.data.jobId })).body.code).toBe(0);
      await until(get, (r) => r.body.data.state === 'successful by manual stop');
    }
  }, 120_000);

  it('keeps the policy and value networks of a PPO training in debug mode; a run-mode training keeps none', async () => {
    const env = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-run', stopConditions: STOP, hyperparameters: TINY_BC });
    const envDone = await until(() => call('trainSimulator/get', { id: env.body.data.id }), (r) => ['successful', 'failure'].includes(r.body.data.state));
    expect(envDone.body.data.state).toBe('successful');
    expect((await display(env.body.data.jobId)).tensors).toBeNull();
    const objectiveId = (await call('objective/create', { solutionId, name: 'reward', files: { 'reward.py': REWARD_PY } })).body.data.id as string;
    const pol = await call('trainPolicy/create', {
      solutionId,
      simulatorId: env.body.data.id,
      objectiveId,
      name: 'policy-debug',
      algorithm: 'ppo',
      mode: 'debug',
      stopConditions: STOP,
      hyperparameters: { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [16] },
    });
    expect(pol.body.code).toBe(0);
    const get = () => call('trainPolicy/get', { id: pol.body.data.id });
    const at = await until(get, (r) => ['debugging', 'failure'].includes(r.body.data.state), 120_000);
    expect(at.body.data.error).toBeNull();
    const snap = (await display(pol.body.data.jobId)).tensors!;
    const names = snap.tensors.map((t) => t.name).sort();
    expect(names).toEqual(['policy.action.0.bias', 'policy.action.0.weight', 'policy.action.1.bias', 'policy.action.1.weight', 'value.0.bias', 'value.0.weight', 'value.1.bias', 'value.1.weight']);
    expectConsistent(snap.tensors);
    expect(snap.tensors.find((t) => t.name === 'value.1.weight')!.shape).toEqual([16, 1]);
    expect((await call('train/stopTrain', { jobId: pol.body.data.jobId })).body.code).toBe(0);
    await until(get, (r) => r.body.data.state === 'successful by manual stop', 120_000);

    const sac = await call('trainPolicy/create', {
      solutionId,
      simulatorId: env.body.data.id,
      objectiveId,
      name: 'sac-debug',
      algorithm: 'sac',
      mode: 'debug',
      stopConditions: STOP,
      hyperparameters: { epochs: 2, bcUpdates: 5, batchSize: 8, horizon: 4, evalWindows: 8, hidden: [16] },
    });
    expect(sac.body.code).toBe(0);
    const getSac = () => call('trainPolicy/get', { id: sac.body.data.id });
    const sacAt = await until(getSac, (r) => ['debugging', 'failure'].includes(r.body.data.state), 120_000);
    expect(sacAt.body.data.error).toBeNull();
    const sacSnap = (await display(sac.body.data.jobId)).tensors!;
    const sacNames = sacSnap.tensors.map((t) => t.name);
    expect(sacNames).toContain('logAlpha');
    for (const prefix of ['policy.action.', 'q1.', 'q2.']) expect(sacNames.some((n) => n.startsWith(prefix)), prefix).toBe(true);
    expectConsistent(sacSnap.tensors);
    expect((await call('train/stopTrain', { jobId: sac.body.data.jobId })).body.code).toBe(0);
    await until(getSac, (r) => r.body.data.state === 'successful by manual stop', 120_000);
  }, 300_000);

  it('pages the trainings of one project, newest first, without overlap, of a kind when asked', async () => {
    // another project of the same owner: its trainings stay out
    const other = await processedScheme(server, owner, token);
    const all = await call('train/getAllTrainList', { projectId, page: 1, pageSize: 100 });
    expect(all.body.code).toBe(0);
    const rows = all.body.data.rows as Array<{ id: string; kind: string; projectId: string; createdAt: string }>;
    expect(all.body.data.total).toBe(rows.length);
    // the scheme processing, the four environments and the two policies of this project
    expect(rows.map((r) => r.kind).sort()).toEqual(['environment', 'environment', 'environment', 'environment', 'policy', 'policy', 'scheme']);
    expect(rows.every((r) => r.projectId === projectId)).toBe(true);
    expect(rows.some((r) => r.id === other.schemeId)).toBe(false);
    expect([...rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((r) => r.id)).toEqual(rows.map((r) => r.id));
    const paged: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const p = await call('train/getAllTrainList', { projectId, page, pageSize: 2 });
      expect(p.body.data.total).toBe(rows.length);
      expect(p.body.data.rows.length).toBe(Math.max(0, Math.min(2, rows.length - (page - 1) * 2)));
      paged.push(...(p.body.data.rows as Array<{ id: string }>).map((r) => r.id));
    }
    expect(paged).toEqual(rows.map((r) => r.id));
    const envs = await call('train/getAllTrainList', { projectId, kind: 'environment', page: 1, pageSize: 1 });
    expect(envs.body.data.total).toBe(4);
    expect(envs.body.data.rows).toHaveLength(1);
    expect(envs.body.data.rows[0].kind).toBe('environment');
    const theirs = await call('train/getAllTrainList', { projectId: other.projectId, page: 1, pageSize: 20 });
    expect(theirs.body.data.rows.map((r: { id: string }) => r.id)).toEqual([other.schemeId]);
    expect((await call('train/getAllTrainList', { projectId, page: 1, pageSize: 20 }, strangerToken)).body.code).toBe(ErrorCode.projectNotFound);
    expect((await call('train/getAllTrainList', { projectId: 'x', page: 1, pageSize: 20 })).body.code).toBe(ErrorCode.paramInvalid);
  });
});
