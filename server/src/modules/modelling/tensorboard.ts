/**
 * `train/reStartTensorBoard` and `train/destroyTensorBoard`: a training's measured metrics as a
 * TensorBoard event file, and a TensorBoard process per job behind the server.
 *
 * `reStartTensorBoard {jobId}` writes (rewrites) the series `train/getTrainDisplayDataList`
 * answers as `events.out.tfevents.*` (engine/tfevents.ts) into the job's log folder in the blob
 * store, charged to the job's owner like the other artefacts. When a TensorBoard executable is
 * there (`TENSORBOARD_BIN` of the server config, else `tensorboard` on `PATH`) it starts one for
 * the job on a free local port (`--host 127.0.0.1 --path_prefix /api/tensorboard/<jobId>`),
 * ending the one that ran before, and the server proxies `/api/tensorboard/<jobId>/...` to it
 * with the checks of every `train/*` call (session token in the header or the `token` cookie,
 * tenant, view right on the project). Without an executable it answers `notInstalled` and where to download the file
 * (`GET /api/train/tensorBoardEvents?jobId=`) for the user's own TensorBoard.
 * `destroyTensorBoard {jobId}` ends the process and deletes the log folder (quota given back);
 * deleting a training record (`Trainings.delete`, `train/deleteRecords`) does the same for the
 * jobs it ran (`forget`), and deleting a project or a solution ends the processes of its jobs
 * (`stopJobs`; the delete removes their folders itself). Processes also end after `TENSORBOARD_IDLE_MINUTES` (30) without a
 * proxied request, and when the server closes (and, as a last resort, when the Node process
 * exits).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { Router } from '@koa/router';
import { AppError, HEADER } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { AppContext, AppMiddleware, AppState } from '../../http/context';
import type { RouteKit } from '../../http/route';
import type { BlobOwner } from '../storage/blob-store';
import { chargeStorage, releaseStorage } from '../storage/quota';
import type { ModellingDeps } from './common';
import { artifactPrefix } from '../storage/artefact-keys';
import { encodeEventFile, scalarPoints, type DisplayPoint } from './engine/tfevents';
import { presentTraining } from './training-rules';
import type { TrainCalls } from './train';

/** Where the proxied TensorBoards live: `/api/tensorboard/<jobId>/`. */
export const TENSORBOARD_PATH = '/api/tensorboard/';
const JOB_ID = /^[0-9a-f]{32}$/;
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

/** What `reStartTensorBoard` answers. */
export type TensorBoardReply = { jobId: string; running: true; url: string; downloadUrl: string } | { jobId: string; running: false; reason: 'notInstalled'; downloadUrl: string };

/** The TensorBoard executable: `configured` when set (and executable), else `tensorboard` on `searchPath`; null when none. */
export function findTensorBoard(configured: string | null | undefined, searchPath: string = process.env.PATH ?? ''): string | null {
  if (configured) return executable(configured) ? configured : null;
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, process.platform === 'win32' ? 'tensorboard.exe' : 'tensorboard');
    if (executable(candidate)) return candidate;
  }
  return null;
}

function executable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A port nobody listens on right now (127.0.0.1). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** Resolves once `url` answers HTTP at all; rejects when `exited` settles first or time runs out. */
async function waitUntilAnswering(url: string, exited: Promise<void>, timeoutMs: number): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error('exited');
    const answered = await new Promise<boolean>((resolve) => {
      const req = http.get(url, { timeout: 2000 }, (res) => {
        res.resume();
        resolve(true);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(false));
    });
    if (answered) return;
    await sleep(200);
  }
  throw new Error('timeout');
}

/** Signals the process and its children (it leads its own process group). */
function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    if (child.pid && process.platform !== 'win32') process.kill(-child.pid, sig);
    else child.kill(sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      // already gone
    }
  }
}

/** Every file under a folder (recursively) with its size; none when it does not exist. */
async function filesUnder(dir: string): Promise<Array<{ file: string; size: number }>> {
  let names: string[];
  try {
    names = (await fsp.readdir(dir, { recursive: true })) as string[];
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: Array<{ file: string; size: number }> = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const s = await fsp.stat(file).catch(() => null);
    if (s?.isFile()) out.push({ file, size: s.size });
  }
  return out;
}

