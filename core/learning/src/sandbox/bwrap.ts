/**
 * The one launcher of user code: every Python process of {@link PythonSandbox} starts here.
 *
 * By default (`DECISIO_SANDBOX` unset or `bwrap`) the interpreter runs under bubblewrap
 * (`bwrap`, Debian package `bubblewrap`):
 * - namespaces: new user, pid, ipc, uts, network, mount and (where the kernel allows) cgroup
 *   namespaces (`--unshare-all --unshare-user`), no further user namespaces inside
 *   (`--disable-userns`, bwrap >= 0.8), `--new-session`, `--die-with-parent`;
 * - identity: uid/gid 65534 inside, and a REAL unprivileged uid/gid on the host: when the server
 *   runs as root, bwrap itself is spawned as a uid/gid taken from
 *   {@link SANDBOX_UID_BASE}..+{@link SANDBOX_UID_COUNT} (one per live sandbox), so nothing of
 *   root's (mode 600 files, other processes) is reachable and no capability is held; otherwise
 *   as the server's own uid;
 * - file system: read-only binds of `/usr` (with the `/bin`, `/sbin`, `/lib*` links or
 *   directories), `/etc/ld.so.cache` and `/etc/alternatives` (BLAS/LAPACK), and the
 *   interpreter's prefix when it lives outside `/usr` (a virtual environment); a fresh `/proc` of
 *   the sandbox's pid namespace, a minimal read-only `/dev` with a private `/dev/shm` (16 MiB),
 *   a private `/tmp` (tmpfs, 64 MiB), a read-only root; the run's work directory bound
 *   read-write at {@link SANDBOX_WORKDIR}, the only writable path on disk. Nothing else:
 *   no `DATA_DIR`, no `/run` (no Unix sockets), no `/root`, `/home`, rest of `/etc`, server files;
 * - limits (set by the runner before any user code, hard limits lowered): CPU time, address
 *   space, file size, open files, no core files, and a process/thread cap (`RLIMIT_NPROC`, which
 *   the kernel counts per user namespace, so it is this sandbox's own count);
 * - system calls (x86-64): a seccomp filter refuses with EPERM the kernel interfaces user code
 *   has no use for and exploits often start from (io_uring, bpf, userfaultfd, keyctl,
 *   perf_event_open, ptrace, mount and the new mount API, unshare, setns, modules, kexec...:
 *   {@link seccompFilter}); x32 calls are refused, other architectures' calls kill the process;
 * - lifetime: the pid namespace's init is bwrap's; killing the bwrap process (time-out, close)
 *   or the interpreter's exit ends every process of the sandbox, detached ones included.
 *
 * Where bwrap is missing or cannot start (probed once per interpreter, the answer cached; a
 * failure is probed again after a minute), user
 * code is refused with `sandbox.unavailable`. `DECISIO_SANDBOX=unsafe-none` is the operator's
 * explicit opt-out (trusted single-user installs only): the interpreter runs as the server's
 * user with only `unshare -n` where the system allows it and the runner's rlimits, and every
 * start writes a warning.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { LearningError } from '../errors';

/** How user code is isolated: `bwrap` (default) or the operator's explicit opt-out. */
export type SandboxMode = 'bwrap' | 'unsafe-none';

/** The environment variable that selects the {@link SandboxMode}. */
export const SANDBOX_ENV = 'DECISIO_SANDBOX';
/** Where the work directory appears inside the sandbox. */
export const SANDBOX_WORKDIR = '/sandbox';
/** First host uid/gid given to sandboxes when the server runs as root. */
export const SANDBOX_UID_BASE = 1_900_000_000;
/** How many host uids sandboxes draw from. */
export const SANDBOX_UID_COUNT = 100_000;
/** uid/gid the code sees inside (`nobody`). */
const INSIDE_ID = 65534;

/** The mode the environment asks for. Throws on an unknown value (a typo must not weaken isolation). */
export function sandboxMode(env: Record<string, string | undefined> = process.env): SandboxMode {
  const v = (env[SANDBOX_ENV] ?? '').trim();
  if (v === '' || v === 'bwrap') return 'bwrap';
  if (v === 'unsafe-none') return 'unsafe-none';
  throw new Error(`${SANDBOX_ENV} must be "bwrap" (default) or "unsafe-none", got "${v}"`);
}

/** The loud line written when the opt-out is on. */
export const UNSAFE_WARNING = `${SANDBOX_ENV}=unsafe-none: user code (rewards, node functions) runs WITHOUT the bubblewrap sandbox, as the server's own user; anyone who can write a reward owns this machine. Use only on a trusted single-user install.`;

