/**
 * The job kinds a Decisio worker runs, built the same way by a `npm run worker` process
 * (`worker.ts`) and by every job thread of the in-process queue (`registerThreadJobKinds`, the
 * default module of `JobThreadsOptions.modules`): built-ins, modelling, imports from data
 * connections (`data.import`), the server plugins'.
 */
import type { ServerPlugin } from '@decisio/sdk-plugin/server';
import type { ServerConfig } from '../config';
import type { Database } from '../db/database';
import { createLogger } from '../logger';
import { HostGuard } from '../net/host-guard';
import { importJobKind, importTmpDir, type ImportConnectionSettings } from '../modules/connections/job';
import { modellingJobKinds } from '../modules/modelling/routes';
import { modellingTrainingKinds } from '../modules/modelling/areas';
import { BlobStore } from '../modules/storage/blob-store';
import { configureQuotaDefaults } from '../modules/storage/quota';
import { loadServerPlugins } from '../plugins/registry';
import { builtinJobKinds } from './builtin';
import { systemClock } from '../clock';
import { scheduledJobKinds } from '../modules/schedules/kinds';
import type { JobKindRegistry } from './kinds';
import type { ThreadJobEnv } from './thread-protocol';

/** The part of the server's configuration the job kinds use (plain data: it crosses to threads). */
export type WorkerKindsConfig = Pick<
  ServerConfig,
  'dataDir' | 'storageUserQuotaBytes' | 'storageTenantQuotaBytes' | 'logLevel' | 'connectionAllow' | 'connectionTimeoutMs' | 'importMaxRows'
>;

/** How imports reach outside servers, from the configuration (`CONNECTION_ALLOW`, `CONNECTION_TIMEOUT_SECONDS`, `IMPORT_MAX_ROWS`). */
export function importConnectionSettings(config: Pick<ServerConfig, 'connectionAllow' | 'connectionTimeoutMs' | 'importMaxRows'>): ImportConnectionSettings {
  return { allow: config.connectionAllow, connectMs: config.connectionTimeoutMs, maxRows: config.importMaxRows };
}

/** Registers the kinds of a worker over its own database handle and the server's blob store. */
export function registerWorkerJobKinds(
  registry: JobKindRegistry,
  { db, config, plugins }: { db: Database; config: WorkerKindsConfig; plugins: readonly ServerPlugin[] },
): void {
  // Quota rows a job creates get the server's defaults, as the storage routes set them.
  configureQuotaDefaults({ userBytes: config.storageUserQuotaBytes, tenantBytes: config.storageTenantQuotaBytes }, db.knex);
  // The blob store is the server's DATA_DIR (workers on other machines share it on a mount).
  const blobs = new BlobStore(`${config.dataDir}/blobs`);
  const logger = createLogger(config.logLevel);
  for (const k of [...builtinJobKinds, ...scheduledJobKinds({ db, blobs, clock: systemClock, connections: importConnectionSettings(config) }), ...modellingJobKinds({ db, blobs, hostGuard: new HostGuard(config.connectionAllow), logger }, modellingTrainingKinds()), importJobKind({ db, blobs, tmpDir: importTmpDir(config.dataDir), connections: importConnectionSettings(config), logger })]) registry.registerJobKind(k);
  registry.registerPluginKinds(plugins.flatMap((p) => p.jobKinds));
}

/** `ThreadJobKindsModule` of the server: `env.data` is the server's configuration. */
export async function registerThreadJobKinds(registry: JobKindRegistry, env: ThreadJobEnv): Promise<void> {
  registerWorkerJobKinds(registry, { db: env.db, config: env.data as WorkerKindsConfig, plugins: await loadServerPlugins() });
}

/** File URL of this module, for `JobThreadsOptions.modules`. */
export const workerKindsModule = import.meta.url;
