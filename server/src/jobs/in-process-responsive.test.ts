import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/server';
import { JobState, isFinalState } from './states';
import { spinJobKind, testingThreadKindsModule } from './testing-thread-kinds';

const A = { tenantId: 'a'.repeat(32) };

/**
 * No bound on pauses or durations (they would measure the machine, not the queue): `test.spin`
 * holds its thread in one synchronous loop from the moment it creates the `spinning` file until
 * the `release` file exists. The test, on the main thread, waits for `spinning`, makes HTTP calls
 * and lets timers run, and only then creates `release`. On a job thread every step happens while
 * the job spins, however loaded the machine; on the main thread (the control) the test cannot
 * act until the loop has given up.
 */
async function spinAndAct(server: TestServer, giveUpMs: number) {
  const jobs = server.app.jobs;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-spin-'));
  const spinning = path.join(dir, 'spinning');
  const release = path.join(dir, 'release');
  let ended!: (state: JobState) => void;
  const end = new Promise<JobState>((r) => (ended = r));
  let jobId = '';
  const off = jobs.subscribe((e) => {
    if (e.jobId === jobId && e.type === 'state' && isFinalState(e.state)) ended(e.state);
  });
  try {
    // Warm up: the first fetch of a process loads its HTTP client.
    for (let i = 0; i < 3; i++) await (await server.fetch('/healthz')).arrayBuffer();
    jobId = (await jobs.enqueue('test.spin', { spinning, release, giveUpMs }, A)).id;
    while (!fs.existsSync(spinning)) await new Promise((r) => setTimeout(r, 5));
    let calls = 0;
    for (let i = 0; i < 20; i++) {
      const res = await server.fetch('/healthz');
      await res.arrayBuffer();
      if (res.status === 200) calls += 1;
    }
    let ticks = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        ticks += 1;
        if (ticks === 5) {
          clearInterval(timer);
          resolve();
        }
      }, 1);
    });
    fs.writeFileSync(release, '');
    const state = await end;
    const log = (await jobs.logs(jobId, A))!.items.map((l) => l.message).join('\n');
    return { state, calls, ticks, log };
  } finally {
    off();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('in-process job threads keep the server responsive', () => {
  let server: TestServer | null = null;
  afterEach(async () => {
    await server?.stop();
    server = null;
  });

  it('answers HTTP and runs timers while a job holds its thread in a synchronous loop', async () => {
    server = await startTestServer('sqlite', { jobs: { concurrency: 1, threadModules: [testingThreadKindsModule] } });
    await server.app.startJobs();
    // Giving up would take a minute: only a main thread that cannot act gets there.
    const m = await spinAndAct(server, 60_000);
    expect(m.state).toBe(JobState.successful);
    expect(m.calls).toBe(20);
    expect(m.ticks).toBe(5);
    // Released by the test, so the calls and timers above ran while the job spun.
    expect(m.log).toMatch(/^released after \d+ ms of spinning on thread [1-9]\d*$/);
  }, 120_000);

  it('(control) cannot act until the loop gives up when the same job runs on the main thread (`jobs.threads: false`)', async () => {
    server = await startTestServer('sqlite', { jobs: { concurrency: 1, threads: false, kinds: [spinJobKind] } });
    await server.app.startJobs();
    const m = await spinAndAct(server, 2000);
    expect(m.state).toBe(JobState.successful);
    expect(m.log).toMatch(/^gave up after \d+ ms of spinning on thread 0$/);
  }, 120_000);
});
