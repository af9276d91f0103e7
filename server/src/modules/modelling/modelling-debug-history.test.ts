/**
 * Debug mode's earlier breakpoints and the live stream: `train/getTrainDisplayDataList` with
 * `step` serves that breakpoint's tensor summaries and lists the steps that have one
 * (`tensorSteps`); `GET /api/train/events` sends a small `tensors` notice per breakpoint instead
 * of the large summary line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createTenant, createUser, issueToken } from '../../test/factories';
import { databases, type TestServer } from '../../test/server';
import { TINY_BC, modellingTestServer, until } from './testing';

interface Snapshot {
  id: number;
  step: number;
  tensors: Array<{ name: string; mean: number; norm: number }>;
}
interface Display {
  points: unknown[];
  tensors: Snapshot | null;
  tensorSteps: number[];
}

/** The events of an SSE text: `{id, event, data}` each. */
/** The events of a stream; `line`: the log line part of the stream's cursor (`<point>.<line>`). */
function eventsOf(text: string): Array<{ id: string | null; line: number | null; event: string; data: unknown }> {
  const out: Array<{ id: string | null; line: number | null; event: string; data: unknown }> = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n');
    const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
    if (!event) continue;
    const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
    const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
    out.push({ id: id ?? null, line: id === undefined ? null : Number(id.split('.')[1]), event, data: data === undefined ? null : JSON.parse(data) });
  }
  return out;
}

describe.each(databases)('debug breakpoints history and live events on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let strangerToken: string;
  let jobId: string;
  const call = (name: string, body: unknown, as = token) => server.call(name, { token: as, body });
  const display = async (body: Record<string, unknown>) => {
    const r = await call('train/getTrainDisplayDataList', { jobId, ...body });
    expect(r.body.code).toBe(0);
    return r.body.data as Display;
  };

  beforeAll(async () => {
    let solutionId: string;
    let schemeId: string;
    ({ server, token, solutionId, schemeId } = await modellingTestServer(kind));
    strangerToken = await issueToken(server, await createUser(server, { tenantId: await createTenant(server) }));
    // Four steps: it is stopped at the second breakpoint, still training.
    const created = await call('trainSimulator/create', { solutionId, schemeId, name: 'env-history', stopConditions: { system: true }, hyperparameters: { ...TINY_BC, epochs: 4 }, mode: 'debug' });
    expect(created.body.code).toBe(0);
    jobId = created.body.data.jobId as string;
    // Two breakpoints with their summaries, then stopped.
    await until(() => display({}).catch(() => null), (d) => d?.tensors?.step === 1, 60_000);
    expect((await call('train/skipBreakpoint', { jobId })).body.code).toBe(0);
    await until(() => display({}), (d) => d.tensors?.step === 2, 60_000);
    expect((await call('train/stopTrain', { jobId })).body.code).toBe(0);
    const get = () => call('trainSimulator/get', { id: created.body.data.id });
    expect((await until(get, (r) => !['debugging', 'stopping', 'processing', 'waiting'].includes(r.body.data.state), 60_000)).body.data.state).toBe('successful by manual stop');
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('serves the summary of an earlier breakpoint and the list of steps with one', async () => {
    const latest = await display({});
    expect(latest.tensorSteps).toEqual([1, 2]);
    expect(latest.tensors!.step).toBe(2);
    const first = await display({ step: 1 });
    expect(first.tensorSteps).toEqual([1, 2]);
    expect(first.tensors!.step).toBe(1);
    expect(first.tensors!.id).toBeLessThan(latest.tensors!.id);
    // Read from the log line of that breakpoint: the weights one step less trained.
    const line = await server.app.db.knex('job_logs').where({ id: first.tensors!.id }).first('message');
    expect(JSON.parse(String(line.message).slice('tensors '.length)).tensors).toEqual(first.tensors!.tensors);
    const w = (d: Display) => d.tensors!.tensors.find((t) => t.name === 'next_obs.0.weight')!;
    expect(w(first).norm).not.toBe(w(latest).norm);
    expect((await display({ step: 2 })).tensors).toEqual(latest.tensors);
    // A step without a summary: none (the metrics stay).
    const none = await display({ step: 3 });
    expect(none.tensors).toBeNull();
    expect(none.tensorSteps).toEqual([1, 2]);
    expect(none.points.length).toBe(latest.points.length);
    // Checked like the call without a step.
    expect((await call('train/getTrainDisplayDataList', { jobId, step: 'one' })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call('train/getTrainDisplayDataList', { jobId, step: 1.5 })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call('train/getTrainDisplayDataList', { jobId, step: 1 }, strangerToken)).body.code).toBe(ErrorCode.trainNotFound);
  });

  it('sends a small tensors notice per breakpoint on the live stream, never the summary line', async () => {
    const res = await server.fetch(`/api/train/events?jobId=${jobId}`, { headers: { Authorization: token } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const events = eventsOf(text);
    const lines = (await server.app.db.knex('job_logs').where({ job_id: jobId, level: 'debug' }).andWhere('message', 'like', 'tensors %').orderBy('id').select('id', 'message')) as Array<{ id: number; message: string }>;
    expect(lines).toHaveLength(2);
    const notices = events.filter((e) => e.event === 'tensors');
    expect(notices.map((e) => e.line)).toEqual(lines.map((l) => Number(l.id)));
    expect(notices.map((e) => (e.data as { step: number }).step)).toEqual([1, 2]);
    expect(notices.every((e) => typeof (e.data as { time: string }).time === 'string')).toBe(true);
    // No summary went out: not as a log event, nor anywhere in the stream.
    expect(text).not.toContain('"tensors":[');
    expect(events.filter((e) => e.event === 'log').some((e) => String((e.data as { message: string }).message).startsWith('tensors '))).toBe(false);
    expect(text.length).toBeLessThan(lines.reduce((s, l) => s + String(l.message).length, 0));
    // The other lines still come: breakpoints as log events, metrics points, the final state.
    expect(events.filter((e) => e.event === 'log').map((e) => (e.data as { message: string }).message)).toEqual(expect.arrayContaining(['breakpoint after step 1', 'breakpoint after step 2']));
    expect(events.some((e) => e.event === 'metrics')).toBe(true);
    expect(text).toContain('"state":"successful by manual stop"');
    // Resuming after the first notice sends the second one, not the first.
    const resumed = eventsOf(await (await server.fetch(`/api/train/events?jobId=${jobId}`, { headers: { Authorization: token, 'Last-Event-ID': String(notices[0]!.id) } })).text());
    expect(resumed.filter((e) => e.event === 'tensors').map((e) => e.line)).toEqual([notices[1]!.line]);
    // Nor the metrics points sent before the first notice.
    const pointOf = (id: string | null) => Number(String(id).split('.')[0]);
    expect(resumed.filter((e) => e.event === 'metrics').every((e) => pointOf(e.id) > pointOf(notices[0]!.id))).toBe(true);
  });
});
