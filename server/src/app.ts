import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import compress from 'koa-compress';
import { Router } from '@koa/router';
import type { ServerJobKind, ServerPlugin } from '@decisio/sdk-plugin/server';
import { routeSegment } from '@decisio/domain';
import { systemClock, type Clock } from './clock';
import type { ServerConfig } from './config';
import { Database, parseDatabaseUrl } from './db/database';
import { migrateLatest } from './db/migrator';
import { AuditLog, auditTrail, type AuditLogOptions } from './http/audit';
import { createAuth } from './http/auth';
import { jsonBody } from './http/body';
import { initState, type AppState } from './http/context';
import { errorEnvelope } from './http/errors';
import { installErrorFallback } from './http/fallback';
import { trustProxies } from './http/proxy';
import { securityHeaders } from './http/security-headers';
import { locale } from './http/locale';
import { requirePermission } from './http/permission';
import { authWithRouteCheck, RoutePermissions, type RouteKit, createTenantScope } from './http/route';
import { requestId } from './http/request-id';
import { hasWorkbench, serveWorkbench } from './http/static';
import { createTransaction } from './http/transaction';
import { validate } from './http/validate';
import { builtinJobKinds } from './jobs/builtin';
import { logsRoutes } from './modules/logs/routes';
import { LogsService } from './modules/logs/service';
import { scheduledJobKinds } from './modules/schedules/kinds';
import { schedulesRoutes } from './modules/schedules/routes';
import { Scheduler, type SchedulerOptions } from './modules/schedules/scheduler';
import { SchedulesService } from './modules/schedules/service';
import { PolicyUpdates } from './modules/schedules/policy-update';
import { policyUpdateRoutes } from './modules/schedules/policy-update-routes';
import { BullMqQueue, InProcessQueue, JobKindRegistry, JobStore, type JobKind, type JobQueue, type JobThreadsOptions } from './jobs/queue';
import { machineInfo } from './jobs/machine';
import { importConnectionSettings, workerKindsModule, type WorkerKindsConfig } from './jobs/worker-kinds';
import { createLogger, type Logger } from './logger';
import { AccessService } from './modules/access/service';
import { MenusService } from './modules/access/menus';
import { RolesService } from './modules/access/roles';
import { accessRoutes } from './modules/access/routes';
import { OrgsService } from './modules/tenancy/orgs';
import { tenancyRoutes } from './modules/tenancy/routes';
import { TenantsService } from './modules/tenancy/tenants';
import { UserManagement } from './modules/users/manage';
import { TransportKeys } from './modules/account/keys';
import { PasswordHasher } from './modules/account/passwords';
import { accountRoutes } from './modules/account/routes';
import { connectionsRoutes } from './modules/connections/routes';
import { ConnectionsService } from './modules/connections/service';
import { SecretBox } from './db/secrets';
import { ImportService } from './modules/connections/imports';
import { importJobKind, importTmpDir } from './modules/connections/job';
import { DEFAULT_QUERY_MS } from './modules/connections/connector';
import { HostGuard } from './net/host-guard';
import { assertProjectAccess, registerDeleteGuard } from './modules/projects/access';
import { DeletedJobs } from './modules/projects/artefacts';
import { AccountService } from './modules/account/service';
import { SignInThrottle } from './modules/account/throttle';
import { PasswordNonces } from './modules/account/nonces';
import { PasswordChanges } from './modules/account/password-changes';
import { passwordRoutes } from './modules/account/password-routes';
import { CaptchaService } from './modules/codes/captcha';
import { Outbox } from './modules/codes/outbox';
import { codesRoutes } from './modules/codes/routes';
import { VerificationCodes } from './modules/codes/service';
import { httpSmsProvider, smtpTransport } from './modules/codes/transports';
import { AvatarStore } from './modules/user-centre/avatar';
import { userCentreRoutes } from './modules/user-centre/routes';
import { UserCentreService } from './modules/user-centre/service';
import { SessionService } from './modules/sessions/service';
import { createDeployModule } from './modules/deploy/routes';
import { reportsRoutes } from './modules/reports/routes';
import { pidDataRoutes } from './modules/pid-data/routes';
import { sshRoutes, trainSshRoutes } from './modules/ssh/routes';
import { SshTerminals, type SshTerminalOptions } from './modules/ssh/terminals';
import { HostKeys } from './modules/ssh/host-keys';
import { BlobStore } from './modules/storage/blob-store';
import { storageRoutes } from './modules/storage/routes';
import { datasetsRoutes } from './modules/datasets/routes';
import { tableOpsRoutes } from './modules/datasets/table-ops-routes';
import { healthCheck } from './modules/system/routes';
import { usersRoutes } from './modules/users/routes';
import { UsersService } from './modules/users/service';
import { projectsRoutes } from './modules/projects/routes';
import { ProjectsService } from './modules/projects/service';
import { solutionsRoutes } from './modules/solutions/routes';
import { SolutionsService } from './modules/solutions/service';
import { modellingJobKinds, modellingRoutes } from './modules/modelling/routes';
import { modellingTrainingKinds } from './modules/modelling/areas';
import { reviveImportRoutes } from './modules/revive-import/routes';
import { modellingJobOwners } from './modules/modelling/job-owners';
import { modellingDeleteGuard } from './modules/modelling/delete-guard';
import { jobsRoutes } from './modules/jobs/routes';
import { docsRoutes } from './modules/docs/routes';
import { JobOwners } from './modules/jobs/sources';
import { importJobOwner } from './modules/connections/job-owner';
import { serviceJobSource } from './modules/deploy/job-source';
import { templatesRoutes } from './modules/templates/routes';
import { storehouseRoutes } from './modules/storehouse/routes';
import { MessagesService } from './modules/messages/service';
import { messagesRoutes } from './modules/messages/routes';
import { SupportService } from './modules/support/service';
import { supportRoutes } from './modules/support/routes';
import { ElectricService } from './modules/electric/service';
import { marketRoutes } from './modules/market/routes';
import { electricRoutes } from './modules/electric/routes';
import type { ContactCodeVerifier } from './modules/licences/codes';
import { LicenceSigner } from './modules/licences/signing';
import { LicencesService } from './modules/licences/service';
import { SdkVersionsService } from './modules/licences/versions';
import { licencesRoutes } from './modules/licences/routes';
import { ServiceManagementService } from './modules/service-management/service';
import { serviceManagementRoutes } from './modules/service-management/routes';
import { isFinalState } from './jobs/states';
import { mountServerPlugins } from './plugins/host';
import { TemplateRegistry } from './modules/templates/registry';

