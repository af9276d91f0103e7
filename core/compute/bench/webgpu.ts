/**
 * WebGPU benchmark of the reference workload, for `bench/main.ts` (or `npx tsx
 * core/compute/bench/webgpu.ts` on its own, which prints the figures as JSON lines).
 *
 * Workload (same as the CPU figures in TOOLCHAIN.md): MLP 32-256-256-256-16, ReLU, batch 256,
 * Adam, MSE, float32 (training samples/s and GFLOP/s at 843,776 FLOP per sample); a 1024^3
 * matmul (GFLOP/s); no-grad inference latency at batch 1 and batch 32 (median, including the
 * readback to the host).
 *
 * On a software adapter (SwiftShader) the figures measure correctness plumbing only, not GPU
 * speed; `note` says so.
 */
import type { Backend } from '../src/backends/backend.ts';
import { createWebGPUBackend, type WebGPUBackend, type WebGPUBackendOptions } from '../src/backends/webgpu/webgpu-backend.ts';
import { Adam, MLP, manualSeed, matmul, mseLoss, noGrad, randomNormal, tidy } from '../src/index.ts';

/** FLOP per training sample of the reference MLP (forward + backward). */
export const MLP_FLOP_PER_SAMPLE = 843_776;

/** Result of {@link runWebGPUBench}; every field is JSON-able. */
export interface WebGPUBenchResult {
  backend: 'webgpu';
  path: 'wgsl';
  /** Adapter description, e.g. 'SwiftShader driver 5.0.0'. */
  adapter: string;
  fallbackAdapter: boolean;
  train_samples_s: number;
  train_gflops: number;
  matmul1024_gflops: number;
  latency_b1_us: number;
  latency_b32_us: number;
  /** Dispatches per training step and submits per step (batching efficiency). */
  dispatches_per_step: number;
  submits_per_step: number;
  note: string;
}

/** Options of {@link runWebGPUBench}. */
export interface WebGPUBenchOptions extends WebGPUBackendOptions {
  /** Seconds per measured figure (default 2). */
  budgetS?: number;
  /** Use this backend instead of creating one (it is not disposed). */
  backend?: WebGPUBackend;
}

async function timeit(fn: () => Promise<void>, budgetS: number, minIter: number): Promise<{ median: number; mean: number }> {
  await fn();
  const times: number[] = [];
  const end = performance.now() + budgetS * 1000;
  while (times.length < minIter || performance.now() < end) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1]! / 1000, mean: times.reduce((a, b) => a + b, 0) / times.length / 1000 };
}

/**
 * Runs the reference workload on the WebGPU backend.
 * @throws Error when no WebGPU adapter is available (fallback adapters are accepted by default
 *   here, unlike the registry, so that the plumbing can be timed on any machine).
 */
export async function runWebGPUBench(options: WebGPUBenchOptions = {}): Promise<WebGPUBenchResult> {
  const budget = options.budgetS ?? 2;
  const own = !options.backend;
  const gpu = options.backend ?? (await createWebGPUBackend({ allowFallbackAdapter: true, ...options }));
  const be: Backend = gpu;
  try {
    manualSeed(0);
    const sizes = [32, 256, 256, 256, 16];
    const net = new MLP(sizes, { backend: be });
    const opt = new Adam(net.parameters(), { lr: 1e-3 });
    const X = randomNormal([256, 32], 0, 1, { backend: be });
    const Y = randomNormal([256, 16], 0, 1, { backend: be });
    const step = async (): Promise<void> => {
      tidy(() => {
        opt.zeroGrad();
        const l = mseLoss(net.forward(X), Y);
        l.backward();
        opt.step();
      });
      await be.sync();
    };
    await step();
    const s0 = gpu.stats;
    await step();
    const s1 = gpu.stats;
    const tr = await timeit(step, budget, 3);
    const infer = (x: ReturnType<typeof randomNormal>) => async (): Promise<void> => {
      const y = noGrad(() => net.forward(x));
      await y.data();
      y.dispose();
    };
    const x1 = randomNormal([1, 32], 0, 1, { backend: be });
    const x32 = randomNormal([32, 32], 0, 1, { backend: be });
    const l1 = await timeit(infer(x1), budget / 2, 5);
    const l32 = await timeit(infer(x32), budget / 2, 5);
    const a = randomNormal([1024, 1024], 0, 1, { backend: be });
    const b = randomNormal([1024, 1024], 0, 1, { backend: be });
    const mm = await timeit(
      async () => {
        const c = noGrad(() => matmul(a, b));
        await be.sync();
        c.dispose();
      },
      budget,
      2,
    );
    for (const t of [X, Y, x1, x32, a, b]) t.dispose();
    net.dispose();
    opt.dispose();
    const trainSamples = 256 / tr.mean;
    return {
      backend: 'webgpu',
      path: 'wgsl',
      adapter: gpu.adapter.description || gpu.adapter.architecture || gpu.adapter.vendor,
      fallbackAdapter: gpu.adapter.isFallbackAdapter,
      train_samples_s: Math.round(trainSamples),
      train_gflops: Number(((trainSamples * MLP_FLOP_PER_SAMPLE) / 1e9).toFixed(3)),
      matmul1024_gflops: Number(((2 * 1024 ** 3) / mm.mean / 1e9).toFixed(3)),
      latency_b1_us: Math.round(l1.median * 1e6),
      latency_b32_us: Math.round(l32.median * 1e6),
      dispatches_per_step: s1.dispatches - s0.dispatches,
      submits_per_step: s1.submits - s0.submits,
      note: gpu.adapter.isFallbackAdapter
        ? 'software fallback adapter (SwiftShader, CPU emulation): figures check the plumbing only and say nothing about GPU speed'
        : 'hardware adapter',
    };
  } finally {
    if (own) gpu.dispose();
  }
}

// Stand-alone: print the figures as JSON lines.
const self = (globalThis as { process?: { argv?: string[] } }).process?.argv?.[1] ?? '';
if (/bench[\\/]webgpu\.ts$/.test(self)) {
  runWebGPUBench()
    .then((r) => {
      console.log(JSON.stringify(r));
      process.exit(0);
    })
    .catch((e: unknown) => {
      console.log(JSON.stringify({ bench: 'webgpu', note: `not run: ${e instanceof Error ? e.message : String(e)}` }));
      process.exit(0);
    });
}
