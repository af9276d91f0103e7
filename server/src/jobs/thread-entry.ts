/**
 * Entry of a job thread of the in-process queue (loaded by `thread-bootstrap.mjs`). Opens its
 * own database handle, registers the job kinds of the modules it was given, then claims and
 * runs the jobs the main thread sends it with a `JobRunner` under the server's worker id, exactly
 * as a `npm run worker` process does: every write goes to the database; events go to the main
 * thread over the port.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../clock';
import { Database } from '../db/database';
import type { JobEvent } from './events';
import { JobKindRegistry } from './kinds';
import { JobRunner } from './runner';
import { JobStore } from './store';
import type { FromThread, ThreadInit, ThreadJobKindsModule, ToThread } from './thread-protocol';

const port = parentPort;
if (!port) throw new Error('thread-entry.ts runs in a worker thread of the job queue');
const init = workerData as ThreadInit;
const post = (message: FromThread) => port.postMessage(message);

const db = Database.open(init.databaseUrl);
const registry = new JobKindRegistry();
for (const url of init.modules) {
  const module = (await import(url)) as Partial<ThreadJobKindsModule>;
  if (typeof module.registerThreadJobKinds !== 'function') throw new Error(`${url} exports no registerThreadJobKinds`);
  await module.registerThreadJobKinds(registry, { db, data: init.data });
}
const runner = new JobRunner(new JobStore(db, systemClock), registry, { emit: (event: JobEvent) => post({ type: 'event', event }) }, init.workerId);
const runs = new Set<Promise<void>>();

async function halt(): Promise<void> {
  runner.halt();
  await Promise.allSettled([...runs]);
  await db.close().catch(() => undefined);
  post({ type: 'halted' });
}

port.on('message', (message: ToThread) => {
  if (message.type === 'run') {
    const { jobId } = message;
    const run: Promise<void> = runner.run(jobId).then(
      (outcome) => post({ type: 'done', jobId, outcome }),
      (err: unknown) => post({ type: 'done', jobId, outcome: 'halted', error: err instanceof Error ? err.message : String(err) }),
    );
    runs.add(run);
    void run.finally(() => runs.delete(run));
  } else if (message.type === 'abort') {
    runner.abort(message.jobId);
  } else if (message.type === 'halt') {
    void halt();
  }
});
post({ type: 'ready', kinds: registry.names() });
