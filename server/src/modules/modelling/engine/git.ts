/**
 * Training code from a git repository (spec workflow §3 "git repository": source URL, commit ID
 * or branch, username, password): cloned into the job's workspace, the commit checked out, and
 * its text files handed to the Python sandbox next to the reward and the graph's code.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

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

function run(args: string[], cwd: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      // Only network protocols: no file:// or ext:: on the server's disk or commands.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_TERMINAL_PROMPT: '0', GIT_ALLOW_PROTOCOL: 'http:https:ssh:git', GIT_CONFIG_NOSYSTEM: '1' },
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

/**
 * Clones the repository into a fresh directory and checks out the commit or branch. Resolves with
 * the commit id and the repository's text files (by relative path); the directory is removed.
 */
export async function checkoutGit(git: GitSource, log: (line: string) => Promise<void>, timeoutMs = 120_000): Promise<{ commit: string; files: Record<string, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'decisio-git-'));
  try {
    await log(`git: cloning ${safeUrl(git.url ?? '')}`);
    try {
      await run(['clone', '--quiet', '--no-checkout', '--', authUrl(git), 'repo'], dir, timeoutMs);
    } catch (err) {
      // The message may echo the URL: strip credentials.
      throw new Error(`git clone failed: ${safeUrl((err as Error).message)}`);
    }
    const repo = join(dir, 'repo');
    const ref = git.commit ?? 'HEAD';
    try {
      await run(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', ref], repo, timeoutMs);
    } catch {
      try {
        await run(['checkout', '--quiet', '-B', ref, `origin/${ref}`], repo, timeoutMs);
      } catch {
        throw new Error(`git: no commit or branch "${ref}"`);
      }
    }
    const commit = await run(['rev-parse', 'HEAD'], repo, timeoutMs);
    const files: Record<string, string> = {};
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        if (name === '.git' || Object.keys(files).length >= MAX_FILES) continue;
        const p = join(d, name);
        const st = statSync(p);
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