/** Optional collaborators of `createApp` (tests replace the clock, logger or audit batching). */
export interface AppOptions {
  /** Server plugins to load (routes under `/api/`, migrations after the core ones). */
  plugins?: readonly ServerPlugin[];
  /** SSH debug terminal: idle timeout and sweep interval (tests shorten them). */
  ssh?: SshTerminalOptions;
  /** Checks the verification code of a licence application (the account area's code service). */
  codeVerifier?: ContactCodeVerifier;
  logger?: Logger;
  clock?: Clock;
  audit?: AuditLogOptions;
  /** The scheduler of scheduled jobs (`jobs/*`): tick period; `enabled: false` fires nothing (default on). */
  scheduler?: SchedulerOptions & { enabled?: boolean };
  /** Longest wait for in-flight requests on `close()` before connections are cut, ms (default 10 s). */
  shutdownGraceMs?: number;
  /** The job queue: extra job kinds, concurrency of the in-process adapter, Redis key prefix. */
  jobs?: {
    /** Extra kinds. Objects cannot cross to a job thread: with threads they run on the main thread. */
    kinds?: readonly JobKind<any>[];
    concurrency?: number;
    prefix?: string;
    /**
     * In-process adapter: run the handlers in worker threads (default true; an in-memory SQLite
     * database cannot be shared, so it runs them on the main thread). `false`: every handler runs
     * on the main thread and blocks the server while it computes.
     */
    threads?: boolean;
    /** More modules of thread job kinds (file URLs exporting `registerThreadJobKinds`) than the server's own. */
    threadModules?: readonly (string | URL)[];
  };
}

