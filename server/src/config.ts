import path from 'node:path';
import { parseAllowList } from './net/host-guard';
import { proxyMatcher } from './http/proxy';
import { loadCodesConfig, type CodesConfig } from './modules/codes/config';
import { loadSshConfig, type SshConfig } from './modules/ssh/config';

/** Log levels, most verbose first; `silent` logs nothing. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Everything the server reads from its environment. */
export interface ServerConfig {
  /** TCP port; `0` picks a free one (tests). */
  port: number;
  host: string;
  /** Folder for the embedded database and other local state. */
  dataDir: string;
  /** `sqlite:<file>` / a file path, or `mysql://user:pass@host:port/db`. */
  databaseUrl: string;
  /** Parsed but unused until the job queue lands. */
  redisUrl: string | null;
  /** Built workbench; served when `<publicDir>/index.html` exists. */
  publicDir: string;
  tokenTtlHours: number;
  logLevel: LogLevel;
  /** Largest accepted JSON body, bytes. */
  bodyLimitBytes: number;
  /** Failed sign-ins per account (all its login names) before it is locked (`userLocked`). */
  loginMaxFailures: number;
  /** Failed sign-ins per client address, over all login names, before it is refused (`LOGIN_ADDRESS_MAX_FAILURES`). */
  loginAddressMaxFailures: number;
  /** How long a locked account or address waits, and the window failures are counted in, ms. */
  loginLockMs: number;
  /** How long the one-time nonce of `index/getPublicKey` is accepted, ms. */
  passwordNonceTtlMs: number;
  /** Storage quota a user / a tenant starts with, bytes (`STORAGE_USER_QUOTA_MB`, `STORAGE_TENANT_QUOTA_MB`). */
  storageUserQuotaBytes: number;
  storageTenantQuotaBytes: number;
  /** Days a decision call record is kept (`DEPLOY_RECORD_RETENTION_DAYS`, 0 keeps them for ever). */
  recordRetentionDays: number;
  /** The TensorBoard executable (`TENSORBOARD_BIN`); null: `tensorboard` on `PATH`. */
  tensorBoardBin: string | null;
  /** Minutes a TensorBoard runs without a request before it ends (`TENSORBOARD_IDLE_MINUTES`). */
  tensorBoardIdleMinutes: number;
  /**
   * Hosts that data connections (and any other user-given host) may reach although they are not
   * public (`CONNECTION_ALLOW`): CIDR blocks, addresses and host names, checked at start-up. See
   * `net/host-guard.ts`; empty: public addresses only.
   */
  connectionAllow: string[];
  /** Longest wait for an outside database to accept a connection, ms (`CONNECTION_TIMEOUT_SECONDS`, default 5). */
  connectionTimeoutMs: number;
  /** Most rows one import copies (`IMPORT_MAX_ROWS`, default 10 000 000); more fails it with `importTooManyRows`. */
  importMaxRows: number;
  /** Longest import, ms (`IMPORT_TIMEOUT_MINUTES`, default 30): then it fails with `importTimeout`. */
  importTimeoutMs: number;
  /**
   * Which peers' `X-Forwarded-For` / `X-Forwarded-Proto` are believed (`TRUST_PROXY`): `false`
   * (unset, `0`, `false`) none; `true` (`1`, `true`) the direct peer, one reverse proxy in front;
   * or a comma-separated list of proxy addresses / CIDRs. See `http/proxy.ts`.
   */
  trustProxy: boolean | string[];
  /** Verification codes: transports (`SMTP_URL`, `SMS_URL`) and limits (see modules/codes/config.ts). */
  codes: CodesConfig;
  /** SSH terminal: known hosts, this process's worker SSH address, the terminal into a training's worker (modules/ssh/config.ts). */
  ssh: SshConfig;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a number greater than 0, got "${value}"`);
  return n;
}

/** `TRUST_PROXY`: off, one hop, or a list of addresses / CIDRs (checked by `proxyMatcher`). */
function trustProxyOf(value: string | undefined): boolean | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v === '0' || v.toLowerCase() === 'false') return false;
  if (v === '1' || v.toLowerCase() === 'true') return true;
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  proxyMatcher(list);
  return list;
}

/** `CONNECTION_ALLOW` as its entries; a malformed entry is a start-up error. */
function connectionAllowOf(value: string | undefined): string[] {
  parseAllowList(value);
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * Reads the configuration from environment variables (see server/README.md). Relative paths are
 * resolved against `cwd`. Throws on malformed values so a bad deployment fails at start-up.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): ServerConfig {
  const dataDir = path.resolve(cwd, env.DATA_DIR || '.data');
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const ttl = int(env.TOKEN_TTL_HOURS, 168, 'TOKEN_TTL_HOURS');
  if (ttl === 0) throw new Error('TOKEN_TTL_HOURS must be at least 1');
  return {
    port: int(env.PORT, 8080, 'PORT'),
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || `sqlite:${path.join(dataDir, 'decisio.sqlite')}`,
    redisUrl: env.REDIS_URL || null,
    publicDir: path.resolve(cwd, env.PUBLIC_DIR || 'dist'),
    tokenTtlHours: ttl,
    logLevel: logLevel as LogLevel,
    bodyLimitBytes: 1024 * 1024,
    loginMaxFailures: 5,
    loginAddressMaxFailures: Math.max(1, int(env.LOGIN_ADDRESS_MAX_FAILURES, 30, 'LOGIN_ADDRESS_MAX_FAILURES')),
    loginLockMs: 15 * 60 * 1000,
    passwordNonceTtlMs: 2 * 60 * 1000,
    storageUserQuotaBytes: int(env.STORAGE_USER_QUOTA_MB, 10 * 1024, 'STORAGE_USER_QUOTA_MB') * 1024 * 1024,
    storageTenantQuotaBytes: int(env.STORAGE_TENANT_QUOTA_MB, 500 * 1024, 'STORAGE_TENANT_QUOTA_MB') * 1024 * 1024,
    recordRetentionDays: int(env.DEPLOY_RECORD_RETENTION_DAYS, 90, 'DEPLOY_RECORD_RETENTION_DAYS'),
    tensorBoardBin: env.TENSORBOARD_BIN?.trim() ? path.resolve(cwd, env.TENSORBOARD_BIN.trim()) : null,
    tensorBoardIdleMinutes: positive(env.TENSORBOARD_IDLE_MINUTES, 30, 'TENSORBOARD_IDLE_MINUTES'),
    connectionAllow: connectionAllowOf(env.CONNECTION_ALLOW),
    connectionTimeoutMs: Math.round(positive(env.CONNECTION_TIMEOUT_SECONDS, 5, 'CONNECTION_TIMEOUT_SECONDS') * 1000),
    importMaxRows: Math.max(1, Math.floor(positive(env.IMPORT_MAX_ROWS, 10_000_000, 'IMPORT_MAX_ROWS'))),
    importTimeoutMs: Math.round(positive(env.IMPORT_TIMEOUT_MINUTES, 30, 'IMPORT_TIMEOUT_MINUTES') * 60_000),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    codes: loadCodesConfig(env),
    ssh: loadSshConfig(env, cwd),
  };
}
