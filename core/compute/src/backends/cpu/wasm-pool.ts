/**
 * Multi-threaded wasm SIMD matmul ('wasm-simd-mt'): one shared WebAssembly.Memory, the
 * shared-memory build of the gemm module instantiated on the calling thread and on
 * `threads - 1` workers (worker_threads in Node, Web Workers in browsers). A matmul is split by
 * output columns (multiples of 8); the caller computes its own slice and blocks with
 * `Atomics.wait` until the workers are done, so dispatch stays synchronous.
 *
 * Requirements (else the probe returns null and the single-thread path is used):
 * SharedArrayBuffer + Atomics (browsers: cross-origin isolation), a thread that may block
 * (Node main thread or any worker; NOT a browser main thread), more than one core.
 * Small products (< 2^18 multiply-adds per matrix) run on the calling thread only.
 */
import type { MatmulKernel } from '../backend.ts';
import type { MatmulPath } from './cpu-backend.ts';
import { applyActivation } from './js-kernels.ts';
import { GEMM_MT_WASM_BASE64 } from './wasm-binary.generated.ts';
import { ACT_WASM, CACHE_BYTES, decodeBase64, type GemmExports } from './wasm-simd.ts';
import { OperandCache } from './operand-cache.ts';
import { residentKernels, type ResidentMemory } from './wasm-elementwise.ts';

// Control block layout (int32 slots at the 64-byte aligned heap base).
const GEN = 0; // job generation, bumped to wake workers
const DONE = 1; // workers finished with the current job
const READY = 2; // workers started
const QUIT = 3;
const P = 8; // params start: m n k a tA b tB c bias act alphaBits acc
const CTRL_INTS = 32;
const MIN_PARALLEL_MACS = 1 << 18;

const WORKER_SOURCE = `
const start = (data) => {
  const { module, memory, ctrl, id, threads, scratchBytes, scratchBase } = data;
  const inst = new WebAssembly.Instance(module, { env: { memory } });
  const ex = inst.exports;
  const I = new Int32Array(memory.buffer, ctrl, ${CTRL_INTS});
  const F = new Float32Array(memory.buffer, ctrl, ${CTRL_INTS});
  Atomics.add(I, ${READY}, 1);
  Atomics.notify(I, ${READY});
  let seen = 0;
  for (;;) {
    Atomics.wait(I, ${GEN}, seen);
    seen = Atomics.load(I, ${GEN});
    if (Atomics.load(I, ${QUIT})) break;
    const n = I[${P} + 1];
    const chunk = Math.ceil(n / threads / 8) * 8;
    const n0 = Math.min(n, id * chunk), n1 = Math.min(n, n0 + chunk);
    if (n1 > n0) ex.sgemm_cols(I[${P}], n, I[${P} + 2], I[${P} + 3], I[${P} + 4], I[${P} + 5], I[${P} + 6], I[${P} + 7], I[${P} + 8], I[${P} + 9], F[${P} + 10], I[${P} + 11], n0, n1, scratchBase + id * scratchBytes);
    Atomics.add(I, ${DONE}, 1);
    Atomics.notify(I, ${DONE});
  }
};
if (typeof self !== 'undefined' && typeof self.postMessage === 'function' && typeof require === 'undefined') {
  self.onmessage = (e) => start(e.data);
} else {
  start(require('node:worker_threads').workerData);
}
`;

interface WorkerLike {
  terminate(): unknown;
  unref?(): void;
}

type Env = {
  process?: { versions?: { node?: string }; getBuiltinModule?: (n: string) => unknown; env?: Record<string, string | undefined> };
  navigator?: { hardwareConcurrency?: number };
  Worker?: new (url: string) => WorkerLike & { postMessage(m: unknown): void };
  Blob?: new (parts: string[], o: { type: string }) => unknown;
  URL?: { createObjectURL(b: unknown): string };
  crossOriginIsolated?: boolean;
};

/** A pool of wasm gemm instances sharing one memory. */
export class WasmGemmPool {
  readonly threads: number;
  private readonly memory: WebAssembly.Memory;
  private readonly ex: GemmExports;
  private readonly ctrl: number;
  private readonly I: Int32Array;
  private readonly F: Float32Array;
  private readonly dataBase: number;
  private readonly scratchBytes: number;
  private readonly workers: WorkerLike[] = [];
  private f32: Float32Array;
  private cache: OperandCache | null = null;