/** A composed server. */
export interface DecisioApp {
  app: Koa<AppState>;
  /** The server's request listener: the decision access address first, then Koa. */
  handler: http.RequestListener;
  db: Database;
  config: ServerConfig;
  /** Files under `<dataDir>/blobs` (uploads, datasets' columnar copies, artefacts). */
  blobs: BlobStore;
  /** Job kinds contributed by plugins, by kind. */
  jobKinds: ReadonlyMap<string, ServerJobKind>;
  /** Industry templates contributed by plugins. */
  templates: TemplateRegistry;
  /** The job queue: BullMQ on `config.redisUrl` when set, else in-process. */
  jobs: JobQueue;
  /** Background copies from data connections into datasets (`metadata/startImport`). */
  imports: ImportService;
  /** Every job kind this server knows (built-in, plugins', `options.jobs.kinds`). */
  jobKindRegistry: JobKindRegistry;
  /** Fires due scheduled jobs (`jobs/*`) onto the queue; started by `startJobs()` unless `options.scheduler.enabled` is false. */
  scheduler: Scheduler;
  /** Starts the job queue (after `migrate()`): recovers what a previous run left, then dispatches. */
  startJobs(): Promise<void>;
  /** Runs pending migrations (core, then plugins); resolves with the names that ran. */
  migrate(): Promise<string[]>;
  /** Starts listening on `config.host:config.port` (port 0: a free one). */
  listen(): Promise<{ url: string }>;
  /** Writes queued system-log rows. */
  flush(): Promise<void>;
  /** Stops accepting, lets in-flight requests finish, flushes the log and closes the database. */
  close(): Promise<void>;
}

/** The job threads of the in-process queue: the worker kinds over the same database and files. */
function jobThreads(config: ServerConfig, jobs: AppOptions['jobs']): JobThreadsOptions | undefined {
  const target = parseDatabaseUrl(config.databaseUrl);
  if (jobs?.threads === false || (target.kind === 'sqlite' && target.filename === ':memory:')) return undefined;
  const data: WorkerKindsConfig = {
    dataDir: config.dataDir,
    storageUserQuotaBytes: config.storageUserQuotaBytes,
    storageTenantQuotaBytes: config.storageTenantQuotaBytes,
    logLevel: config.logLevel,
    connectionAllow: config.connectionAllow,
    connectionTimeoutMs: config.connectionTimeoutMs,
    importMaxRows: config.importMaxRows,
  };
  return { databaseUrl: config.databaseUrl, modules: [workerKindsModule, ...(jobs?.threadModules ?? [])], data };
}