/** What the probe found. */
export interface SandboxProbe {
  ok: boolean;
  /** Why not (bwrap's own words), when not ok. */
  detail: string;
  /** The bwrap executable found on `PATH` (absolute), when any. */
  bwrap: string;
  /** bwrap supports `--disable-userns` / `--size`. */
  disableUserns: boolean;
  tmpfsSize: boolean;
  /** A seccomp filter is loaded (`--seccomp 3`, x86-64 only: see {@link seccompFilter}). */
  seccomp: boolean;
}

/** Probes by interpreter; a failed one is tried again after {@link PROBE_RETRY_MS}. */
const probes = new Map<string, { at: number; probe: Promise<SandboxProbe> }>();
const PROBE_RETRY_MS = 60_000;
let optOutWarned = false;

/** Writes {@link UNSAFE_WARNING} (console.warn) and returns it. */
export function warnUnsafe(): string {
  console.warn(`[decisio] WARNING ${UNSAFE_WARNING}`);
  optOutWarned = true;
  return UNSAFE_WARNING;
}

/** Whether the opt-out warning was written in this process (tests). */
export function unsafeWarned(): boolean {
  return optOutWarned;
}

/** Forgets cached probes (tests). */
export function resetSandboxProbe(): void {
  probes.clear();
}

const live = new Set<number>();

/** A host uid/gid for a new sandbox (root only), kept until {@link releaseSandboxId}. */
export function allocateSandboxId(): number {
  for (;;) {
    const id = SANDBOX_UID_BASE + Math.floor(Math.random() * SANDBOX_UID_COUNT);
    if (!live.has(id)) {
      live.add(id);
      return id;
    }
  }
}

/** Gives a uid back. */
export function releaseSandboxId(id: number | undefined): void {
  if (id !== undefined) live.delete(id);
}

/** Whether this process runs as root (then bwrap is spawned as a sandbox uid). */
export function runsAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * Read-only system paths: `/usr` and the merged-usr links (or directories) beside it. `host`:
 * as this machine has them (links as the same links); `portable`: for a command run on another
 * machine whose layout is not known here (a worker terminal), each one `--ro-bind-try` (a link
 * is followed: `/bin` shows `/usr/bin`'s files, read-only, where it is a link).
 */
function systemBinds(layout: 'host' | 'portable' = 'host'): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const p of SYSTEM_DIRS) {
    if (layout === 'portable') {
      args.push('--ro-bind-try', p, p);
      continue;
    }
    let st;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(p), p);
    else if (st.isDirectory()) args.push('--ro-bind', p, p);
  }
  args.push('--ro-bind-try', '/etc/ld.so.cache', '/etc/ld.so.cache', '--ro-bind-try', '/etc/alternatives', '/etc/alternatives');
  return args;
}

