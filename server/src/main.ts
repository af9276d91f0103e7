/**
 * `npm start` entry: reads the environment, migrates the database, serves until SIGINT/SIGTERM,
 * then shuts down gracefully (stop accepting, finish in-flight calls, flush the log, close the DB).
 */
import { createApp } from './app';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { loadServerPlugins } from './plugins/registry';
import { checkSandbox } from './sandbox-check';

const config = loadConfig();
const logger = createLogger(config.logLevel);
// `JOB_QUEUE_PREFIX`: the BullMQ key prefix, the same one `npm run worker` reads (default `decisio`).
// Plugins: those under plugins/* with a server entry (templates, ...), found at start.
const decisio = createApp(config, { logger, plugins: await loadServerPlugins(), jobs: { prefix: process.env.JOB_QUEUE_PREFIX || undefined } });

try {
  await checkSandbox(logger);
  const ran = await decisio.migrate();
  if (ran.length > 0) logger.info('migrations applied', { migrations: ran });
  await decisio.startJobs();
  const { url } = await decisio.listen();
  console.log(`Decisio is running at ${url}`);
} catch (err) {
  logger.error('start-up failed', { err });
  await decisio.close().catch(() => undefined);
  process.exit(1);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      logger.warn('second signal: exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('shutting down', { signal });
    decisio.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  });
}
