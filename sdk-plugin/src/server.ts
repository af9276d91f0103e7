/**
 * `@decisio/sdk-plugin/server`: the contract of a server plugin.
 *
 * A server plugin adds API calls, database migrations, job kinds and seed data to the Decisio
 * server without touching its code. The server loads the plugins it is given
 * (`createApp(config, { plugins })`): routes are mounted under `/api/`, migrations are appended to
 * the migration history after the core ones (named `<pluginId>/<migrationName>`), and seeds run
 * once each after the plugin's migrations.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { defineServerPlugin } from '@decisio/sdk-plugin/server';
 *
 * export const notesPlugin = defineServerPlugin({
 *   id: 'acme.notes',
 *   migrations: [
 *     {
 *       name: '20261201000000_create_acme_notes',
 *       up: (knex) => knex.schema.createTable('acme_notes', (t) => {
 *         t.string('id', 32).primary();
 *         t.string('tenant_id', 32).notNullable();
 *         t.string('text', 200).notNullable();
 *       }),
 *       down: (knex) => knex.schema.dropTable('acme_notes'),
 *     },
 *   ],
 *   routes(router, ctx) {
 *     const body = ctx.validate(z.object({ text: z.string().max(200) }));
 *     router.post('/acmeNotes/create', ctx.auth, body, async (call) => {
 *       const { text } = body.input(call);
 *       const id = ctx.newId();
 *       await call.db('acme_notes').insert({ id, tenant_id: call.user!.tenantId, text });
 *       return { id };
 *     });
 *   },
 * });
 * ```
 */
import type { Knex } from 'knex';
import type { z } from 'zod';

/** The signed-in user of a call, as the server resolved it from the session token. */
export interface ServerCallUser {
  /** 32-hex id. */
  id: string;
  username: string;
  tenantId: string;
  /** Codes of the user's roles (at least one). */
  roles: string[];
  /** Permissions granted by those roles; `'*'` means every permission. */
  permissions: string[];
  /** True when one of the roles is a system role. */
  isSystemRole: boolean;
}

/** What a plugin's route handler receives for one call. */
export interface ServerCall {
  /** Parsed JSON body (`{}` when there is none). Read validated input with `guard.input(call)`. */
  body: unknown;
  /** Query-string parameters. */
  query: Record<string, string | string[] | undefined>;
  /** Named path parameters (`/notes/:id`). */
  params: Record<string, string>;
  /** The caller; `null` unless the route is behind `ctx.auth`. */
  user: ServerCallUser | null;
  /** Id of the request, echoed in the `RequestId` response header and the system log. */
  requestId: string;
  /** Language of the reply messages. */
  locale: 'zh-CN' | 'en-US';
  /**
   * The database; inside a route behind `ctx.transaction` this is the call's transaction. Plugins
   * own only their tables and must scope every query by `user.tenantId`.
   */
  db: Knex;
}

/**
 * Handles a call. The value it returns becomes `data` of the `{code: 0, data, message}` reply;
 * throw `AppError` (from `@decisio/domain`) to answer with a catalogue code.
 */
export type ServerHandler = (call: ServerCall) => unknown | Promise<unknown>;

/** A step of a route chain provided by the host (auth, tenant scope, permission, transaction). */
export interface ServerGuard {
  /** Brand: guards are created by the host only. */
  readonly kind: 'guard';
  /** Readable name, e.g. `auth` or `permission:users:read`. */
  readonly name: string;
}

/** A guard that validates the body (or query) with a zod schema and hands back typed input. */
export interface ServerInputGuard<T> extends ServerGuard {
  /** The validated input of a call that passed this guard. */
  input(call: ServerCall): T;
}

/**
 * Registers routes. Paths are relative to `/api/` (`'/acmeNotes/list'` answers
 * `/api/acmeNotes/list`). Each route is a chain: guards first, the handler last.
 */
export interface ServerRouter {
  get(path: string, ...chain: [...ServerGuard[], ServerHandler]): void;
  post(path: string, ...chain: [...ServerGuard[], ServerHandler]): void;
  put(path: string, ...chain: [...ServerGuard[], ServerHandler]): void;
  delete(path: string, ...chain: [...ServerGuard[], ServerHandler]): void;
}

