/**
 * Test harness: a real server on an ephemeral port over a real, fresh database. SQLite always
 * (a temp file); MariaDB/MySQL too when `TEST_MYSQL_URL` is set (e.g.
 * `mysql://root@127.0.0.1:3306/test`): each server gets its own `decisio_t_<random>` database,
 * dropped on `stop()`.
 *
 * Data connections: the server allows exactly the hosts of `TEST_MYSQL_URL` and
 * `TEST_POSTGRES_URL` (`CONNECTION_ALLOW`, see `testConnectionAllow`), nothing else that is not
 * public, and waits 2 s for a connection (`CONNECTION_TIMEOUT_SECONDS`); `options.env` may say
 * otherwise (`CONNECTION_ALLOW: ''` allows nothing).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import type { Envelope } from '@decisio/domain';
import { createApp, type AppOptions, type DecisioApp } from '../app';
import { loadConfig, type ServerConfig } from '../config';
import { knexConfigOf, parseDatabaseUrl, type DatabaseKind } from '../db/database';
import { loadServerPlugins } from '../plugins/registry';

let workspacePlugins: ReturnType<typeof loadServerPlugins> | undefined;

/** The databases every data-layer test runs on: `describe.each(databases)`. */
export const databases: DatabaseKind[] = process.env.TEST_MYSQL_URL ? ['sqlite', 'mysql'] : ['sqlite'];

/**
 * `CONNECTION_ALLOW` of test servers: the hosts of the outside test databases (`TEST_MYSQL_URL`,
 * `TEST_POSTGRES_URL`), an address as a single-address block (`127.0.0.1/32`), a name as is.
 */
export function testConnectionAllow(env: NodeJS.ProcessEnv = process.env): string {
  const hosts = new Set<string>();
  for (const url of [env.TEST_MYSQL_URL, env.TEST_POSTGRES_URL]) {
    if (!url) continue;
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    if (!host) continue;
    hosts.add(net.isIP(host) === 4 ? `${host}/32` : net.isIP(host) === 6 ? `${host}/128` : host);
  }
  return [...hosts].join(',');
}

/** Options of `startTestServer`. */
export interface TestServerOptions extends AppOptions {
  /** Reuse this database (e.g. to restart over the same data); it is then not dropped on stop. */
  databaseUrl?: string;
  /** Extra environment for `loadConfig` (e.g. `PUBLIC_DIR`, `TOKEN_TTL_HOURS`). */
  env?: Record<string, string>;
  /** Skip migrations. */
  migrate?: boolean;
}

/** One HTTP reply. */
export interface TestReply<T = any> {
  status: number;
  body: Envelope<T> & Record<string, any>;
  headers: Headers;
}

/** Options of one call. */
export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Raw body text (sent as is). */
  raw?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** A running test server. */
export interface TestServer {
  kind: DatabaseKind;
  url: string;
  databaseUrl: string;
  config: ServerConfig;
  app: DecisioApp;
  /** Calls `/api/<name>` (POST with JSON unless told otherwise). */
  call<T = any>(name: string, options?: CallOptions): Promise<TestReply<T>>;
  /** Plain fetch against the server. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

function mysqlAdmin(url: string) {
  const target = parseDatabaseUrl(url);
  if (target.kind !== 'mysql') throw new Error('TEST_MYSQL_URL must be a mysql:// URL');
  const { database: _ignored, ...server } = target;
  const config = knexConfigOf({ ...server, database: '' });
  const connection = { ...(config.connection as Record<string, unknown>) };
  delete connection.database;
  return { knex: knexFactory({ ...config, connection, pool: { min: 0, max: 1 } }), target };
}

/** Creates a fresh database of `kind`; returns its URL and how to drop it. */
export async function createTestDatabase(kind: DatabaseKind): Promise<{ url: string; dataDir: string; drop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-test-'));
  if (kind === 'sqlite') {
    return {
      url: `sqlite:${path.join(dataDir, 'decisio.sqlite')}`,
      dataDir,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const base = process.env.TEST_MYSQL_URL;
  if (!base) throw new Error('TEST_MYSQL_URL is not set');
  const name = `decisio_t_${randomBytes(6).toString('hex')}`;
  const admin = mysqlAdmin(base);
  await admin.knex.raw(`create database \`${name}\` character set utf8mb4 collate utf8mb4_unicode_ci`);
  await admin.knex.destroy();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    dataDir,
    drop: async () => {
      const a = mysqlAdmin(base);
      try {
        await a.knex.raw(`drop database if exists \`${name}\``);
      } finally {
        await a.knex.destroy();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Starts a migrated server on a fresh database of `kind` (or on `options.databaseUrl`). Without
 * `options.plugins` it loads the plugins `npm start` loads (the workspace's `plugins/*` with a
 * server entry: the industry templates).
 */
export async function startTestServer(kind: DatabaseKind, options: TestServerOptions = {}): Promise<TestServer> {
  const owned = options.databaseUrl ? null : await createTestDatabase(kind);
  const databaseUrl = options.databaseUrl ?? owned!.url;
  const dataDir = owned?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-test-'));
  const config: ServerConfig = {
    ...loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      PUBLIC_DIR: path.join(dataDir, 'no-public'),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      CONNECTION_ALLOW: testConnectionAllow(),
      CONNECTION_TIMEOUT_SECONDS: '2',
      ...options.env,
    }),
    port: 0,
    host: '127.0.0.1',
  };
  let started: DecisioApp | undefined;
  let url: string;
  try {
    started = createApp(config, { ...options, plugins: options.plugins ?? (await (workspacePlugins ??= loadServerPlugins())) });
    if (options.migrate !== false) await started.migrate();
    ({ url } = await started.listen());
  } catch (err) {
    await started?.close().catch(() => undefined);
    if (owned) await owned.drop();
    throw err;
  }
  const app = started;
  let stopped = false;

  const server: TestServer = {
    kind,
    url,
    databaseUrl,
    config,
    app,
    fetch: (pathname, init) => fetch(url + pathname, init),
    async call(name, opts = {}) {
      const method = opts.method ?? 'POST';
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.Authorization = opts.token;
      let body: string | undefined;
      if (opts.raw !== undefined) body = opts.raw;
      else if (opts.body !== undefined) body = JSON.stringify(opts.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['Content-Type'] = 'application/json';
      }
      const res = await fetch(`${url}/api/${name}`, { method, headers, body });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await app.close();
      if (owned) await owned.drop();
      else fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}
