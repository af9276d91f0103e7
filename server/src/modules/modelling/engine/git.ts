/**
 * Training code from a git repository (spec workflow §3 "git repository": source URL, commit ID
 * or branch, username, password): cloned into the job's workspace, the commit checked out, and
 * its text files handed to the Python sandbox next to the reward and the graph's code.
 *
 * The URL is a host the user names, so it passes the host guard (`server/src/net/host-guard.ts`,
 * `CONNECTION_ALLOW`) like a data connection: only `http`, `https` and `git` URLs; the host is
 * resolved once and git connects to the checked address (`http.curloptResolve` for http(s), the
 * address in the URL for `git://`), never follows redirects, and any failure to reach the host
 * answers one generic message (the cause goes to the server log only). Git runs as the server's
 * user but outside the repository it only writes its own temporary clone; symbolic links are
 * checked out as plain files and only regular files are read (a link could point at the server's
 * files), and the commit or branch may not look like an option.
 */
import { spawn } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { HostGuard, HostRefusedError } from '../../../net/host-guard';

/** Git settings of a training. */
export interface GitSource {
  enabled: boolean;
  url?: string | undefined;
  commit?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
}

const MAX_FILES = 500;
const MAX_FILE_BYTES = 1024 * 1024;
const TEXT_FILE = /\.(py|ya?ml|json|txt|cfg|ini|toml)$/i;

/** The message a user sees when the repository's host cannot be reached, whatever the cause. */
export const GIT_UNREACHABLE = 'git: cannot clone the repository: its host cannot be reached, or the URL or the credentials are wrong';

/** A commit id or branch name: no option look-alikes, no revision syntax beyond a path of names. */
const REF = /^(?!-)[A-Za-z0-9._/-]{1,200}$/;

function run(args: string[], cwd: string, timeoutMs: number, protocol = 'https'): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      // Only the URL's own network protocol: no file:// or ext:: on the server's disk or commands;
      // no proxy or credential helper from the server's environment.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_TERMINAL_PROMPT: '0', GIT_ALLOW_PROTOCOL: protocol, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out.trim());
      else reject(new Error((err.trim().split('\n').pop() ?? `git exited with ${code}`).slice(0, 500)));
    });
  });
}

/** The clone URL with the credentials (http(s) only); never logged. */
function authUrl(git: GitSource): string {
  const url = git.url ?? '';
  if (!git.username || !/^https?:\/\//i.test(url)) return url;
  const u = new URL(url);
  u.username = git.username;
  if (git.password) u.password = git.password;
  return u.toString();
}

/** The URL without credentials, for logs. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

/** Where git connects: the clone URL (with the checked address for `git://`) and its extra settings. */
export async function pinnedClone(url: string, guard: HostGuard): Promise<{ url: string; protocol: string; config: string[] }> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`git: "${safeUrl(url)}" is not a URL (http, https or git)`);
  }
  const protocol = u.protocol.replace(/:$/, '').toLowerCase();
  if (!['http', 'https', 'git'].includes(protocol)) throw new Error(`git: ${protocol} URLs are not supported (http, https or git)`);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = u.port ? Number(u.port) : protocol === 'https' ? 443 : protocol === 'http' ? 80 : 9418;
  const checked = await guard.check(host, port);
  const address = checked.family === 6 ? `[${checked.address}]` : checked.address;
  const config = ['-c', 'http.followRedirects=false', '-c', 'protocol.file.allow=never', '-c', 'core.symlinks=false'];
  if (protocol === 'git') {
    u.hostname = address;
    return { url: u.toString(), protocol, config };
  }
  return { url: u.toString(), protocol, config: [...config, '-c', `http.curloptResolve=${host}:${port}:${address}`] };
}

/**
 * Clones the repository into a fresh directory and checks out the commit or branch. Resolves with
 * the commit id and the repository's text files (by relative path); the directory is removed.
 * `guard` decides which hosts may be reached (see the module comment).
 */
export async function checkoutGit(
  git: GitSource,
  log: (line: string) => Promise<void>,
  options: { guard?: HostGuard; timeoutMs?: number; onRefused?: (reason: string) => void } = {},
): Promise<{ commit: string; files: Record<string, string> }> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const ref = git.commit?.trim() || 'HEAD';
  if (!REF.test(ref)) throw new Error(`git: "${ref.slice(0, 80)}" is not a commit id or branch name`);
  let target: Awaited<ReturnType<typeof pinnedClone>>;
  try {
    target = await pinnedClone(authUrl(git), options.guard ?? new HostGuard());
  } catch (err) {
    if (!(err instanceof HostRefusedError)) throw err;
    options.onRefused?.(err.message);
    throw new Error(GIT_UNREACHABLE);
  }
  const dir = mkdtempSync(join(tmpdir(), 'decisio-git-'));
  try {
    await log(`git: cloning ${safeUrl(git.url ?? '')}`);
    try {
      await run([...target.config, 'clone', '--quiet', '--no-checkout', '--', target.url, 'repo'], dir, timeoutMs, target.protocol);
    } catch (err) {
      // The cause (which may echo the URL or the host's answer) goes to the server log only.
      options.onRefused?.(safeUrl((err as Error).message));
      throw new Error(GIT_UNREACHABLE);
    }
    const repo = join(dir, 'repo');
    const local = ['-c', 'core.symlinks=false', '-c', 'advice.detachedHead=false'];
    try {
      await run([...local, 'checkout', '--quiet', ref, '--'], repo, timeoutMs, target.protocol);
    } catch {
      try {
        await run([...local, 'checkout', '--quiet', '-B', ref, `origin/${ref}`, '--'], repo, timeoutMs, target.protocol);
      } catch {
        throw new Error(`git: no commit or branch "${ref}"`);
      }
    }
    const commit = await run(['rev-parse', 'HEAD'], repo, timeoutMs, target.protocol);
    const files: Record<string, string> = {};
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        if (name === '.git' || Object.keys(files).length >= MAX_FILES) continue;
        const p = join(d, name);
        // lstat: a symbolic link (should one survive core.symlinks=false) is never followed.
        const st = lstatSync(p);
        if (st.isDirectory()) walk(p);
        else if (st.isFile() && st.size <= MAX_FILE_BYTES && TEXT_FILE.test(name)) files[relative(repo, p).split('\\').join('/')] = readFileSync(p, 'utf8');
      }
    };
    walk(repo);
    await log(`git: checked out ${commit} (${Object.keys(files).length} files)`);
    return { commit, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
