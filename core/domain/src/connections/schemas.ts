import { z } from 'zod';

/**
 * Data connections (spec platform §3 "Data connection", §7 `jobJdbcDatasource/*`): saved links
 * to a MySQL / MariaDB or PostgreSQL server that tables are imported from. The password travels
 * encrypted with the transport key (`encryptPassword`, like sign-in) and is stored encrypted
 * (AES-256-GCM); no reply ever carries it back.
 */

/** Database kinds a connection can reach. */
export const CONNECTION_TYPES = ['mysql', 'mariadb', 'postgresql'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

/** The JDBC driver class each type is shown with (informational; the server speaks the wire protocol itself). */
export const DEFAULT_DRIVERS: Record<ConnectionType, string> = {
  mysql: 'com.mysql.cj.jdbc.Driver',
  mariadb: 'org.mariadb.jdbc.Driver',
  postgresql: 'org.postgresql.Driver',
};

/** Length limits of the connection form. */
export const CONNECTION_LIMITS = { name: 50, group: 50, driver: 100, url: 500, zk: 200, database: 64, username: 64, password: 1024, remark: 200 } as const;

/** A parsed `jdbc:<type>://host[:port][/database][?params]`. */
export interface JdbcTarget {
  type: ConnectionType;
  host: string;
  port: number;
  database: string | null;
  params: Record<string, string>;
}

const DEFAULT_PORTS: Record<ConnectionType, number> = { mysql: 3306, mariadb: 3306, postgresql: 5432 };

/** Parses a JDBC URL of one of the supported types; `null` when it is not one. */
export function parseJdbcUrl(url: string): JdbcTarget | null {
  const m = /^jdbc:(mysql|mariadb|postgresql):\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?(?:\/([^?/#]*))?(?:\?([^#]*))?$/.exec(url.trim());
  if (!m) return null;
  const type = m[1] as ConnectionType;
  const port = m[3] ? Number(m[3]) : DEFAULT_PORTS[type];
  if (port < 1 || port > 65535) return null;
  const params: Record<string, string> = {};
  for (const pair of (m[5] ?? '').split('&')) {
    if (!pair) continue;
    const [k, v = ''] = pair.split('=');
    if (k) params[decodeURIComponent(k)] = decodeURIComponent(v);
  }
  const host = m[2]!.replace(/^\[|\]$/g, '');
  return { type, host, port, database: m[4] ? decodeURIComponent(m[4]) : null, params };
}

const text = (max: number) => z.string().trim().max(max);
const required = (max: number) => text(max).min(1, { message: 'validation.required' });

const connectionFields = {
  type: z.enum(CONNECTION_TYPES, { message: 'validation.invalid' }),
  name: required(CONNECTION_LIMITS.name),
  group: text(CONNECTION_LIMITS.group).optional().default(''),
  driver: text(CONNECTION_LIMITS.driver).optional(),
  url: required(CONNECTION_LIMITS.url).refine((u) => parseJdbcUrl(u) !== null, { message: 'validation.jdbcUrl' }),
  zkAddress: text(CONNECTION_LIMITS.zk).optional().default(''),
  database: text(CONNECTION_LIMITS.database).optional().default(''),
  username: required(CONNECTION_LIMITS.username),
  remark: text(CONNECTION_LIMITS.remark).optional().default(''),
};

/** The URL's scheme must match the chosen type (mariadb URLs may also be used for mysql and back). */
function typeMatchesUrl(v: { type: ConnectionType; url: string }): boolean {
  const t = parseJdbcUrl(v.url)?.type;
  if (!t) return true; // reported on `url` already
  const family = (x: ConnectionType) => (x === 'postgresql' ? 'pg' : 'my');
  return family(t) === family(v.type);
}

/** `jobJdbcDatasource/createDataSourceLink`. `password`: ciphertext of `encryptPassword`. */
export const createConnectionSchema = z
  .object({ ...connectionFields, password: z.string().max(CONNECTION_LIMITS.password).optional().default('') })
  .refine(typeMatchesUrl, { message: 'validation.jdbcUrl', path: ['url'] });
export type CreateConnectionRequest = z.input<typeof createConnectionSchema>;

/** `jobJdbcDatasource/updateDataSourceLink`: `password` omitted (or null) keeps the stored one. */
export const updateConnectionSchema = z
  .object({ id: z.string().min(1, { message: 'validation.required' }), ...connectionFields, password: z.string().max(CONNECTION_LIMITS.password).nullish() })
  .refine(typeMatchesUrl, { message: 'validation.jdbcUrl', path: ['url'] });
export type UpdateConnectionRequest = z.input<typeof updateConnectionSchema>;

/** A call naming one connection. */
export const connectionIdSchema = z.object({ id: z.string().min(1, { message: 'validation.required' }) });

/** `jobJdbcDatasource/test`: a saved connection (`id`) or an unsaved form (the create fields; `password` may be omitted with `id` to use the stored one). */
export const testConnectionSchema = z.union([
  z.object({ id: z.string().min(1), password: z.string().max(CONNECTION_LIMITS.password).nullish() }).strict(),
  createConnectionSchema,
]);

/** `jobJdbcDatasource/queryListByPage`. */
export const connectionPageSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(50).optional(),
  type: z.enum(CONNECTION_TYPES).optional(),
  group: z.string().trim().max(CONNECTION_LIMITS.group).optional(),
});

/** A connection as replies show it (never the password). */
export interface DataConnection {
  id: string;
  type: ConnectionType;
  name: string;
  group: string;
  driver: string;
  url: string;
  zkAddress: string;
  database: string;
  username: string;
  hasPassword: boolean;
  remark: string;
  creatorId: string;
  creatorName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `jobJdbcDatasource/test` reply. */
export interface ConnectionTestResult {
  ok: boolean;
  /** Server version string when `ok`. */
  version: string | null;
  /** Round trip in ms. */
  latencyMs: number;
  /** Why it failed (driver message, no secrets), when not `ok`. */
  error: string | null;
}

/** `jobJdbcDatasource/tables` item. */
export interface RemoteTable {
  name: string;
  /** Schema (PostgreSQL) or database (MySQL). */
  schema: string;
  kind: 'table' | 'view';
  /** Estimated rows as the server's statistics say (may be null or stale). */
  estimatedRows: number | null;
}

/** `jobJdbcDatasource/columns` item. */
export interface RemoteColumn {
  name: string;
  /** The server's own type name, e.g. `varchar(20)`, `double precision`. */
  dataType: string;
  /** What it becomes in a dataset. */
  kind: 'number' | 'string' | 'datetime' | 'bool';
  nullable: boolean;
}

/** `jobJdbcDatasource/tables`: the tables of a connection's database. */
export const connectionTablesSchema = z.object({ id: z.string().min(1, { message: 'validation.required' }) });
/** `jobJdbcDatasource/columns`: the columns of one table (`table` as listed, optionally `schema.table`). */
export const connectionColumnsSchema = z.object({
  id: z.string().min(1, { message: 'validation.required' }),
  table: z.string().trim().min(1, { message: 'validation.required' }).max(200),
  schema: z.string().trim().max(200).optional(),
});

/** `metadata/getColumnsByQuerySql`: the columns a query returns (kinds inferred from its first rows). */
export const queryColumnsSchema = z.object({
  id: z.string().min(1, { message: 'validation.required' }),
  sql: z.string().trim().min(1, { message: 'validation.required' }).max(20_000),
});

/** Dataset types an import may create (as `table/create`). */
const IMPORT_DATASET_TYPES = ['business', 'simulation', 'decision'] as const;

/** `metadata/startImport`: copy a table (`table`, `schema?`) or a query (`sql`) into a new dataset. */
export const startImportSchema = z
  .object({
    connectionId: z.string().min(1, { message: 'validation.required' }),
    table: z.string().trim().min(1).max(200).optional(),
    schema: z.string().trim().max(200).optional(),
    sql: z.string().trim().min(1).max(20_000).optional(),
    name: z.string().trim().min(1, { message: 'validation.required' }).max(30),
    type: z.enum(IMPORT_DATASET_TYPES, { message: 'validation.invalid' }).default('business'),
    projectId: z.string().min(1).optional(),
  })
  .refine((v) => (v.table ? 1 : 0) + (v.sql ? 1 : 0) === 1, { message: 'validation.required', path: ['table'] });
export type StartImportRequest = z.input<typeof startImportSchema>;

/** `metadata/getCopyStatusByTableId`: the import's id (`tableId` as the spec names it). */
export const importStatusSchema = z.object({ tableId: z.string().min(1, { message: 'validation.required' }) });

/** `metadata/stopImport`: stops an import that is waiting or copying (no dataset is made). */
export const stopImportSchema = importStatusSchema;

/** `metadata/getImportList`. */
export const importListSchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/**
 * States of an import: nothing is visible as a dataset before `successful`; `stopped` ends an
 * import stopped by `metadata/stopImport` (no dataset, nothing charged).
 */
export const IMPORT_STATES = ['waiting', 'copying', 'successful', 'failed', 'stopped'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

/** An import as `startImport`, `getCopyStatusByTableId` and `getImportList` show it. */
export interface ImportStatus {
  /** The import's id (the spec's `tableId` of the copy). */
  tableId: string;
  connectionId: string;
  connectionName: string;
  source: { table?: string; schema?: string; sql?: string };
  name: string;
  type: string;
  projectId: string | null;
  state: ImportState;
  rowsCopied: number;
  /** The server's row estimate for a table, when it has one. */
  rowsExpected: number | null;
  /** The new dataset, once `successful`. */
  datasetId: string | null;
  /** Catalogue code name and message when `failed`. */
  errorCode: string | null;
  error: string | null;
  createdAt: string;
  endedAt: string | null;
  /** The job that copies (`data.import`), once queued. */
  jobId?: string | null;
}
