import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger';
import type { JobEventSink } from './events';
import type { RunOutcome } from './runner';
import type { FromThread, ThreadInit, ToThread } from './thread-protocol';

/** Options of the job threads of `InProcessQueue` (`InProcessQueueOptions.threads`). */
export interface JobThreadsOptions {
  /** The server's `DATABASE_URL` (a file or server database: an in-memory SQLite cannot be shared). */
  databaseUrl: string;
  /**
   * Modules (file URLs) that register the kinds the threads run; each exports
   * `registerThreadJobKinds` (`ThreadJobKindsModule`). Kinds of the queue's registry that no
   * module registers run on the main thread.
   */
  modules: readonly (string | URL)[];
  /** Given to every module as `env.data` (structured-cloned: plain data only). */
  data?: unknown;
  /** How long a thread may take to halt on `close()` before it is terminated, ms (default 2000). */
  haltGraceMs?: number;
}

/** What the pool needs from its queue. */
interface PoolDeps {
  size: number;
  workerId: string;
  options: JobThreadsOptions;
  /** Where the threads' job events go. */
  events: JobEventSink;
  /** A thread died while it ran `jobId`: restore the job (or fail it) with `reason`. */
  onLost(jobId: string, reason: string): Promise<void>;
  logger?: Logger | undefined;
}

/** A job thread as the pool sees it. */
interface Slot {
  worker: Worker;
  ready: boolean;
  /** The job it runs, and how to settle that `run` call. */
  jobId: string | null;
  settle: ((outcome: RunOutcome | 'lost' | 'halted') => void) | null;
  error: Error | null;
  onHalted: (() => void) | null;
}

/** Thrown to waiters of a pool that closed. */
export class ThreadPoolClosedError extends Error {
  constructor() {
    super('The job threads are closed');
    this.name = 'ThreadPoolClosedError';
  }
}

const BOOTSTRAP = new URL('./thread-bootstrap.mjs', import.meta.url);
const ENTRY = new URL('./thread-entry.ts', import.meta.url).href;
const MAX_BACKOFF_MS = 30_000;

/**
 * The worker threads of the in-process queue: up to `size` threads, one job each. One thread
 * starts with the pool (`start()` waits for it: it tells which kinds the threads run, and a
 * module that cannot load fails the start), more on demand. A thread that crashes or exits is
 * replaced (after load failures, with a backoff); its job is handed to `onLost` (restored from
 * its checkpoint or failed, by the queue), never dropped. `close()` halts the threads (their
 * handlers are cut and they write nothing more) and terminates them.
 */
export class JobThreadPool {
  private readonly slots = new Set<Slot>();
  private readonly waiters: { resolve(slot: Slot): void; reject(err: Error): void }[] = [];
  private kinds: Set<string> | null = null;
  private readonly kindWaiters: { resolve(kinds: ReadonlySet<string>): void; reject(err: Error): void }[] = [];
  private startFailures = 0;
  private first: { resolve(): void; reject(err: Error): void } | null = null;
  private respawn: NodeJS.Timeout | null = null;
  private closed = false;
  private count = 0;

  constructor(private readonly deps: PoolDeps) {}

