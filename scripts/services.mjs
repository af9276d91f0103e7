/**
 * The outside services of the test suite (MariaDB, PostgreSQL, Redis) and Chromium, for
 * `npm test`: each is looked for at its `TEST_*` address (the local default when the variable
 * is unset), started when it is a local default that does not answer and its server is
 * installed, and reported as available or missing with the reason.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { run } from './lib.mjs';

/** The services, their variables and local defaults. */
export const SERVICES = [
  { id: 'mysql', name: 'MariaDB', variable: 'TEST_MYSQL_URL', fallback: 'mysql://root@127.0.0.1:3306/test' },
  { id: 'postgres', name: 'PostgreSQL', variable: 'TEST_POSTGRES_URL', fallback: 'postgres://postgres@127.0.0.1:5432/test' },
  { id: 'redis', name: 'Redis', variable: 'TEST_REDIS_URL', fallback: 'redis://127.0.0.1:6379' },
];

/** Debian's Chromium, or `CHROMIUM_PATH`. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

const PROBE_TIMEOUT_MS = 3000;

/** `host:port` of a URL, for messages (no credentials). */
export const where = (url) => {
  try {
    const u = new URL(url);
    return u.host || url;
  } catch {
    return url;
  }
};

const reasonOf = (e) => (e instanceof Error ? (e.code ? `${e.code}: ${e.message}` : e.message) : String(e)).split('\n')[0];

/** Resolves to null when the server at `url` answers, else to why not. */
export async function probe(id, url) {
  try {
    if (id === 'mysql') {
      const { default: mysql } = await import('mysql2/promise');
      const u = new URL(url);
      const c = await mysql.createConnection({ host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), connectTimeout: PROBE_TIMEOUT_MS });
      try {
        await c.query('SELECT 1');
      } finally {
        await c.end();
      }
      return null;
    }
    if (id === 'postgres') {
      const { default: pg } = await import('pg');
      const query = async (connectionString, sql) => {
        const c = new pg.Client({ connectionString, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
        await c.connect();
        try {
          await c.query(sql);
        } finally {
          await c.end();
        }
      };
      try {
        await query(url, 'SELECT 1');
      } catch (e) {
        // The server answers but the test database is not there yet: create it.
        if (e?.code !== '3D000') throw e;
        const u = new URL(url);
        const name = decodeURIComponent(u.pathname.slice(1));
        u.pathname = '/postgres';
        await query(u.toString(), `CREATE DATABASE "${name.replaceAll('"', '""')}"`);
        await query(url, 'SELECT 1');
      }
      return null;
    }
    const { Redis } = await import('ioredis');
    const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: PROBE_TIMEOUT_MS, retryStrategy: () => null });
    let cause = null;
    r.on('error', (e) => (cause ??= e));
    try {
      await r.connect();
      const pong = await r.ping();
      return pong === 'PONG' ? null : `unexpected answer ${pong}`;
    } catch (e) {
      // ioredis rejects with "Connection is closed."; the socket's error says why.
      throw cause ?? e;
    } finally {
      r.disconnect();
    }
  } catch (e) {
    return reasonOf(e);
  }
}

const exists = (p) => {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Finds an executable on PATH (or the sbin directories, which a non-login PATH may lack). */
export function which(name) {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin', '/usr/local/sbin'];
  for (const d of dirs) if (d && exists(`${d}/${name}`)) return `${d}/${name}`;
  return null;
}

/** Runs a command quietly; resolves to its exit code and the end of its output. */
function quiet(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (b) => {
      out = (out + b.toString()).slice(-500);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (e) => resolve({ code: 127, out: e.message }));
    child.on('exit', (code) => resolve({ code: code ?? 1, out: out.trim() }));
  });
}

/**
 * How to start a local server of `id` as CI does (.ci/run before this script existed), or a
 * reason why it cannot be started here.
 */