/** The interpreter's install prefixes when they live outside `/usr` (a venv, conda, /opt): bound read-only. */
function interpreterBinds(python: string): string[] {
  if (!python.startsWith('/')) return [];
  const out = new Set<string>();
  for (const p of [python, safeRealpath(python)]) {
    const prefix = dirname(dirname(p));
    if (prefix === '/' || prefix === '/usr' || prefix.startsWith('/usr/')) continue;
    out.add(prefix);
  }
  return [...out];
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * Kernel interfaces user code has no use for and kernel exploits often start from, refused
 * with EPERM (x86-64 numbers): ptrace, process_vm_readv/writev, add_key, request_key, keyctl,
 * bpf, perf_event_open, userfaultfd, io_uring_setup/enter/register, kexec_load,
 * kexec_file_load, init/finit/delete_module, mount, umount2, pivot_root, unshare, setns,
 * the new mount API (open_tree, move_mount, fsopen, fsconfig, fsmount, fspick,
 * mount_setattr), swapon, swapoff, reboot, acct, syslog, name_to_handle_at,
 * open_by_handle_at, quotactl, uselib, ioperm, iopl. x32 calls are refused too; another
 * architecture's calls (int 0x80) kill the process.
 */
const DENIED_X86_64 = [
  101, 310, 311, 248, 249, 250, 321, 298, 323, 425, 426, 427, 246, 320, 175, 313, 176, 165, 166, 155, 272, 308, 428, 429, 430, 431, 432, 433, 442, 167, 168, 169,
  163, 103, 303, 304, 179, 134, 173, 172,
];

let filterBytes: Buffer | null | undefined;
/**
 * The seccomp program (classic BPF, `struct sock_filter` records) bwrap loads for the
 * sandbox: {@link DENIED_X86_64} answer EPERM, everything else is allowed. Null where this is
 * not x86-64 Linux (the namespaces, uid and limits still hold there).
 */
export function seccompFilter(): Buffer | null {
  if (filterBytes !== undefined) return filterBytes;
  if (process.platform !== 'linux' || process.arch !== 'x64') return (filterBytes = null);
  const AUDIT_ARCH_X86_64 = 0xc000003e;
  const RET_ALLOW = 0x7fff0000;
  const RET_KILL_PROCESS = 0x80000000;
  const RET_EPERM = 0x00050000 | 1;
  const LD_ABS_W = 0x20;
  const JEQ_K = 0x15;
  const JGE_K = 0x35;
  const RET_K = 0x06;
  const ins: Array<[number, number, number, number]> = [];
  const n = DENIED_X86_64.length;
  ins.push([LD_ABS_W, 0, 0, 4]); // seccomp_data.arch
  ins.push([JEQ_K, 1, 0, AUDIT_ARCH_X86_64]);
  ins.push([RET_K, 0, 0, RET_KILL_PROCESS]);
  ins.push([LD_ABS_W, 0, 0, 0]); // seccomp_data.nr
  // x32 ABI (nr | 0x40000000): jump to the EPERM return at the end
  ins.push([JGE_K, n + 1, 0, 0x40000000]);
  DENIED_X86_64.forEach((nr, i) => ins.push([JEQ_K, n - i, 0, nr]));
  ins.push([RET_K, 0, 0, RET_ALLOW]);
  ins.push([RET_K, 0, 0, RET_EPERM]);
  const buf = Buffer.alloc(ins.length * 8);
  ins.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return (filterBytes = buf);
}

/** Writes the filter into the child's fd 3 and closes it (bwrap reads it to the end). */
export function writeFilter(stream: unknown, filter: Buffer): void {
  const w = stream as { end?: (b: Buffer) => void; on?: (e: string, f: () => void) => void } | null;
  w?.on?.('error', () => undefined);
  w?.end?.(filter);
}

/** How to start one sandboxed process. */
export interface Launch {
  command: string;
  args: string[];
  /** Host uid/gid to spawn with (root only). */
  uid?: number;
  gid?: number;
  /** The work directory as the process sees it. */
  workdir: string;
  /** The seccomp filter to write to the child's fd 3 (spawn it with a fourth stdio `'pipe'`, then {@link writeFilter}). */
  seccomp?: Buffer;
}

/** The environment variable naming the directory that holds the jobs' work directories. */
export const JOB_ROOT_ENV = 'DECISIO_JOB_ROOT';
/** A job id as the queue writes it (32 lower-case hex): the only names under the job root. */
export const JOB_ID_PATTERN = /^[0-9a-f]{32}$/;

/** `DECISIO_JOB_ROOT` (absolute), else `decisio-jobs` under the OS temp dir. */
export function jobRoot(env: Record<string, string | undefined> = process.env): string {
  const v = (env[JOB_ROOT_ENV] ?? '').trim();
  if (v && !isAbsolute(v)) throw new Error(`${JOB_ROOT_ENV} must be an absolute path, got "${v}"`);
  return v || join(tmpdir(), 'decisio-jobs');
}

/**
 * A fresh work directory for the user code of job `jobId`: `<job root>/<jobId>` (mode 700; a
 * stale one from an earlier attempt is removed first). The root is created mode 711 (others may
 * pass through to a directory they own, not list the jobs) and must be a real directory of this
 * user that nobody else can write: a planted link or directory stops the start. A worker
 * terminal binds this very directory (`server/src/modules/ssh/confine.ts`).
 */
export function makeJobWorkdir(jobId: string, rootDir?: string): string {
  if (!JOB_ID_PATTERN.test(jobId)) throw new LearningError('sandbox.start', { detail: `bad job id ${jobId}` });
  let root: string;
  try {
    root = rootDir ?? jobRoot();
  } catch (e) {
    throw new LearningError('sandbox.start', { detail: (e as Error).message });
  }
  try {
    mkdirSync(root, { mode: 0o711 });
    chmodSync(root, 0o711); // whatever the umask: a job sandbox's own uid must pass through
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new LearningError('sandbox.start', { detail: `cannot create the job root: ${(e as Error).message}` });
  }
  const st = lstatSync(root);
  const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) {
    throw new LearningError('sandbox.start', { detail: `the job root ${root} must be a directory of this user that only it can write` });
  }
  const dir = join(root, jobId);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** The limits user code runs under (the runner sets them, soft = hard); a worker terminal gets the same. */
export const SANDBOX_LIMITS = {
  /** Address space, MiB. */
  memoryMb: 4096,
  /** CPU time of the whole process, s. */
  cpuSeconds: 3600,
  /** Largest file written, bytes. */
  fileBytes: 256 * 1024 * 1024,
  /** Open files. */
  openFiles: 256,
  /** Processes and threads (`RLIMIT_NPROC`, counted in the sandbox's own user namespace). */
  processes: 64,
} as const;

/** What {@link confineArgs} needs beyond bwrap's features. */
export interface ConfineOptions {
  /** Host directory bound read-write at {@link SANDBOX_WORKDIR}: the only writable path on disk, and the cwd. */
  workdir: string;
  /** Further host paths bound read-only at the same place (the interpreter's prefix). */
  readOnly?: string[];
  /** See {@link systemBinds}; default `host`. */
  layout?: 'host' | 'portable';
  /**
   * `--new-session` (default true): the process gets no controlling terminal, so it cannot push
   * input into a terminal that an unconfined process reads (TIOCSTI). A worker terminal turns it
   * off: the pty is its own, every process outside the sandbox on it has exec'd into bwrap, so
   * only the confined shell reads it, and without it the shell would have no job control (Ctrl+C
   * would end bwrap itself).
   */
  newSession?: boolean;
}

/**
 * The sandbox's policy as bwrap's options (everything before `--`): namespaces, identity, file
 * system, seccomp on fd 3 when the probe says so. The one place the policy is written: user
 * code ({@link bwrapArgs}) and the server's worker terminals (`server/src/modules/ssh/confine.ts`)
 * both start from it.
 */
export function confineArgs(probe: Pick<SandboxProbe, 'disableUserns' | 'tmpfsSize' | 'seccomp'>, options: ConfineOptions): string[] {
  return [
    // The filter travels on fd 3 (see seccompFilter); bwrap loads it right before the exec.
    ...(probe.seccomp ? ['--seccomp', '3'] : []),
    '--unshare-all',
    '--unshare-user',
    ...(probe.disableUserns ? ['--disable-userns'] : []),
    '--uid', String(INSIDE_ID),
    '--gid', String(INSIDE_ID),
    '--hostname', 'sandbox',
    '--die-with-parent',
    ...(options.newSession === false ? [] : ['--new-session']),
    ...systemBinds(options.layout),
    ...(options.readOnly ?? []).flatMap((p) => ['--ro-bind-try', p, p]),
    '--proc', '/proc',
    '--dev', '/dev',
    ...(probe.tmpfsSize ? ['--size', String(16 * 1024 * 1024)] : []),
    '--tmpfs', '/dev/shm',
    '--remount-ro', '/dev',
    ...(probe.tmpfsSize ? ['--size', String(64 * 1024 * 1024)] : []),
    '--tmpfs', '/tmp',
    '--bind', options.workdir, SANDBOX_WORKDIR,
    // The sandbox's root is a tmpfs it would own: read-only, so memory cannot be filled through it.
    '--remount-ro', '/',
    '--chdir', SANDBOX_WORKDIR,
  ];
}

/** bwrap's arguments for `python args...` with `workdir` as the only writable path. */
export function bwrapArgs(probe: Pick<SandboxProbe, 'disableUserns' | 'tmpfsSize' | 'seccomp'>, python: string, workdir: string, args: string[]): string[] {
  return [...confineArgs(probe, { workdir, readOnly: interpreterBinds(python) }), '--', python, ...args];
}

function runOnce(cmd: string, args: string[], opts: { uid?: number; gid?: number }, filter: Buffer | null): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    let out = '';
    let child;
    try {
      child = spawn(cmd, args, { ...opts, env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe', ...(filter ? (['pipe'] as const) : [])] });
    } catch (e) {
      resolve({ code: null, out: (e as Error).message });
      return;
    }
    if (filter) writeFilter(child.stdio[3], filter);
    const t = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', (e) => {
      clearTimeout(t);
      resolve({ code: null, out: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'bwrap was not found on PATH' : e.message });
    });
    child.on('close', (code) => {
      clearTimeout(t);
      resolve({ code, out });
    });
  });
}

