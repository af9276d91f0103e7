/**
 * The simulation deduction's charts ask `train/getPicBySimulatorNum` for the deduction's full step
 * count (1..10,000): the rollout must answer every step the data's trajectory has, not stop at 200.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, issueToken } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { TINY_BC, createSolution, tinyGraph, until, uploadCsv } from './testing';

/** `trajectories` x `steps` rows of the tiny linear system, one minute apart (valid times past an hour). */
function longCsv(trajectories: number, steps: number): string {
  const lines = ['traj,step,time,x,a'];
  for (let t = 0; t < trajectories; t++) {
    let x = 1 - t;
    for (let k = 0; k < steps; k++) {
      const a = Math.max(-1, Math.min(1, -0.4 * x + 0.05 * Math.sin(k + t)));
      lines.push(`${t},${k},${new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString()},${x.toFixed(5)},${a.toFixed(5)}`);
      x = 0.9 * x + 0.5 * a;
    }
  }
  return lines.join('\n') + '\n';
}

const STEPS = 320;

describe.each(databases)('environment rollout over a long step count on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let simulatorId: string;
  const call = (name: string, body: unknown) => server.call(name, { token, body });

  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { concurrency: 1 } });
    await server.app.startJobs();
    const owner = await createUser(server);
    token = await issueToken(server, owner);
    const { solutionId } = await createSolution(server, owner);
    await call('solution/setPattern', { solutionId, graph: tinyGraph() });
    const tableId = await uploadCsv(server, owner, longCsv(2, STEPS));
    await call('solution/setTableCorrelation', { solutionId, correlation: { primaryTableId: tableId, trajectoryField: 'traj', sequenceField: 'step', datetimeField: 'time' } });
    const schemeId = (await call('scheme/create', { solutionId, name: 's', period: 'day', startTime: '2026-01-01', endTime: '2026-02-01' })).body.data.id as string;
    await call('scheme/schemeDataProcess', { id: schemeId });
    const processed = await until(() => call('scheme/get', { id: schemeId }), (r) => r.body.data.processState !== 'processing');
    expect(processed.body.data.processState).toBe('completed');
    const created = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-long', stopConditions: { system: true }, hyperparameters: TINY_BC });
    expect(created.body.code).toBe(0);
    simulatorId = created.body.data.id;
    const done = await until(() => call('trainSimulator/get', { id: simulatorId }), (r) => ['successful', 'failure'].includes(r.body.data.state), 120_000);
    expect(done.body.data.state).toBe('successful');
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('rolls every step asked past 200, each with the data beside it', async () => {
    const r = await call('train/getPicBySimulatorNum', { id: simulatorId, trajectory: 0, horizon: 300 });
    expect(r.body.code).toBe(0);
    expect(r.body.data.horizon).toBe(300);
    const node = r.body.data.nodes.next_obs as { predicted: number[][]; real: number[][] };
    expect(node.predicted).toHaveLength(300);
    expect(node.real).toHaveLength(300);
    expect(node.predicted.every((row) => row.every(Number.isFinite))).toBe(true);
  });

  it('stops at the end of the data trajectory and refuses more than 10,000 steps', async () => {
    const r = await call('train/getPicBySimulatorNum', { id: simulatorId, trajectory: 1, horizon: 10_000 });
    expect(r.body.code).toBe(0);
    expect(r.body.data.horizon).toBe(STEPS - 1); // transitions: the last row has no next one
    expect((await call('train/getPicBySimulatorNum', { id: simulatorId, trajectory: 0, horizon: 10_001 })).body.code).toBe(ErrorCode.paramInvalid);
  });
});