function starter(id, url) {
  if (id === 'mysql') {
    const daemon = which('mariadbd') ?? which('mysqld');
    const ssd = which('start-stop-daemon');
    if (!daemon) return { missing: 'MariaDB is not installed (no mariadbd; Debian: apt-get install mariadb-server)' };
    if (!ssd) return { missing: 'start-stop-daemon is missing, cannot start mariadbd' };
    return { cmd: ssd, args: ['--start', '--oknodo', '--background', '--exec', daemon], waitS: 60 };
  }
  if (id === 'postgres') {
    const ctl = which('pg_ctlcluster');
    let version = null;
    try {
      version = fs.readdirSync('/etc/postgresql').sort().at(-1) ?? null;
    } catch {
      /* no cluster */
    }
    if (!ctl || !version) return { missing: 'PostgreSQL is not installed (no pg_ctlcluster or cluster in /etc/postgresql; Debian: apt-get install postgresql)' };
    return { cmd: ctl, args: ['--skip-systemctl-redirect', version, 'main', 'start'], waitS: 30 };
  }
  const server = which('redis-server');
  if (!server) return { missing: 'Redis is not installed (no redis-server; Debian: apt-get install redis-server)' };
  const port = new URL(url).port || '6379';
  const args = ['--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', port, '--save', '', '--appendonly', 'no'];
  try {
    fs.mkdirSync('/var/lib/redis', { recursive: true });
    fs.mkdirSync('/var/log/redis', { recursive: true });
    args.push('--dir', '/var/lib/redis', '--logfile', `/var/log/redis/decisio-test-${port}.log`);
  } catch {
    /* not root: redis-server's defaults */
  }
  return { cmd: server, args, waitS: 30 };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Finds or starts one service. Resolves to `{ ...service, url, state: 'given' | 'running' |
 * 'started' | 'missing', reason? }`; `url` is set only when it answers.
 */
export async function ensureService(service, env = process.env) {
  const given = env[service.variable];
  const url = given || service.fallback;
  const first = await probe(service.id, url);
  if (first === null) return { ...service, url, state: given ? 'given' : 'running' };
  const at = `no ${service.name} at ${where(url)} (${first})`;
  // Only the local default is started here: an address given by the caller is theirs to run.
  if (given) return { ...service, url: null, state: 'missing', reason: at };
  const how = starter(service.id, url);
  if (how.missing) return { ...service, url: null, state: 'missing', reason: `${at}; ${how.missing}` };
  console.log(`[test] starting ${service.name}: ${how.cmd} ${how.args.join(' ')}`);
  const started = await quiet(how.cmd, how.args);
  let last = first;
  for (let i = 0; i < how.waitS; i += 1) {
    last = await probe(service.id, url);
    if (last === null) return { ...service, url, state: 'started' };
    if (started.code !== 0 && i >= 2) break;
    await sleep(1000);
  }
  const why = started.code !== 0 ? `starting it failed (exit ${started.code}${started.out ? `: ${started.out.split('\n').at(-1)}` : ''})` : `it did not answer within ${how.waitS} s of starting (${last})`;
  return { ...service, url: null, state: 'missing', reason: `${at}; ${why}` };
}

/**
 * Chromium for the browser tests: `CHROMIUM_PATH`, else Debian's; installed from Debian when
 * missing and this is root on a Debian machine. Resolves to `{ path }` or `{ reason }`.
 */
export async function ensureChromium(env = process.env) {
  if (env.CHROMIUM_PATH) return exists(env.CHROMIUM_PATH) ? { path: env.CHROMIUM_PATH } : { reason: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable` };
  const found = CHROMIUM_CANDIDATES.find(exists);
  if (found) return { path: found };
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get')) {
    return { reason: 'Chromium is not installed (Debian: apt-get install chromium libvulkan1, or set CHROMIUM_PATH)' };
  }
  console.log('[test] Chromium is missing: installing Debian\'s chromium');
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env: aptEnv });
  const code = await run('apt-get', ['install', '-y', '-qq', 'chromium', 'libvulkan1'], { env: aptEnv });
  const installed = CHROMIUM_CANDIDATES.find(exists);
  return installed ? { path: installed } : { reason: `Chromium is not installed and apt-get install chromium failed (exit ${code})` };
}
