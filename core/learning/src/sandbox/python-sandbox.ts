/**
 * A long-lived, sandboxed `python3` child process that runs user code (reward files, node
 * functions) batch by batch.
 *
 * One process per job: user files are written into a fresh temp directory (the working
 * directory), the process starts once and each call sends a whole batch. Arrays are passed as
 * raw float32 buffers in length-prefixed binary frames (see `runner-py.ts`); only small
 * headers are JSON. A file that imports torch gets torch tensors (REVIVE reward files run
 * unchanged), otherwise numpy arrays.
 *
 * Isolation: every start goes through the bubblewrap launcher of `bwrap.ts` (its module
 * comment lists the namespaces, binds and limits): an unprivileged host uid, new user, pid,
 * ipc, uts, network and mount namespaces, only `/usr` and the interpreter's files read-only,
 * the work directory as the only writable path, a private `/tmp`; rlimits (address space, CPU
 * time, file size, open files, processes) set by the runner before any user code; a scrubbed
 * environment (`python3 -I -B`, minimal PATH, HOME in the work directory); a time-out per
 * call, after which the whole sandbox (every process in it) is killed and restarted on the
 * next call. Without bwrap user code is refused (`sandbox.unavailable`) unless the operator set
 * `DECISIO_SANDBOX=unsafe-none`.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, isAbsolute } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { LearningError } from '../errors';
import { RUNNER_PY } from './runner-py';
import { SANDBOX_LIMITS, allocateSandboxId, launch, makeJobWorkdir, releaseSandboxId, runsAsRoot, writeFilter } from './bwrap';

/** A batch array: row-major float32 with shape `[rows, cols]`. */
export interface BatchArray {
  data: Float32Array;
  shape: [number, number];
}

/** Options of {@link PythonSandbox.start}. */
export interface SandboxOptions {
  /** User files by relative path (e.g. `reward.py`, `expert_function.py`). */
  files: Record<string, string>;
  /** Interpreter; default `$DECISIO_PYTHON`, else `/usr/bin/python3` when present, else `python3`. */
  python?: string;
  /** Time limit of one call (and of loading a file), ms. Default 30 000. */
  timeoutMs?: number;
  /** Address-space limit, MiB. Default 4096. */
  memoryMb?: number;
  /** CPU-time limit of the whole process, s. Default 3600. */
  cpuSeconds?: number;
  /** Threads for torch / BLAS. Default 1. */
  threads?: number;
  /** Processes and threads the sandbox may run at once (`RLIMIT_NPROC`, bwrap only). Default 64. */
  processes?: number;
  /** Receives what user code prints (stdout and stderr), line by line. */
  onLog?: (line: string) => void;
  /**
   * The job this sandbox runs for: its work directory is then `<job root>/<jobId>`
   * ({@link makeJobWorkdir}), where a worker terminal finds it; else a fresh `decisio-py-*`.
   */
  jobId?: string;
}

/** What loading a file found. */
export interface LoadedModule {
  functions: string[];
  torch: boolean;
}

interface Pending {
  resolve: (v: { header: Record<string, unknown>; payload: Buffer }) => void;
  reject: (e: Error) => void;
}

/** Default interpreter (see {@link SandboxOptions.python}). */
export function defaultPython(): string {
  const env = typeof process !== 'undefined' ? process.env['DECISIO_PYTHON'] : undefined;
  if (env) return env;
  return existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
}

/** See the module comment. Create with {@link PythonSandbox.start}; always {@link PythonSandbox.close}. */
export class PythonSandbox {
  private child: ChildProcessByStdio<Writable, Readable, Readable> | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private stderrTail = '';
  private closed = false;
  private readonly loaded = new Map<string, LoadedModule>();
  /** Python and numpy versions of the running process. */
  versions: { python: string; numpy: string } = { python: '', numpy: '' };

  private constructor(
    readonly workdir: string,
    private readonly options: SandboxOptions,
    /** Host uid/gid of the sandbox (when the server runs as root). */
    private readonly uid: number | undefined,
  ) {}