/** What the host gives a plugin's `routes` function. */
export interface ServerPluginContext {
  /** Requires a valid session token; answers 401/403 codes of the catalogue otherwise. */
  readonly auth: ServerGuard;
  /** Requires the caller's tenant to exist (`tenantNotExists`); put after `auth`. */
  readonly tenant: ServerGuard;
  /** Runs the rest of the chain in one database transaction (`call.db` is the transaction). */
  readonly transaction: ServerGuard;
  /** Requires a permission of the caller's roles (`userNotPermission`, HTTP 403); after `auth`. */
  requirePermission(permission: string): ServerGuard;
  /**
   * Validates the JSON body (or, with `'query'`, the query string) with a zod schema; a failure
   * answers `paramInvalid` with translated field errors.
   */
  validate<S extends z.ZodType>(schema: S, source?: 'body' | 'query'): ServerInputGuard<z.output<S>>;
  /** A new 32-hex id. */
  newId(): string;
  /** The server's logger, tagged with the plugin id. */
  readonly log: {
    info(msg: string, fields?: Record<string, unknown>): void;
    warn(msg: string, fields?: Record<string, unknown>): void;
    error(msg: string, fields?: Record<string, unknown>): void;
  };
}

/**
 * A schema or data change of the plugin's own tables. Never change a migration once released;
 * add a new one. It must run on SQLite and MySQL/MariaDB.
 */
export interface ServerMigration {
  /** Unique within the plugin, sortable: `YYYYMMDDHHMMSS_<verb>_<noun>`. */
  name: string;
  up(knex: Knex): Promise<unknown> | PromiseLike<unknown>;
  down?(knex: Knex): Promise<unknown> | PromiseLike<unknown>;
}

/** Seed data (e.g. an industry template) inserted once, after the plugin's migrations. */
export interface ServerSeed {
  /** Unique within the plugin. */
  name: string;
  run(knex: Knex): Promise<unknown> | PromiseLike<unknown>;
}

/** Context of one job run. */
export interface ServerJobContext {
  jobId: string;
  /** Aborted when the job is stopped; handlers must return promptly. */
  signal: AbortSignal;
  /** Reports progress in [0, 1] and optional metrics. */
  report(progress: number, metrics?: Record<string, number>): void;
}

/** A kind of background job the plugin can run (training steps, imports, scheduled work). */
export interface ServerJobKind {
  /** Namespaced, e.g. `acme.notes.reindex`. */
  kind: string;
  description?: string;
  run(payload: unknown, job: ServerJobContext): Promise<unknown>;
}

/** The definition of a server plugin, as written by its author. */
export interface ServerPluginDefinition {
  /** Namespaced and stable: lower-case words separated by dots, e.g. `acme.notes`. */
  id: string;
  routes?(router: ServerRouter, ctx: ServerPluginContext): void;
  migrations?: ServerMigration[];
  jobKinds?: ServerJobKind[];
  seeds?: ServerSeed[];
}

/** A checked, frozen server plugin, ready to give to the server. */
export interface ServerPlugin {
  readonly id: string;
  readonly routes: ((router: ServerRouter, ctx: ServerPluginContext) => void) | null;
  readonly migrations: readonly ServerMigration[];
  readonly jobKinds: readonly ServerJobKind[];
  readonly seeds: readonly ServerSeed[];
}

const PLUGIN_ID = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;
const MIGRATION_NAME = /^\d{14}_[a-z0-9_]+$/;

function assertUnique(pluginId: string, what: string, names: string[]): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new Error(`Server plugin "${pluginId}": duplicate ${what} "${n}"`);
    seen.add(n);
  }
}

/**
 * Checks and freezes a server plugin definition.
 *
 * @throws Error when the id is not namespaced lower-case words, a migration name is not
 *   `YYYYMMDDHHMMSS_<verb>_<noun>`, migrations are not in ascending order, or a migration, seed or
 *   job kind name is duplicated.
 */
export function defineServerPlugin(definition: ServerPluginDefinition): ServerPlugin {
  const { id } = definition;
  if (!PLUGIN_ID.test(id)) {
    throw new Error(`Server plugin id "${id}" must be lower-case words separated by dots, e.g. "acme.notes"`);
  }
  const migrations = [...(definition.migrations ?? [])];
  for (const m of migrations) {
    if (!MIGRATION_NAME.test(m.name)) {
      throw new Error(`Server plugin "${id}": migration "${m.name}" must be named YYYYMMDDHHMMSS_<verb>_<noun>`);
    }
  }
  const names = migrations.map((m) => m.name);
  if (names.some((n, i) => i > 0 && n < names[i - 1]!)) {
    throw new Error(`Server plugin "${id}": migrations must be listed in ascending order`);
  }
  assertUnique(id, 'migration', names);
  const seeds = [...(definition.seeds ?? [])];
  assertUnique(id, 'seed', seeds.map((s) => s.name));
  const jobKinds = [...(definition.jobKinds ?? [])];
  assertUnique(id, 'job kind', jobKinds.map((j) => j.kind));
  return Object.freeze({
    id,
    routes: definition.routes ?? null,
    migrations: Object.freeze(migrations),
    jobKinds: Object.freeze(jobKinds),
    seeds: Object.freeze(seeds),
  });
}