  /**
   * Starts the first thread and resolves once it has loaded its kinds.
   *
   * @throws Error when it cannot load (a broken module): nothing is retried then.
   */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(new ThreadPoolClosedError());
    if (this.kinds) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.first = { resolve, reject };
      if (this.slots.size === 0) this.spawn();
    });
  }

  /** The kinds the threads run (waits for the first thread to load). */
  kindNames(): Promise<ReadonlySet<string>> {
    if (this.closed) return Promise.reject(new ThreadPoolClosedError());
    if (this.kinds) return Promise.resolve(this.kinds);
    return new Promise((resolve, reject) => this.kindWaiters.push({ resolve, reject }));
  }

  /**
   * Runs a job on an idle thread (starting one when all are busy, up to `size`); resolves once
   * the thread is done with it: its outcome, `lost` (the thread died; `onLost` has run) or
   * `halted` (closed).
   *
   * @throws ThreadPoolClosedError when the pool closes before a thread is free.
   */
  async run(jobId: string): Promise<RunOutcome | 'lost' | 'halted'> {
    const slot = await this.acquire();
    return new Promise((resolve) => {
      slot.jobId = jobId;
      slot.settle = resolve;
      this.send(slot, { type: 'run', jobId });
    });
  }

  /** Tells the thread running `jobId` to abort its handler. */
  abort(jobId: string): void {
    for (const s of this.slots) if (s.jobId === jobId) this.send(s, { type: 'abort', jobId });
  }

  /** Ids of the jobs the threads run now. */
  jobIds(): string[] {
    return [...this.slots].flatMap((s) => (s.jobId ? [s.jobId] : []));
  }

  /** Number of live threads (tests). */
  get size(): number {
    return this.slots.size;
  }

  /** Halts and terminates every thread; running jobs stay as they are in the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.respawn) clearTimeout(this.respawn);
    for (const w of this.waiters.splice(0)) w.reject(new ThreadPoolClosedError());
    for (const w of this.kindWaiters.splice(0)) w.reject(new ThreadPoolClosedError());
    this.first?.reject(new ThreadPoolClosedError());
    this.first = null;
    const grace = this.deps.options.haltGraceMs ?? 2000;
    await Promise.all(
      [...this.slots].map(async (slot) => {
        const halted = new Promise<void>((resolve) => {
          slot.onHalted = resolve;
          slot.worker.once('exit', () => resolve());
        });
        this.send(slot, { type: 'halt' });
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([halted, new Promise<void>((resolve) => (timer = setTimeout(resolve, grace)))]);
        clearTimeout(timer);
        await slot.worker.terminate().catch(() => undefined);
        this.settle(slot, 'halted');
      }),
    );
    this.slots.clear();
  }

  private acquire(): Promise<Slot> {
    if (this.closed) return Promise.reject(new ThreadPoolClosedError());
    const idle = [...this.slots].find((s) => s.ready && s.jobId === null && !this.isTaken(s));
    if (idle) {
      this.taken.add(idle);
      return Promise.resolve(idle);
    }
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.grow();
    });
  }

  /** Slots handed to a `run` call that has not posted its job yet. */
  private readonly taken = new Set<Slot>();

  private isTaken(slot: Slot): boolean {
    return this.taken.has(slot);
  }

  /** Starts a thread when jobs wait and every thread is busy or starting. */
  private grow(): void {
    if (this.closed || this.respawn) return;
    const starting = [...this.slots].filter((s) => !s.ready).length;
    if (starting < this.waiters.length && this.slots.size < this.deps.size) this.spawn();
  }

  /** Gives an idle slot to the first waiter. */
  private handOut(slot: Slot): void {
    if (!slot.ready || slot.jobId !== null || this.taken.has(slot)) return;
    const waiter = this.waiters.shift();
    if (!waiter) return;
    this.taken.add(slot);
    waiter.resolve(slot);
  }

  private send(slot: Slot, message: ToThread): void {
    if (message.type === 'run') this.taken.delete(slot);
    try {
      slot.worker.postMessage(message);
    } catch {
      // The thread is gone; its exit handler deals with the job.
    }
  }

  private settle(slot: Slot, outcome: RunOutcome | 'lost' | 'halted'): void {
    const settle = slot.settle;
    slot.jobId = null;
    slot.settle = null;
    settle?.(outcome);
  }

  private spawn(): void {
    const init: ThreadInit & { entry: string } = {
      entry: ENTRY,
      workerId: this.deps.workerId,
      databaseUrl: this.deps.options.databaseUrl,
      modules: this.deps.options.modules.map((m) => String(m)),
      data: this.deps.options.data ?? null,
    };
    this.count += 1;
    const worker = new Worker(BOOTSTRAP, { workerData: init, name: `decisio-job-${this.count}` });
    // A forgotten close() must not keep the process alive; the HTTP server does that.
    worker.unref();
    const slot: Slot = { worker, ready: false, jobId: null, settle: null, error: null, onHalted: null };
    this.slots.add(slot);
    worker.on('message', (message: FromThread) => this.onMessage(slot, message));
    worker.on('error', (err) => {
      slot.error = err;
    });
    worker.on('exit', (code) => void this.onExit(slot, code));
  }

  private onMessage(slot: Slot, message: FromThread): void {
    switch (message.type) {
      case 'ready':
        slot.ready = true;
        this.startFailures = 0;
        if (!this.kinds) {
          this.kinds = new Set(message.kinds);
          for (const w of this.kindWaiters.splice(0)) w.resolve(this.kinds);
          this.first?.resolve();
          this.first = null;
        }
        this.handOut(slot);
        break;
      case 'event':
        this.deps.events.emit(message.event);
        break;
      case 'done':
        if (slot.jobId === message.jobId) {
          if (message.error) this.deps.logger?.warn('job thread: run ended without its end state', { jobId: message.jobId, error: message.error });
          this.settle(slot, message.outcome);
          this.handOut(slot);
        }
        break;
      case 'halted':
        slot.onHalted?.();
        break;
    }
  }

  private async onExit(slot: Slot, code: number): Promise<void> {
    this.slots.delete(slot);
    this.taken.delete(slot);
    if (this.closed) return;
    const why = slot.error ? `crashed: ${slot.error.message}` : `exited with code ${code}`;
    if (!this.kinds && this.first) {
      // The first thread could not load: the queue does not start.
      const err = new Error(`The job threads could not start: ${why}`);
      this.first.reject(err);
      this.first = null;
      for (const w of this.kindWaiters.splice(0)) w.reject(err);
      return;
    }
    if (!slot.ready) {
      this.startFailures += 1;
      this.deps.logger?.error('a job thread failed to start', { reason: why, failures: this.startFailures });
    } else {
      this.deps.logger?.warn('a job thread died', { reason: why, jobId: slot.jobId });
    }
    const jobId = slot.jobId;
    if (jobId) {
      await this.deps.onLost(jobId, `The worker thread running the job ${why}`).catch((err: unknown) => {
        // The row stays held by this server: the next heartbeat hands it back as an orphan.
        this.deps.logger?.error('could not restore the job of a dead job thread', { jobId, err });
      });
      this.settle(slot, 'lost');
    }
    // Replace it while jobs wait or no thread is left (after start failures, with a backoff).
    if (this.closed || (this.waiters.length === 0 && this.kinds && this.slots.size > 0)) return;
    if (this.startFailures === 0) {
      this.spawnIfNeeded();
      return;
    }
    const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (this.startFailures - 1));
    this.respawn = setTimeout(() => {
      this.respawn = null;
      this.spawnIfNeeded();
    }, delay);
    this.respawn.unref();
  }

  private spawnIfNeeded(): void {
    if (this.closed) return;
    if (this.slots.size === 0) this.spawn();
    else this.grow();
  }
}