interface Board {
  jobId: string;
  child: ChildProcess;
  port: number;
  lastUsed: number;
  exited: Promise<void>;
  done: boolean;
}

/** The server config's TensorBoard settings. */
export interface TensorBoardOptions {
  /** The executable (`TENSORBOARD_BIN`); null or unset: `tensorboard` on `PATH`. */
  bin?: string | null;
  /** Minutes a process runs without a proxied request (`TENSORBOARD_IDLE_MINUTES`, 30). */
  idleMinutes?: number;
}

/** The TensorBoard processes of one server, by job. */
export class TensorBoards {
  private readonly boards = new Map<string, Board>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly bin: string | null;
  private readonly idleMs: number;
  private sweeper: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly killAll = () => {
    for (const b of this.boards.values()) signal(b.child, 'SIGKILL');
  };

  constructor(
    private readonly deps: ModellingDeps,
    private readonly train: TrainCalls,
    options: TensorBoardOptions = deps.tensorBoard ?? {},
  ) {
    this.bin = options.bin ?? null;
    const minutes = options.idleMinutes ?? 30;
    this.idleMs = (Number.isFinite(minutes) && minutes > 0 ? minutes : 30) * 60_000;
  }

  /** The proxied address of a job's TensorBoard. */
  static urlOf(jobId: string): string {
    return `${TENSORBOARD_PATH}${jobId}/`;
  }

  /** Where a job's event file downloads. */
  static downloadUrlOf(jobId: string): string {
    return `/api/train/tensorBoardEvents?jobId=${jobId}`;
  }

  /** Whether a process runs for the job (tests, diagnostics). */
  pidOf(jobId: string): number | null {
    return this.boards.get(jobId)?.child.pid ?? null;
  }

