/**
 * The messages between the in-process queue (main thread) and its job threads
 * (`thread-entry.ts`), and the contract of a module of thread job kinds.
 */
import type { Database } from '../db/database';
import type { JobEvent } from './events';
import type { JobKindRegistry } from './kinds';
import type { RunOutcome } from './runner';

/** What a thread is started with (`workerData`; structured-cloned). */
export interface ThreadInit {
  /** The server's worker row: the thread claims and writes jobs under this id. */
  workerId: string;
  /** The server's `DATABASE_URL`: the thread opens its own handle to the same database. */
  databaseUrl: string;
  /** File URLs of the modules that register the thread's job kinds (`ThreadJobKindsModule`). */
  modules: string[];
  /** Given to every module as `env.data` (e.g. the server's configuration). */
  data: unknown;
}

/** What a thread's job kinds get to build their dependencies. */
export interface ThreadJobEnv {
  /** The thread's own handle to the server's database. */
  db: Database;
  /** `JobThreadsOptions.data`, as sent to the thread. */
  data: unknown;
}

/**
 * A module that adds job kinds to a job thread (`JobThreadsOptions.modules`): it exports this
 * function by name. It runs once per thread, in the thread.
 */
export interface ThreadJobKindsModule {
  registerThreadJobKinds(registry: JobKindRegistry, env: ThreadJobEnv): void | Promise<void>;
}

/** Main thread -> job thread. */
export type ToThread =
  /** Claim and run this job (the thread runs one job at a time). */
  | { type: 'run'; jobId: string }
  /** The job's row went to `stopping`: abort its handler. */
  | { type: 'abort'; jobId: string }
  /** The server shuts down: cut the handler, write nothing more, close the database, answer `halted`. */
  | { type: 'halt' };

/** Job thread -> main thread. */
export type FromThread =
  /** The kinds are registered: the thread takes jobs of these kinds. */
  | { type: 'ready'; kinds: string[] }
  /** A job event (already written to the database), for the queue's subscribers. */
  | { type: 'event'; event: JobEvent }
  /** A `run` ended (`halted`: the thread was halted, or the end state could not be written). */
  | { type: 'done'; jobId: string; outcome: RunOutcome | 'halted'; error?: string }
  /** Answer to `halt`. */
  | { type: 'halted' };