/** The composition root: builds every service and the middleware stack; does no I/O by itself. */
export function createApp(config: ServerConfig, options: AppOptions = {}): DecisioApp {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const plugins = options.plugins ?? [];
  const db = Database.open(config.databaseUrl);
  const blobs = new BlobStore(`${config.dataDir}/blobs`);

  const access = new AccessService(db);
  const sessions = new SessionService(db, clock, config.tokenTtlHours * 3600_000);
  const keys = new TransportKeys(db, clock, new PasswordNonces(db, clock, config.passwordNonceTtlMs));
  const throttle = new SignInThrottle(db, clock, {
    accountMaxFailures: config.loginMaxFailures,
    addressMaxFailures: config.loginAddressMaxFailures,
    windowMs: config.loginLockMs,
  });
  // Codes go out through the outbox: SMTP_URL / SMS_URL, or only the log and the outbox list (development mode).
  const outbox = new Outbox(db, clock, logger, {
    mail: config.codes.smtpUrl ? smtpTransport(config.codes.smtpUrl, config.codes.mailFrom) : null,
    sms: config.codes.smsUrl ? httpSmsProvider(config.codes.smsUrl, new HostGuard(config.connectionAllow), config.codes.smsToken) : null,
  });
  const codes = new VerificationCodes(db, clock, outbox, config.codes);
  const captcha = new CaptchaService(db, clock);
  const hasher = new PasswordHasher();
  const account = new AccountService(db, clock, keys, hasher, sessions, access, throttle, { codes, captcha, captchaAfter: config.codes.signInCaptchaAfter, captchaAfterAddress: config.codes.signInCaptchaAfterAddress });
  const users = new UsersService(db, clock, sessions);
  const audit = new AuditLog(db, logger, options.audit);

  // Every signed-in call: the caller, then the route table's permission check (ROUTE_PERMISSIONS).
  const routePermissions = new RoutePermissions();
  const kit: RouteKit = {
    auth: authWithRouteCheck(createAuth({ db, sessions, access }), routePermissions),
    tenant: createTenantScope(db),
    transaction: createTransaction(db),
    requirePermission,
    validate,
  };

  const api = new Router<AppState>({ prefix: '/api' });
  accountRoutes(api, kit, { account, keys });
  codesRoutes(api, kit, { db, codes, captcha, outbox });
  passwordRoutes(api, kit, { passwords: new PasswordChanges(db, clock, keys, hasher, sessions, throttle, codes) });
  const roles = new RolesService(db, clock);
  usersRoutes(api, kit, { users, throttle, manage: new UserManagement(db, clock, new PasswordHasher(), sessions, roles) });
  accessRoutes(api, kit, { roles, menus: new MenusService(db, clock) });
  tenancyRoutes(api, kit, { orgs: new OrgsService(db, clock), tenants: new TenantsService(db, clock) });
  logsRoutes(api, kit, { logs: new LogsService(db, clock) });
  const storageRaw = storageRoutes(api, kit, { db, blobs, clock, config });
  const datasets = datasetsRoutes(api, kit, { db, blobs, clock });
  const secrets = new SecretBox(db, clock);
  const connections = new ConnectionsService(db, clock, secrets);
  // Project and solution deletes tell the modelling module which jobs went (their TensorBoards end).
  const deletedJobs = new DeletedJobs();
  const solutions = new SolutionsService(db, clock, blobs, deletedJobs);
  // Messages: other modules tell a user something through `messages.notify` (issue 18).
  const messages = new MessagesService(db, clock);
  messagesRoutes(api, kit, { messages });
  projectsRoutes(api, kit, { projects: new ProjectsService(db, clock, blobs, deletedJobs, messages), solutions });
  userCentreRoutes(api, kit, { centre: new UserCentreService(db, clock, codes, new AvatarStore(db, clock, blobs), new ProjectsService(db, clock, blobs, deletedJobs), blobs) });
  supportRoutes(api, kit, { support: new SupportService(db, clock, messages) });
  // Industry templates: contributed by the plugins (e.g. plugins/template-electric), none built in.
  let templateRegistry: TemplateRegistry;
  try {
    templateRegistry = new TemplateRegistry(plugins);
  } catch (err) {
    void db.close();
    throw err;
  }
  // The public electric demo (no account, rate-limited per address), on the electric template's data.
  electricRoutes(api, kit, { electric: new ElectricService(db, clock, templateRegistry) });
  const serviceManagement = new ServiceManagementService(db, clock, messages);
  serviceManagementRoutes(api, kit, { services: serviceManagement });
  const licenceSigner = new LicenceSigner(db, clock);
  // The licence form's code comes from the account area's code service (purpose `licence`).
  const licenceCodes: ContactCodeVerifier = options.codeVerifier ?? {
    verify: (channel, recipient, code, userId) => codes.consume({ channel: channel === 'mobile' ? 'sms' : 'email', recipient, purpose: 'licence', userId }, code),
  };
  const licences = new LicencesService(db, clock, licenceSigner, licenceCodes, serviceManagement, messages);
  const licencesRaw = licencesRoutes(api, kit, { licences, versions: new SdkVersionsService(db, clock, blobs), signer: licenceSigner });
  let licenceSweep: NodeJS.Timeout | null = null;
  const sweepLicences = () => void licences.sweep().catch((err: unknown) => logger.warn('licence notices failed', { err }));
  solutionsRoutes(api, kit, { solutions });
  const deploy = createDeployModule(api, kit, { db, blobs, logger, clock, bodyLimitBytes: config.bodyLimitBytes, datasets, recordRetentionDays: config.recordRetentionDays, closing: () => closing !== null });
  const reports = reportsRoutes(api, kit, { db, blobs, clock, logger });
  pidDataRoutes(api, kit, { db, clock });
  // SSH: host keys checked against SSH_KNOWN_HOSTS, else trusted on first use per user.
  const hostKeys = new HostKeys(db, config.ssh.knownHostsFile);
  const sshTerminals = new SshTerminals(new HostGuard(config.connectionAllow), hostKeys, audit, options.ssh);
  sshRoutes(api, kit, { terminals: sshTerminals, hostKeys });
  let jobKinds: Map<string, ServerJobKind>;
  try {
    const coreSegments = new Set(api.stack.map((l) => routeSegment(String(l.path))));
    jobKinds = mountServerPlugins(plugins, api, { db, kit, logger });
    // Segments a plugin mounts: any signed-in user reaches them; the plugin checks its own permissions.
    for (const l of api.stack) if (!coreSegments.has(routeSegment(String(l.path)))) routePermissions.allowSegment(routeSegment(String(l.path)));
  } catch (err) {
    void db.close();
    throw err;
  }

  // The modelling areas' kinds of training (one descriptor each: calls, table, rules, job kind).
  const trainingKinds = modellingTrainingKinds();
  const jobKindRegistry = new JobKindRegistry();
  try {
    for (const k of [...builtinJobKinds, ...scheduledJobKinds({ db, blobs, clock, connections: importConnectionSettings(config) }), ...modellingJobKinds({ db, blobs, hostGuard: new HostGuard(config.connectionAllow), logger }, trainingKinds), importJobKind({ db, blobs, tmpDir: importTmpDir(config.dataDir), clock, connections: importConnectionSettings(config), logger }), ...(options.jobs?.kinds ?? [])]) jobKindRegistry.registerJobKind(k);
    jobKindRegistry.registerPluginKinds(jobKinds.values());
  } catch (err) {
    void db.close();
    throw err;
  }
  const jobStore = new JobStore(db, clock);
  const jobs: JobQueue = config.redisUrl
    ? new BullMqQueue(jobStore, { redisUrl: config.redisUrl, prefix: options.jobs?.prefix, upkeepKinds: jobKindRegistry.upkeepKinds() })
    : new InProcessQueue(jobStore, jobKindRegistry, {
        concurrency: options.jobs?.concurrency,
        // The server's own worker row carries its SSH address (WORKER_SSH_ADDRESS) for trainSSH/getTrainSSH.
        machine: { ...machineInfo(), sshAddress: config.ssh.workerAddress },
        logger,
        threads: jobThreads(config, options.jobs),
      });
  let jobsStarted = false;
  // A terminal into the worker of a running training (TRAIN_SSH, off by default).
  trainSshRoutes(api, kit, { terminals: sshTerminals, config: config.ssh.train, job: (id, tenantId) => jobs.get(id, { tenantId }), worker: (id) => jobStore.getWorker(id) });
  const schedules = new SchedulesService(db, clock, jobs, logger, (kind) => jobKindRegistry.get(kind)?.report);
  schedulesRoutes(api, kit, { schedules, db, deploy: deploy.service });
  // A service's page lists its policy updates from recorded calls (`modeldeploy/queryPolicyUpdates`).
  policyUpdateRoutes(api, kit, { db, deploy: deploy.service });
  const scheduler = new Scheduler(db, clock, schedules, logger, options.scheduler);
  // Project and solution deletes wait for the modelling jobs (the deploy module registers its own guard).
  registerDeleteGuard(modellingDeleteGuard);
  const modelling = modellingRoutes(api, kit, { db, jobs, blobs, deletedJobs, tensorBoard: { bin: config.tensorBoardBin, idleMinutes: config.tensorBoardIdleMinutes } }, trainingKinds);
  // Policy updates from recorded calls: every tick takes the next step of the loops whose job ended.
  const policyUpdates = new PolicyUpdates({ db, clock, logger, jobs, deploy: deploy.service, trainings: modelling.trainings, datasets, messages, access });
  scheduler.addTask(() => policyUpdates.advance());
  reviveImportRoutes(api, kit, { db, jobs, blobs, datasets });
  templatesRoutes(api, kit, { db, blobs, clock, jobs, datasets, solutions, templates: templateRegistry });
  // The template storehouse (issue 20 item 3): a user's table matched to the templates, and a project from one.
  storehouseRoutes(api, kit, { db, blobs, clock, jobs, datasets, solutions, templates: templateRegistry });
  // The model market (issue 20 item 5): trained environments and policies published, imported as copies.
  marketRoutes(api, kit, { db, blobs, clock, jobs, solutions });
  // A training that ends or fails writes its user a message (once per job).
  jobs.subscribe((e) => {
    if (e.type === 'state' && isFinalState(e.state)) void messages.onJobFinal(e.jobId, e.state).catch((err: unknown) => logger.warn('job message failed', { err, jobId: e.jobId }));
  });
  // The job contract (`job/get`, `job/wait`, `job/events`): each module names what its jobs work for.
  const jobOwners = new JobOwners().register(modellingJobOwners(db)).register(importJobOwner(db)).addSource(serviceJobSource(deploy.service));
  jobsRoutes(api, kit, { db, jobs, owners: jobOwners });
  // The API description (`GET /api/openapi.json`, `GET /api/docs`), generated from the routes mounted here.
  docsRoutes(api, [api, storageRaw], kit.auth);
  // Imports from data connections run as `data.import` jobs.
  const imports = new ImportService(db, clock, connections, jobs, logger, {
    timeoutMs: config.importTimeoutMs,
    assertProject: async (user, projectId) => void (await assertProjectAccess(db.knex, user, projectId, 'edit')),
  });
  // Every host a user names goes through the guard (CONNECTION_ALLOW lets non-public ones through).
  const connector = { guard: new HostGuard(config.connectionAllow), connectMs: config.connectionTimeoutMs, queryMs: DEFAULT_QUERY_MS };
  connectionsRoutes(api, kit, { connections, keys, secrets, imports, connector, logger });
  tableOpsRoutes(api, kit, { db, blobs, clock, datasets, secrets, connector, target: (user, id, password) => connections.target(user, id, password), maxRows: config.importMaxRows });

  let server: http.Server | null = null;
  let closing: Promise<void> | null = null;

  const app = new Koa<AppState>();
  // Which proxies' X-Forwarded-* headers `clientAddress` / `isHttps` believe (TRUST_PROXY).
  trustProxies(app, config.trustProxy);
  // Errors no middleware caught: the envelope and a log line with the request id, not Koa's text.
  installErrorFallback(app, logger);
  // First, so that every answer and every log line of a failure carries the request id.
  app.use(requestId());
  app.use(async (ctx, next) => {
    // While shutting down, ask clients not to reuse the connection.
    if (closing) ctx.set('Connection', 'close');
    await next();
  });
  app.use(initState());
  // Brotli at quality 4: its default (11) took minutes for DuckDB-WASM's 34 MB wasm; 4 is about
  // as fast as gzip and still smaller.
  app.use(compress({ threshold: 1024, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }, gzip: {}, deflate: false }));
  app.use(locale());
  // The decision endpoint answers machines, not documents: ahead of the isolation headers.
  app.use(deploy.accessAddress);
  app.use(securityHeaders());
  app.use(healthCheck(db));
  app.use(auditTrail({ audit, clock }));
  app.use(errorEnvelope(logger));
  app.use(storageRaw.routes()); // raw part uploads: before the 1 MiB JSON parser
  app.use(licencesRaw.routes()); // licence applications with a device file, SDK packages: same
  app.use(modelling.tensorBoardProxy); // TensorBoard posts form data: before the JSON parser too
  app.use(async (ctx, next) => (ctx.path.startsWith('/api/') ? jsonBody(config.bodyLimitBytes)(ctx, next) : next()));
  app.use(api.routes());
  if (hasWorkbench(config.publicDir)) app.use(serveWorkbench(config.publicDir));
  app.on('error', (err: unknown, ctx?: { method?: string; path?: string }) => {
    // A client that goes away mid-response (a closed tab ending an event stream, a cancelled
    // download) is not a server fault: a debug line without the stack.
    const code = (err as { code?: string } | null)?.code;
    if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE') {
      logger.debug('client went away', { code, method: ctx?.method, path: ctx?.path });
      return;
    }
    logger.warn('response error', { err, method: ctx?.method, path: ctx?.path });
  });
  // The access address answers before Koa (deploy/access-address.ts); everything else is Koa's.
  const koa = app.callback();
  const handler: http.RequestListener = (req, res) => {
    if (!deploy.decisionHandler(req, res)) void koa(req, res);
  };

  return {
    app,
    handler,
    db,
    config,
    blobs,
    jobKinds,
    templates: templateRegistry,
    jobs,
    jobKindRegistry,
    imports,
    scheduler,
    async startJobs() {
      // Licence notices ("expires in N days", "expired"): now and hourly.
      if (!licenceSweep) {
        sweepLicences();
        licenceSweep = setInterval(sweepLicences, 3600_000);
        licenceSweep.unref();
      }
      if (jobsStarted) return;
      jobsStarted = true;
      await imports.recover();
      await jobs.start();
      if (options.scheduler?.enabled !== false) scheduler.start();
    },
    migrate: () => migrateLatest(db, plugins),
    flush: async () => void (await Promise.all([audit.flush(), deploy.flush()])),
    listen() {
      if (server) throw new Error('Already listening');
      const s = http.createServer(handler);
      // The SSH terminal's WebSocket (`/api/ssh/terminal`); other upgrades are refused.
      s.on('upgrade', (req, socket, head) => {
        if (!sshTerminals.handleUpgrade(req, socket, head)) socket.destroy();
      });
      server = s;
      return new Promise((resolve, reject) => {
        s.once('error', reject);
        s.listen(config.port, config.host, () => {
          s.off('error', reject);
          const { port } = s.address() as AddressInfo;
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          resolve({ url: `http://${host}:${port}` });
        });
      });
    },
    close() {
      closing ??= (async () => {
        sshTerminals.closeAll();
        if (server) {
          const s = server;
          const done = new Promise<void>((resolve) => s.close(() => resolve()));
          // Keep-alive connections become idle as their last response ends: close them then.
          const sweep = setInterval(() => s.closeIdleConnections(), 50);
          const grace = setTimeout(() => s.closeAllConnections(), options.shutdownGraceMs ?? 10_000);
          s.closeIdleConnections();
          await done;
          clearInterval(sweep);
          clearTimeout(grace);
        }
        await modelling.close();
        await scheduler.stop();
        if (jobsStarted) await jobs.close().catch((err: unknown) => logger.warn('job queue close failed', { err }));
        await deploy.close();
        await reports.close();
        if (licenceSweep) clearInterval(licenceSweep);
        await audit.flush();
        await db.close();
      })();
      return closing;
    },
  };
}