  /** Runs `fn` after every earlier call for the same job has settled. */
  private serial<T>(jobId: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.locks.get(jobId) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => undefined);
    this.locks.set(jobId, tail);
    void tail.then(() => {
      if (this.locks.get(jobId) === tail) this.locks.delete(jobId);
    });
    return run;
  }

  private ownerOf(job: { tenantId: string; userId: string | null }): BlobOwner | null {
    return job.userId ? { tenantId: job.tenantId, userId: job.userId } : null;
  }

  /** `train/reStartTensorBoard`. */
  async restart(user: ServerCallUser, jobId: string): Promise<TensorBoardReply> {
    // Checked in turn with the other calls for the job: a record deleted meanwhile is not found.
    return this.serial(jobId, async () => {
      if (this.closed) throw new AppError('failure', undefined, 'server closing');
      const { job, record } = await this.train.jobInScope(user, jobId, 'view');
      // The same series (and the same state rule) as the workbench's charts.
      const display = await this.train.displayData(user, jobId);
      const run = String(presentTraining(record.table, record.row).code).replace(/[^A-Za-z0-9_.-]/g, '') || 'run';
      const downloadUrl = TensorBoards.downloadUrlOf(jobId);
      await this.stop(jobId);
      const points = scalarPoints(display.points as DisplayPoint[]);
      const bytes = encodeEventFile(points);
      const prefix = artifactPrefix(job.userId, 'tensorboard', jobId);
      await this.replaceFiles(this.ownerOf(job), prefix, `${run}/events.out.tfevents.${Math.floor(Date.now() / 1000)}.decisio`, bytes);
      const bin = findTensorBoard(this.bin);
      if (!bin) return { jobId, running: false, reason: 'notInstalled', downloadUrl };
      await this.start(jobId, bin, this.deps.blobs.pathOf(prefix));
      return { jobId, running: true, url: TensorBoards.urlOf(jobId), downloadUrl };
    });
  }

  /** `train/destroyTensorBoard`: ends the job's process and deletes its log folder; nothing to do is fine. */
  async destroy(user: ServerCallUser, jobId: string): Promise<{ jobId: string; running: false }> {
    const { job } = await this.train.jobInScope(user, jobId, 'view');
    await this.serial(jobId, () => this.remove(jobId, job));
    return { jobId, running: false as const };
  }

  /**
   * The jobs of a deleted training record (`Trainings.onDeleted`): ends their processes and
   * deletes their log folders, quota given back. Jobs not found for the tenant are skipped.
   */
  async forget(tenantId: string, jobIds: readonly string[]): Promise<void> {
    for (const jobId of jobIds) {
      const job = await this.deps.jobs.get(jobId, { tenantId });
      if (job) await this.serial(jobId, () => this.remove(jobId, job));
    }
  }

  /**
   * The jobs of a deleted project or solution (`projects/artefacts.ts DeletedJobs`): ends their
   * processes, after any call for the job in progress (a restart that began before the delete).
   * Their log folders and quota are the delete's.
   */
  async stopJobs(jobIds: readonly string[]): Promise<void> {
    const running = jobIds.filter((jobId) => this.boards.has(jobId) || this.locks.has(jobId));
    await Promise.all(running.map((jobId) => this.serial(jobId, () => this.stop(jobId))));
  }

  /** Ends the job's process and deletes its log folder, giving its size back to the owner. */
  private async remove(jobId: string, job: { tenantId: string; userId: string | null }): Promise<void> {
    await this.stop(jobId);
    const prefix = artifactPrefix(job.userId, 'tensorboard', jobId);
    const old = (await filesUnder(this.deps.blobs.pathOf(prefix))).reduce((s, f) => s + f.size, 0);
    await this.deps.blobs.removePrefix(prefix);
    const owner = this.ownerOf(job);
    if (owner && old > 0) await releaseStorage(this.deps.db.knex, owner, old);
  }

  /** The job's event file (after `reStartTensorBoard`) for the download. */
  async eventFile(user: ServerCallUser, jobId: string): Promise<{ file: string; name: string; size: number }> {
    const { job } = await this.train.jobInScope(user, jobId, 'view');
    const files = await filesUnder(this.deps.blobs.pathOf(artifactPrefix(job.userId, 'tensorboard', jobId)));
    const events = files.filter((f) => path.basename(f.file).startsWith('events.out.tfevents.')).sort((a, b) => (a.file < b.file ? 1 : -1));
    const newest = events[0];
    if (!newest) throw new AppError('fileNotFound');
    return { file: newest.file, name: path.basename(newest.file), size: newest.size };
  }

  /** Replaces the folder's files with one file, charging (or giving back) the difference in size. */
  private async replaceFiles(owner: BlobOwner | null, prefix: string, name: string, bytes: Uint8Array): Promise<void> {
    const knex = this.deps.db.knex;
    const old = (await filesUnder(this.deps.blobs.pathOf(prefix))).reduce((s, f) => s + f.size, 0);
    const delta = bytes.byteLength - old;
    if (owner && delta > 0) await chargeStorage(knex, owner, delta);
    if (owner && delta < 0) await releaseStorage(knex, owner, -delta);
    try {
      await this.deps.blobs.removePrefix(prefix);
      await this.deps.blobs.put(`${prefix}/${name}`, bytes);
    } catch (err) {
      // Nothing (old or new) is left to pay for.
      if (owner) await releaseStorage(knex, owner, bytes.byteLength).catch(() => undefined);
      throw err;
    }
  }

  private async start(jobId: string, bin: string, logDir: string): Promise<void> {
    const port = await freePort();
    const prefix = `${TENSORBOARD_PATH}${jobId}`;
    const child = spawn(bin, ['--logdir', logDir, '--port', String(port), '--host', '127.0.0.1', '--path_prefix', prefix], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that its helpers end with it.
      detached: process.platform !== 'win32',
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-2000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const board: Board = {
      jobId,
      child,
      port,
      lastUsed: Date.now(),
      done: false,
      exited: new Promise<void>((resolve) => {
        const end = () => {
          board.done = true;
          if (this.boards.get(jobId) === board) this.boards.delete(jobId);
          this.schedule();
          resolve();
        };
        child.once('exit', end);
        child.once('error', end);
      }),
    };
    this.boards.set(jobId, board);
    this.schedule();
    try {
      await waitUntilAnswering(`http://127.0.0.1:${port}${prefix}/`, board.exited, START_TIMEOUT_MS);
    } catch (err) {
      await this.stop(jobId);
      throw new AppError('failure', undefined, `TensorBoard did not start (${(err as Error).message}): ${output.trim()}`);
    }
  }

  /** Ends the job's process (TERM, then KILL after a grace period) and forgets it. */
  private async stop(jobId: string): Promise<void> {
    const board = this.boards.get(jobId);
    if (!board) return;
    this.boards.delete(jobId);
    this.schedule();
    if (board.done) return;
    signal(board.child, 'SIGTERM');
    const ended = await Promise.race([board.exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
    if (!ended) {
      signal(board.child, 'SIGKILL');
      await Promise.race([board.exited, sleep(STOP_GRACE_MS)]);
    }
  }

  /** The idle sweep and the exit guard run only while some process does. */
  private schedule(): void {
    if (this.boards.size > 0 && !this.sweeper) {
      this.sweeper = setInterval(() => this.sweep(), Math.max(100, Math.min(60_000, Math.floor(this.idleMs / 4))));
      this.sweeper.unref();
      process.on('exit', this.killAll);
    } else if (this.boards.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
      process.off('exit', this.killAll);
    }
  }

  private sweep(): void {
    const now = Date.now();
    for (const b of this.boards.values()) {
      if (now - b.lastUsed <= this.idleMs) continue;
      void this.serial(b.jobId, async () => {
        const current = this.boards.get(b.jobId);
        if (current && Date.now() - current.lastUsed > this.idleMs) await this.stop(b.jobId);
      });
    }
  }

  /** Ends every process (server shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.boards.keys()].map((jobId) => this.stop(jobId)));
    this.schedule();
  }

  /**
   * `/api/tensorboard/<jobId>/...` -> the job's TensorBoard. Mounted ahead of the JSON body
   * parser: TensorBoard posts form data, which goes through as it came. Authenticated like every
   * call (`Authorization` or the `token` cookie a browser tab sends), the job checked like the
   * other `train/*` calls (`trainNotFound`); no process for the job answers `notFound`. The
   * session token is not passed on to TensorBoard.
   */
  proxy(kit: RouteKit): AppMiddleware {
    return async (ctx, next) => {
      if (!ctx.path.startsWith(TENSORBOARD_PATH)) return next();
      const jobId = ctx.path.slice(TENSORBOARD_PATH.length).split('/')[0] ?? '';
      if (!JOB_ID.test(jobId)) throw new AppError('paramInvalid', { jobId: 'validation.invalid' });
      await kit.auth(ctx, () =>
        kit.tenant(ctx, async () => {
          await this.train.jobInScope(ctx.state.user!, jobId, 'view');
          const board = this.boards.get(jobId);
          if (!board || board.done) throw new AppError('notFound');
          board.lastUsed = Date.now();
          await forward(ctx, board.port);
          // TensorBoard's page loads and polls: one system-log row per asset would drown the log.
          ctx.state.audit.skip = true;
        }),
      );
    };
  }
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'cookie', 'authorization', HEADER.userId.toLowerCase()]);

/** Sends the request on to `127.0.0.1:port` (same method, path, query and body) and streams the answer back. */
function forward(ctx: AppContext, port: number): Promise<void> {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(ctx.req.headers)) if (v !== undefined && !NOT_FORWARDED.has(k)) headers[k] = v;
  return new Promise<void>((resolve, reject) => {
    const upstream = http.request({ host: '127.0.0.1', port, method: ctx.method, path: ctx.url, headers }, (res) => {
      const status = res.statusCode ?? 502;
      ctx.status = status;
      if (status === 204 || status === 304) {
        res.resume();
        ctx.body = null;
        ctx.status = status;
      } else ctx.body = res;
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) ctx.set(k, v);
      if (res.headers['content-encoding']) ctx.compress = false;
      resolve();
    });
    upstream.on('error', () => reject(new AppError('notFound')));
    ctx.res.on('close', () => {
      if (!ctx.res.writableFinished) upstream.destroy();
    });
    ctx.req.pipe(upstream);
  });
}

/** `GET /api/train/tensorBoardEvents?jobId=`: the event file `reStartTensorBoard` wrote, as a download. */
export function tensorBoardDownloadRoute(router: Router<AppState>, kit: RouteKit, boards: TensorBoards): void {
  router.get('/train/tensorBoardEvents', kit.auth, kit.tenant, async (ctx) => {
    const jobId = String(ctx.query.jobId ?? '');
    if (!JOB_ID.test(jobId)) throw new AppError('paramInvalid', { jobId: 'validation.invalid' });
    const { file, name, size } = await boards.eventFile(ctx.state.user!, jobId);
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.type = 'application/octet-stream';
    ctx.length = size;
    ctx.body = fs.createReadStream(file);
  });
}