  /** How the process is isolated: `bwrap`, or under the opt-out `namespace` (`unshare -n`) / `socket-block`. */
  isolation: 'bwrap' | 'namespace' | 'socket-block' = 'bwrap';
  /** pid (on the host) of the process started last: bwrap's, or the interpreter's under the opt-out. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Writes the files into a fresh temp directory and starts the process. Throws `sandbox.start`. */
  static async start(options: SandboxOptions): Promise<PythonSandbox> {
    const workdir = options.jobId ? makeJobWorkdir(options.jobId) : mkdtempSync(join(tmpdir(), 'decisio-py-'));
    for (const [rel, content] of Object.entries(options.files)) {
      const clean = normalize(rel);
      if (isAbsolute(clean) || clean.startsWith('..')) throw new LearningError('sandbox.start', { detail: `bad file path ${rel}` });
      mkdirSync(dirname(join(workdir, clean)), { recursive: true });
      writeFileSync(join(workdir, clean), content);
    }
    writeFileSync(join(workdir, '__decisio_runner__.py'), RUNNER_PY);
    // As root, the sandbox runs as a host uid of its own: it owns (only) its work directory.
    const uid = runsAsRoot() ? allocateSandboxId() : undefined;
    const sb = new PythonSandbox(workdir, options, uid);
    try {
      if (uid !== undefined) chownSync(workdir, uid, uid);
      await sb.spawnProcess();
    } catch (e) {
      sb.closed = true;
      releaseSandboxId(uid);
      rmSync(workdir, { recursive: true, force: true });
      throw e;
    }
    return sb;
  }