  /**
   * @param options.block wait (blocking) until the workers have started — right in Node and in
   *   a browser worker only once they were started; a browser thread must return to its event
   *   loop for its new workers to start, so browsers pass `block: false` and await `started()`.
   */
  constructor(threads: number, options: { block?: boolean } = {}) {
    const env = globalThis as unknown as Env;
    this.threads = threads;
    const module = new WebAssembly.Module(decodeBase64(GEMM_MT_WASM_BASE64) as unknown as BufferSource);
    this.memory = new WebAssembly.Memory({ initial: 64, maximum: 32768, shared: true });
    this.ex = new WebAssembly.Instance(module, { env: { memory: this.memory } }).exports as unknown as GemmExports;
    this.ctrl = (Number(this.ex.__heap_base.value) + 63) & ~63;
    this.scratchBytes = ((this.ex.scratch_floats() * 4 + 63) & ~63) >>> 0;
    const scratchBase = this.ctrl + CTRL_INTS * 4;
    this.dataBase = scratchBase + threads * this.scratchBytes;
    this.grow(this.dataBase);
    this.I = new Int32Array(this.memory.buffer, this.ctrl, CTRL_INTS);
    this.F = new Float32Array(this.memory.buffer, this.ctrl, CTRL_INTS);
    this.f32 = new Float32Array(this.memory.buffer);
    const base = { module, memory: this.memory, ctrl: this.ctrl, threads, scratchBytes: this.scratchBytes, scratchBase };
    for (let id = 1; id < threads; id++) {
      const data = { ...base, id };
      const wt = env.process?.getBuiltinModule?.('node:worker_threads') as
        | { Worker: new (src: string, o: { eval: boolean; workerData: unknown }) => WorkerLike }
        | undefined;
      let w: WorkerLike;
      if (wt) {
        w = new wt.Worker(WORKER_SOURCE, { eval: true, workerData: data });
      } else {
        const url = env.URL!.createObjectURL(new env.Blob!([WORKER_SOURCE], { type: 'text/javascript' }));
        const bw = new env.Worker!(url);
        bw.postMessage(data);
        w = bw;
      }
      w.unref?.();
      this.workers.push(w);
    }
    if (options.block === false) return;
    // Wait (bounded) for the workers to start.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = Atomics.load(this.I, READY);
      if (r >= threads - 1) break;
      if (Date.now() > deadline) {
        this.dispose();
        throw new Error('wasm pool: workers did not start');
      }
      Atomics.wait(this.I, READY, r, 50);
    }
  }

  /** Resolves once every worker has started, without blocking this thread (browsers). */
  async started(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = Atomics.load(this.I, READY);
      if (r >= this.threads - 1) return;
      if (Date.now() > deadline) {
        this.dispose();
        throw new Error('wasm pool: workers did not start');
      }
      const waitAsync = (Atomics as unknown as { waitAsync?: (a: Int32Array, i: number, v: number, t: number) => { async: boolean; value: Promise<string> | string } }).waitAsync;
      const w = waitAsync?.(this.I, READY, r, 50);
      if (w?.async) await w.value;
      else await new Promise((res) => setTimeout(res, 10));
    }
  }

  private grow(bytes: number): void {
    const have = this.memory.buffer.byteLength;
    if (bytes > have) this.memory.grow(Math.max(Math.ceil((bytes - have) / 65536), Math.min(Math.ceil(have / 65536), 32768 - Math.ceil(have / 65536))));
  }

  private view(): Float32Array {
    if (this.f32.buffer.byteLength !== this.memory.buffer.byteLength) this.f32 = new Float32Array(this.memory.buffer);
    return this.f32;
  }

  /** Runs a MatmulKernel on host arrays (synchronously, on all threads when worthwhile). */
  matmul(k: MatmulKernel, a: Float32Array, b: Float32Array, bias: Float32Array | null, c: Float32Array): void {
    const { batch, m, n } = k;
    const kk = k.k;
    const aLen = k.aBatchStride ? batch * m * kk : m * kk;
    const bLen = k.bBatchStride ? batch * kk * n : kk * n;
    const biasLen = bias ? (k.biasBatchStride ? batch * n : n) : 0;
    const cLen = batch * m * n;
    this.cache ??= new OperandCache(this.dataBase, CACHE_BYTES);
    const cache = this.cache;
    const need = (aLen + bLen + biasLen + cLen) * 4 + 4 * 64;
    cache.reserve(need);
    this.grow(cache.end(need));
    const mem = () => this.view();
    const ga = cache.input(a, aLen, mem);
    const gb = cache.input(b, bLen, mem);
    const gbias = bias ? cache.input(bias, biasLen, mem) : 0;
    const gc = cache.output(c, cLen, k.accumulate, mem);
    const act = ACT_WASM[k.activation] ?? 0;
    const parallel = m * n * kk >= MIN_PARALLEL_MACS && n >= 16 && m > 4;
    const T = this.threads;
    const I = this.I;
    for (let bi = 0; bi < batch; bi++) {
      const pa = ga + bi * k.aBatchStride * 4;
      const pb = gb + bi * k.bBatchStride * 4;
      const pc = gc + bi * m * n * 4;
      const pbias = bias ? gbias + bi * k.biasBatchStride * 4 : 0;
      if (!parallel) {
        this.ex.sgemm_cols(m, n, kk, pa, k.transA ? 1 : 0, pb, k.transB ? 1 : 0, pc, pbias, act, k.alpha, k.accumulate ? 1 : 0, 0, n, this.ctrl + CTRL_INTS * 4);
        continue;
      }
      I[P] = m; I[P + 1] = n; I[P + 2] = kk; I[P + 3] = pa; I[P + 4] = k.transA ? 1 : 0;
      I[P + 5] = pb; I[P + 6] = k.transB ? 1 : 0; I[P + 7] = pc; I[P + 8] = pbias; I[P + 9] = act;
      this.F[P + 10] = k.alpha; I[P + 11] = k.accumulate ? 1 : 0;
      Atomics.store(I, DONE, 0);
      Atomics.add(I, GEN, 1);
      Atomics.notify(I, GEN);
      const chunk = Math.ceil(n / T / 8) * 8;
      this.ex.sgemm_cols(m, n, kk, pa, k.transA ? 1 : 0, pb, k.transB ? 1 : 0, pc, pbias, act, k.alpha, k.accumulate ? 1 : 0, 0, Math.min(n, chunk), this.ctrl + CTRL_INTS * 4);
      let spins = 0;
      for (;;) {
        const d = Atomics.load(I, DONE);
        if (d >= T - 1) break;
        if (++spins < 2000) continue;
        Atomics.wait(I, DONE, d, 1000);
      }
    }
    c.set(this.view().subarray(gc >> 2, (gc >> 2) + cLen));
    if (act === 0 && k.activation !== 'none') applyActivation(k.activation, k.alpha, c, 0, cLen);
    else cache.remember(c, gc, cLen);
  }

  /** Resident-memory view for the elementwise kernels (run on the calling thread). */
  resident(): ResidentMemory {
    this.cache ??= new OperandCache(this.dataBase, CACHE_BYTES);
    const cache = this.cache;
    return {
      cache,
      ex: this.ex,
      ensure: (bytes) => {
        cache.reserve(bytes);
        this.grow(cache.end(bytes));
      },
      mem: () => this.view(),
    };
  }

  /** Stops the workers. */
  dispose(): void {
    Atomics.store(this.I, QUIT, 1);
    Atomics.add(this.I, GEN, 1);
    Atomics.notify(this.I, GEN);
    for (const w of this.workers) void w.terminate();
    this.workers.length = 0;
  }
}

