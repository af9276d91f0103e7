/**
 * `npm run worker` entry: one worker of the BullMQ job queue. Needs `REDIS_URL` and the server's
 * `DATABASE_URL` (migrated by the server). Registers this machine, heartbeats, runs jobs until
 * SIGINT/SIGTERM, then hands its running jobs back (they resume elsewhere from their checkpoint).
 *
 * Trainings read and write files in the server's blob store under `DATA_DIR`, so a worker on another
 * machine needs the same `DATA_DIR` (a shared mount).
 *
 * Environment: `WORKER_CONCURRENCY` (default cores less one), `WORKER_ID`, `WORKER_HEARTBEAT_MS`
 * (5000), `WORKER_DEAD_AFTER_MS` (30000), `JOB_QUEUE_PREFIX` (`decisio`), `DECISIO_GPU_ADAPTER`.
 */
import { loadConfig } from './config';
import { Database } from './db/database';
import { systemClock } from './clock';
import { JobKindRegistry, JobStore, JobWorker } from './jobs/queue';
import { registerWorkerJobKinds } from './jobs/worker-kinds';
import { createLogger } from './logger';
import { loadServerPlugins } from './plugins/registry';
import { checkSandbox } from './sandbox-check';

function optionalInt(name: string): number | undefined {
  const v = process.env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${v}"`);
  return n;
}

const config = loadConfig();
const logger = createLogger(config.logLevel);
if (!config.redisUrl) {
  logger.error('REDIS_URL is required: workers share the work through Redis');
  process.exit(1);
}

const db = Database.open(config.databaseUrl);
const kinds = new JobKindRegistry();
// The same kinds as the server's job threads; the blob store is the server's DATA_DIR (workers on
// other machines must share it: a network mount).
registerWorkerJobKinds(kinds, { db, config, plugins: await loadServerPlugins() });

const worker = new JobWorker(new JobStore(db, systemClock), kinds, {
  redisUrl: config.redisUrl,
  prefix: process.env.JOB_QUEUE_PREFIX || undefined,
  workerId: process.env.WORKER_ID || undefined,
  concurrency: optionalInt('WORKER_CONCURRENCY'),
  heartbeatMs: optionalInt('WORKER_HEARTBEAT_MS'),
  deadAfterMs: optionalInt('WORKER_DEAD_AFTER_MS'),
});

try {
  if (!(await db.knex.schema.hasTable('jobs'))) throw new Error('The database has no jobs table: start the server once to migrate it');
  await checkSandbox(logger);
  await worker.start();
  console.log(`Decisio worker ${worker.workerId} is running (${kinds.names().length} job kinds)`);
} catch (err) {
  logger.error('worker start-up failed', { err });
  await worker.kill().catch(() => undefined);
  await db.close().catch(() => undefined);
  process.exit(1);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info('worker shutting down', { signal, workerId: worker.workerId });
    worker
      .close()
      .then(() => db.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error('worker shutdown failed', { err });
          process.exit(1);
        },
      );
  });
}