  private async spawnProcess(): Promise<void> {
    const o = this.options;
    const python = o.python ?? defaultPython();
    const threads = String(o.threads ?? 1);
    const started = await launch(
      python,
      this.workdir,
      (inside) => {
        const config = {
          workdir: inside,
          memoryBytes: (o.memoryMb ?? SANDBOX_LIMITS.memoryMb) * 1024 * 1024,
          cpuSeconds: o.cpuSeconds ?? SANDBOX_LIMITS.cpuSeconds,
          fileBytes: SANDBOX_LIMITS.fileBytes,
          openFiles: SANDBOX_LIMITS.openFiles,
          threads: o.threads ?? 1,
          // RLIMIT_NPROC counts per real uid outside a user namespace: only bwrap's makes it this sandbox's own.
          processes: inside === this.workdir ? null : (o.processes ?? SANDBOX_LIMITS.processes),
          // Every process but the runner ends after each call (bwrap's pid namespace only).
          reap: inside !== this.workdir,
        };
        return ['-I', '-B', join(inside, '__decisio_runner__.py'), JSON.stringify(config)];
      },
      this.uid,
    );
    this.isolation = started.isolation;
    const env: Record<string, string> = {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: started.workdir,
      TMPDIR: started.mode === 'bwrap' ? '/tmp' : started.workdir,
      LANG: 'C.UTF-8',
      OMP_NUM_THREADS: threads,
      OPENBLAS_NUM_THREADS: threads,
      MKL_NUM_THREADS: threads,
    };
    this.buffer = Buffer.alloc(0);
    const child = spawn(started.command, started.args, {
      cwd: this.workdir,
      env,
      // fd 3: the seccomp filter bwrap reads before it starts the interpreter
      stdio: started.seccomp ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
      ...(started.uid !== undefined ? { uid: started.uid, gid: started.gid } : {}),
    }) as ChildProcessByStdio<Writable, Readable, Readable>;
    if (started.seccomp) writeFilter(child.stdio[3], started.seccomp);
    this.child = child;
    child.stdout.on('data', (chunk: Buffer) => {
      if (this.child === child) this.onData(chunk);
    });
    let partial = '';
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.stderrTail = (this.stderrTail + text).slice(-4000);
      partial += text;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) o.onLog?.(l);
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.fail(new LearningError('sandbox.start', { detail: e.message }));
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return; // killed on purpose (time-out) and already replaced
      this.child = undefined;
      this.fail(new LearningError('sandbox.crashed', { detail: this.crashDetail(code, signal) }));
    });
    const ready = await this.request(undefined, o.timeoutMs ?? 60_000, 'start').catch((e: LearningError) => {
      throw e.code === 'sandbox.crashed' ? new LearningError('sandbox.start', { detail: this.crashDetail(null, null) }) : e;
    });
    this.versions = { python: String(ready.header['python'] ?? ''), numpy: String(ready.header['numpy'] ?? '') };
  }

  private crashDetail(code: number | null, signal: string | null): string {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    if (signal === 'SIGXCPU') return 'CPU time limit reached';
    return `${signal ? `signal ${signal}` : `exit code ${code ?? '?'}`}${tail ? `: ${tail}` : ''}`;
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 4) {
      const total = this.buffer.readUInt32LE(0);
      if (this.buffer.length < 4 + total) return;
      const frame = this.buffer.subarray(4, 4 + total);
      this.buffer = this.buffer.subarray(4 + total);
      const hl = frame.readUInt32LE(0);
      const header = JSON.parse(frame.subarray(4, 4 + hl).toString('utf8')) as Record<string, unknown>;
      const payload = frame.subarray(4 + hl);
      const p = this.pending;
      this.pending = undefined;
      p?.resolve({ header, payload });
    }
  }

  private fail(e: Error): void {
    const p = this.pending;
    this.pending = undefined;
    p?.reject(e);
  }

  /** Sends one frame (or none, to await the ready frame) and waits for the reply. */
  private request(
    frame: Buffer | undefined,
    timeoutMs: number,
    fnName: string,
  ): Promise<{ header: Record<string, unknown>; payload: Buffer }> {
    return new Promise((resolve, reject) => {
      const child = this.child;
      if (!child) return reject(new LearningError('sandbox.crashed', { detail: this.crashDetail(null, null) }));
      const timer = setTimeout(() => {
        this.pending = undefined;
        this.child = undefined;
        child.kill('SIGKILL');
        reject(new LearningError('sandbox.timeout', { function: fnName, ms: timeoutMs }));
      }, timeoutMs);
      this.pending = {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      if (frame) child.stdin.write(frame);
    });
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async ensureRunning(): Promise<void> {
    if (this.closed) throw new LearningError('sandbox.closed');
    if (this.child) return;
    await this.spawnProcess();
    for (const file of this.loaded.keys()) await this.send({ op: 'load', file }, [], file);
  }

  private async send(header: Record<string, unknown>, arrays: Array<[string, BatchArray]>, fnName: string) {
    const h = Buffer.from(JSON.stringify({ ...header, arrays: arrays.map(([name, a]) => ({ name, shape: a.shape })) }), 'utf8');
    const size = arrays.reduce((s, [, a]) => s + a.data.byteLength, 0);
    const frame = Buffer.allocUnsafe(8 + h.length + size);
    frame.writeUInt32LE(4 + h.length + size, 0);
    frame.writeUInt32LE(h.length, 4);
    h.copy(frame, 8);
    let off = 8 + h.length;
    for (const [, a] of arrays) {
      Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).copy(frame, off);
      off += a.data.byteLength;
    }
    const reply = await this.request(frame, this.options.timeoutMs ?? 30_000, fnName);
    if (reply.header['ok'] !== true) throw this.userError(reply.header['error'] as Record<string, unknown>, header);
    return reply;
  }

  private userError(err: Record<string, unknown>, header: Record<string, unknown>): LearningError {
    const file = String(err['file'] || header['file'] || '');
    const line = Number(err['line'] ?? 0);
    const detail = String(err['message'] ?? '');
    const fn = String(header['function'] ?? '');
    const details = { ...err };
    switch (err['kind']) {
      case 'syntax':
        return new LearningError('sandbox.syntax', { file, line, detail }, details);
      case 'import':
        return new LearningError('sandbox.import', { file, line, detail: `${err['type']}: ${detail}` }, details);
      case 'missingFunction':
        return new LearningError('sandbox.missingFunction', { file, function: detail }, details);
      case 'shape': {
        const rows = header['rows'];
        const cols = header['cols'];
        return new LearningError('sandbox.shape', { function: fn, got: (err['got'] as number[]).join(', '), expected: `${rows}, ${cols ?? 'n'}` }, details);
      }
      case 'nan':
        return new LearningError('sandbox.nan', { function: fn }, details);
      case 'processes':
        return new LearningError('sandbox.processLimit', { file, line, limit: this.options.processes ?? 64 }, details);
      case 'output':
        return new LearningError('sandbox.output', { function: fn, detail }, details);
      default:
        return new LearningError('sandbox.exception', { type: String(err['type'] ?? 'Error'), file, line, detail }, details);
    }
  }

  /** Loads (imports) a user file and lists its functions. Throws `sandbox.syntax` / `sandbox.import` / `sandbox.timeout`. */
  load(file: string): Promise<LoadedModule> {
    return this.serial(async () => {
      await this.ensureRunning();
      const r = await this.send({ op: 'load', file }, [], file);
      const m = { functions: r.header['functions'] as string[], torch: r.header['torch'] === true };
      this.loaded.set(file, m);
      return m;
    });
  }

  /**
   * Calls `fn(data)` in `file` with a batch. Every input is `[rows, d]` float32 in original
   * units. The result must be `[rows, cols]` (or `[rows]` when `cols` is 1 or not given),
   * finite. Throws `sandbox.exception` (with the user's line), `sandbox.shape`, `sandbox.nan`,
   * `sandbox.timeout`, `sandbox.crashed`.
   */
  call(file: string, fn: string, inputs: Record<string, BatchArray>, expect: { rows: number; cols?: number }): Promise<BatchArray> {
    return this.serial(async () => {
      await this.ensureRunning();
      if (!this.loaded.has(file)) {
        const r = await this.send({ op: 'load', file }, [], file);
        this.loaded.set(file, { functions: r.header['functions'] as string[], torch: r.header['torch'] === true });
      }
      const r = await this.send({ op: 'call', file, function: fn, rows: expect.rows, cols: expect.cols }, Object.entries(inputs), fn);
      const shape = r.header['shape'] as [number, number];
      const data = new Float32Array(shape[0] * shape[1]);
      Buffer.from(data.buffer).set(r.payload.subarray(0, data.byteLength));
      return { data, shape };
    });
  }

  /** Stops the process and removes the temp directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const child = this.child;
    if (child) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 2000);
        child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        try {
          const h = Buffer.from(JSON.stringify({ op: 'exit' }));
          const f = Buffer.alloc(8 + h.length);
          f.writeUInt32LE(4 + h.length, 0);
          f.writeUInt32LE(h.length, 4);
          h.copy(f, 8);
          child.stdin.end(f);
        } catch {
          child.kill('SIGKILL');
        }
      });
    }
    releaseSandboxId(this.uid);
    rmSync(this.workdir, { recursive: true, force: true });
  }
}

/**
 * A reward file (`reward.py` with `get_reward(data) -> [B, 1]`): `data` maps every node and
 * `next_` node to `[B, dim]` in original units.
 */
export class RewardFunction {
  constructor(
    private readonly sandbox: PythonSandbox,
    readonly file = 'reward.py',
    readonly fn = 'get_reward',
  ) {}

  /**
   * Rewards of a batch, one per row.
   * @throws LearningError `reward.nonFinite` when a reward is NaN or infinite: the rows, the
   *   results and every node's values on those rows (original units) in the message, as
   *   `details` too; the other sandbox errors as {@link PythonSandbox.call}.
   */
  async compute(batch: Record<string, BatchArray>): Promise<Float32Array> {
    const rows = Object.values(batch)[0]?.shape[0] ?? 0;
    try {
      const out = await this.sandbox.call(this.file, this.fn, batch, { rows, cols: 1 });
      return out.data;
    } catch (err) {
      if (err instanceof LearningError && err.code === 'sandbox.nan') throw nonFiniteReward(this.fn, batch, rows, err.details ?? {});
      throw err;
    }
  }
}

/** At most this many rows are named in a non-finite reward's message. */
const NAMED_ROWS = 3;

/** Formats a number for a message: six significant digits, `NaN` / `Infinity` as such. */
function num(v: number): string {
  return Number.isFinite(v) ? String(Number(v.toPrecision(6))) : String(v);
}

/**
 * The `reward.nonFinite` error of a batch whose rewards were not all finite: which rows, what
 * the reward returned there, and every node's values on those rows (the first
 * {@link NAMED_ROWS}), so that the cause (e.g. `acos` of a value above 1) can be read off.
 */
export function nonFiniteReward(fn: string, batch: Record<string, BatchArray>, rows: number, details: Record<string, unknown>): LearningError {
  const bad = Array.isArray(details['rows']) ? (details['rows'] as number[]) : [];
  const count = typeof details['count'] === 'number' ? details['count'] : bad.length;
  const results = Array.isArray(details['values']) ? (details['values'] as string[]) : [];
  const named = bad.slice(0, NAMED_ROWS);
  const values = named
    .map((r) => {
      const parts = Object.entries(batch).map(([node, a]) => {
        const d = a.shape[1] ?? 1;
        const row = Array.from(a.data.subarray(r * d, (r + 1) * d), num);
        return `${node}=[${row.join(', ')}]`;
      });
      return `#${r}: ${parts.join(' ')}`;
    })
    .join('; ');
  const rowList = bad.length > 10 || count > bad.length ? `${bad.slice(0, 10).join(', ')}, …` : bad.join(', ');
  return new LearningError(
    'reward.nonFinite',
    { function: fn, count, total: rows, rows: rowList, results: [...new Set(results.slice(0, NAMED_ROWS))].join(', ') || 'NaN', values },
    { rows: bad, count, total: rows, results, batchRows: named.map((r) => Object.fromEntries(Object.entries(batch).map(([n, a]) => [n, Array.from(a.data.subarray(r * (a.shape[1] ?? 1), (r + 1) * (a.shape[1] ?? 1)))]))) },
  );
}
