/**
 * Job kinds of the job-thread tests, as a thread module (`JobThreadsOptions.modules`): they
 * tell which thread ran them, burn the CPU, wait for a stop, stop at a breakpoint, or crash
 * their thread.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { builtinJobKinds } from './builtin';
import type { JobKind, JobKindRegistry } from './kinds';
import type { ThreadJobEnv } from './thread-protocol';

/** File URL of this module. */
export const testingThreadKindsModule = import.meta.url;

/**
 * `test.burn` (`{ms, chunkMs}`): keeps its thread busy for `ms` in synchronous chunks of
 * `chunkMs` (as a training step does), reporting the chunk before each and yielding between.
 */
export const burnJobKind: JobKind<{ ms: number; chunkMs: number }> = {
  kind: 'test.burn',
  async run(ctx) {
    const { ms, chunkMs } = ctx.payload;
    const start = Date.now();
    let chunk = 0;
    let sink = 0;
    while (Date.now() - start < ms && !ctx.shouldStop()) {
      chunk += 1;
      await ctx.reportMetrics((Date.now() - start) / ms, { chunk, thread: threadId });
      const end = Math.min(Date.now() + chunkMs, start + ms);
      while (Date.now() < end) sink += Math.sqrt(sink + chunk);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await ctx.log(`burned ${Date.now() - start} ms in ${chunk} chunks on thread ${threadId} (${sink > 0})`);
  },
};

/**
 * `test.spin` (`{spinning, release, giveUpMs}`): creates the file `spinning`, then keeps its
 * thread busy in one synchronous loop (no yield) until the file `release` exists or `giveUpMs`
 * passed, and logs which ended it. Nothing on its own thread can run while it spins: on the
 * main thread it always gives up; on a job thread the main thread can see `spinning` and
 * create `release`.
 */
export const spinJobKind: JobKind<{ spinning: string; release: string; giveUpMs: number }> = {
  kind: 'test.spin',
  async run(ctx) {
    const { spinning, release, giveUpMs } = ctx.payload;
    writeFileSync(spinning, String(threadId));
    const start = Date.now();
    let released = false;
    while (Date.now() - start < giveUpMs) {
      if (existsSync(release)) {
        released = true;
        break;
      }
    }
    await ctx.log(`${released ? 'released' : 'gave up'} after ${Date.now() - start} ms of spinning on thread ${threadId}`);
  },
};

const kinds: JobKind<any>[] = [
  burnJobKind,
  spinJobKind,
  {
    kind: 'test.echo',
    async run(ctx: Parameters<JobKind<{ n: number }>['run']>[0]) {
      await ctx.log(`start on thread ${threadId}`);
      await ctx.reportMetrics(0.5, { loss: 0.25 });
      await ctx.checkpoint(new Uint8Array([1, 2, 3]));
      await ctx.reportMetrics(0.9, { reward: ctx.payload.n });
      await ctx.log('end', 'warn');
    },
  },
  {
    kind: 'test.forever',
    async run(ctx) {
      await ctx.log('running');
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    },
  },
  {
    kind: 'test.debug',
    async run(ctx) {
      await ctx.log('before the breakpoint');
      await ctx.breakpoint();
      await ctx.log(ctx.shouldStop() ? 'stopped at the breakpoint' : 'after the breakpoint');
    },
  },
  {
    /**
     * `test.crash` (`{how: 'throw' | 'exit'}`): on its first attempt saves a checkpoint, then
     * kills its thread (an uncaught exception, or `process.exit(3)`); a later attempt resumes
     * from the checkpoint and succeeds.
     */
    kind: 'test.crash',
    async run(ctx: Parameters<JobKind<{ how: 'throw' | 'exit' }>['run']>[0]) {
      const saved = await ctx.lastCheckpoint();
      if (saved) {
        await ctx.log(`resumed from checkpoint ${saved[0]} (attempt ${ctx.attempt}) on thread ${threadId}`);
        await ctx.reportMetrics(1, { step: saved[0]! + 1 });
        return;
      }
      await ctx.checkpoint(new Uint8Array([1]));
      await ctx.log(`crashing thread ${threadId}`);
      if (ctx.payload.how === 'exit') process.exit(3);
      setTimeout(() => {
        throw new Error('thread kaboom');
      }, 0);
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    },
  },
];

/** `ThreadJobKindsModule`: the kinds above, and the built-ins unless another module gave them. */
export function registerThreadJobKinds(registry: JobKindRegistry, _env: ThreadJobEnv): void {
  for (const k of [...builtinJobKinds, ...kinds]) if (!builtinJobKinds.includes(k) || !registry.has(k.kind)) registry.registerJobKind(k);
}