function coreCount(): number {
  const env = globalThis as unknown as Env;
  const os = env.process?.getBuiltinModule?.('node:os') as { availableParallelism?: () => number; cpus(): unknown[] } | undefined;
  if (os) return os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  return env.navigator?.hardwareConcurrency ?? 1;
}

function canBlock(): boolean {
  const env = globalThis as unknown as Env & { document?: unknown };
  if (env.process?.versions?.node) return true;
  return typeof env.document === 'undefined'; // browser workers may Atomics.wait
}

let pool: WasmGemmPool | null | undefined;
let preparing: Promise<boolean> | null = null;

/** Threads to use, or 0 when this thread cannot run the pool (no shared memory, may not block, one core, not isolated). */
function poolThreads(): number {
  const env = globalThis as unknown as Env;
  const forced = Number(env.process?.env?.DECISIO_WASM_THREADS ?? 0);
  const threads = forced > 0 ? forced : Math.min(coreCount(), 8);
  if (threads < 2 || typeof SharedArrayBuffer === 'undefined' || !canBlock()) return 0;
  if (!env.process?.versions?.node && !env.crossOriginIsolated) return 0;
  return threads;
}

const isNode = () => Boolean((globalThis as unknown as Env).process?.versions?.node);

/**
 * Starts the worker pool without blocking. Browsers must call it (in a worker of a
 * cross-origin isolated page) before the first tensor op, because new workers only start while
 * the creating thread returns to its event loop; until then the pool path is not offered and the
 * single-thread wasm path is used. In Node it is optional (the probe starts the pool itself).
 * Resolves with whether the multi-threaded path is available.
 */
export function prepareWasmPool(): Promise<boolean> {
  if (pool !== undefined) return Promise.resolve(pool !== null);
  preparing ??= (async () => {
    const threads = poolThreads();
    if (!threads) {
      pool = null;
      return false;
    }
    try {
      const p = new WasmGemmPool(threads, { block: false });
      await p.started();
      pool = p;
    } catch {
      pool = null;
    }
    return pool !== null;
  })();
  return preparing;
}

/** The multi-threaded path, or null when threads, shared memory or blocking are unavailable. */
export function wasmSimdMtPath(options: { elementwise?: boolean } = {}): MatmulPath | null {
  if (pool === undefined) {
    // A browser thread cannot start workers while blocked: only `prepareWasmPool()` starts them.
    if (!isNode()) return null;
    pool = null;
    const threads = poolThreads();
    if (!threads) return null;
    try {
      pool = new WasmGemmPool(threads);
    } catch {
      pool = null;
    }
  }
  const p = pool;
  if (!p) return null;
  const r = p.resident();
  const kernels = residentKernels(() => r);
  if (options.elementwise === false) {
    const { adam, adamBumps, activationGrad, sumRows } = kernels;
    return { name: 'wasm-simd-mt', matmul: (k, a, b, bias, c) => p.matmul(k, a, b, bias, c), adam, adamBumps, activationGrad, sumRows };
  }
  return { name: 'wasm-simd-mt', matmul: (k, a, b, bias, c) => p.matmul(k, a, b, bias, c), ...kernels };
}