/**
 * Whether bwrap can start `python` with the full profile (once per interpreter, cached; a
 * failure is tried again after a minute): bwrap present, user namespaces allowed, the
 * interpreter runnable inside.
 */
export async function probeSandbox(python: string): Promise<SandboxProbe> {
  const cached = probes.get(python);
  if (cached && (Date.now() - cached.at < PROBE_RETRY_MS || (await cached.probe).ok)) return cached.probe;
  const p = (async (): Promise<SandboxProbe> => {
    const bwrap = findBwrap();
    if (!bwrap) return { ok: false, detail: 'bwrap was not found on PATH', bwrap: '', disableUserns: false, tmpfsSize: false, seccomp: false };
    const help = spawnSync(bwrap, ['--help'], { encoding: 'utf8', timeout: 10_000 });
    if (help.error || help.status !== 0) {
      return { ok: false, detail: (help.stderr || help.error?.message || 'bwrap --help failed').trim(), bwrap, disableUserns: false, tmpfsSize: false, seccomp: false };
    }
    const features = {
      bwrap,
      disableUserns: help.stdout.includes('--disable-userns'),
      tmpfsSize: help.stdout.includes('--size'),
      seccomp: help.stdout.includes('--seccomp') && seccompFilter() !== null,
    };
    const dir = mkdtempSync(join(tmpdir(), 'decisio-probe-'));
    const id = runsAsRoot() ? allocateSandboxId() : undefined;
    try {
      if (id !== undefined) chownSync(dir, id, id);
      const r = await runOnce(bwrap, bwrapArgs(features, python, dir, ['-I', '-S', '-c', 'pass']), id !== undefined ? { uid: id, gid: id } : {}, features.seccomp ? seccompFilter() : null);
      if (r.code === 0) return { ok: true, detail: '', ...features };
      return { ok: false, detail: r.out.trim().split('\n').slice(-2).join(' | ') || `bwrap exit code ${r.code ?? '?'}`, ...features };
    } finally {
      releaseSandboxId(id);
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  probes.set(python, { at: Date.now(), probe: p });
  return p;
}

/** `bwrap` on `PATH` (absolute directories only), as an absolute path. */
function findBwrap(): string | undefined {
  const dirs = (process.env['PATH'] ?? '').split(':').filter((d) => d.startsWith('/'));
  for (const d of dirs) {
    try {
      accessSync(join(d, 'bwrap'), constants.X_OK);
      return join(d, 'bwrap');
    } catch {
      /* not here */
    }
  }
  return undefined;
}

let unshareMode: string[] | null | undefined;
/** The opt-out's network isolation: `unshare -n` (or `-rn` when not root) where allowed. */
function networkIsolation(): string[] | null {
  if (unshareMode !== undefined) return unshareMode;
  unshareMode = null;
  for (const args of [['-n'], ['-rn']]) {
    try {
      if (spawnSync('unshare', [...args, 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0) {
        unshareMode = args;
        break;
      }
    } catch {
      /* no unshare */
    }
  }
  return unshareMode;
}

/**
 * How to start `python args...` over `workdir` (a host directory) in the current mode. Throws
 * `sandbox.unavailable` where bwrap cannot start. `uid` is the sandbox's host uid when the
 * caller runs as root (it chowns `workdir` to it); the caller releases it on close.
 */
export async function launch(python: string, workdir: string, args: (inside: string) => string[], uid: number | undefined): Promise<Launch & { mode: SandboxMode; isolation: 'bwrap' | 'namespace' | 'socket-block' }> {
  let mode: SandboxMode;
  try {
    mode = sandboxMode();
  } catch (e) {
    throw new LearningError('sandbox.start', { detail: (e as Error).message });
  }
  if (mode === 'unsafe-none') {
    warnUnsafe();
    const unshare = networkIsolation();
    const a = args(workdir);
    return unshare
      ? { mode, isolation: 'namespace', command: 'unshare', args: [...unshare, '--', python, ...a], workdir }
      : { mode, isolation: 'socket-block', command: python, args: a, workdir };
  }
  if (python.startsWith('/') && !existsSync(python)) throw new LearningError('sandbox.start', { detail: `no interpreter at ${python}` });
  const probe = await probeSandbox(python);
  if (!probe.ok) throw new LearningError('sandbox.unavailable', { detail: probe.detail });
  if (!existsSync(workdir)) throw new LearningError('sandbox.start', { detail: 'the work directory is gone' });
  return {
    mode,
    isolation: 'bwrap',
    command: probe.bwrap,
    args: bwrapArgs(probe, python, workdir, args(SANDBOX_WORKDIR)),
    ...(probe.seccomp ? { seccomp: seccompFilter()! } : {}),
    ...(uid !== undefined ? { uid, gid: uid } : {}),
    workdir: SANDBOX_WORKDIR,
  };
}
