/**
 * Compute-core benchmarks: `npx tsx core/compute/bench/main.ts [--quick]`.
 *
 * Prints one JSON line per figure: {"bench","backend","path","value","unit","baseline","ratio"}.
 * Workloads (identical in bench/torch_baseline.py, run in the same process tree for ratios):
 *   mlp-train       MLP 32-256-256-256-16 ReLU, batch 256, Adam, MSE: samples/s (+ GFLOP/s)
 *   mlp-latency-b1  no-grad inference at batch 1: median microseconds
 *   mlp-latency-b32 same at batch 32
 *   ensemble-4x-b4096  4-member ensemble of that MLP, shared input batch 4096: ms per forward
 *   matmul-1024     1024^3 matmul: GFLOP/s
 * Ratios: ours / PyTorch for throughput; PyTorch / ours for latency and ms (> 1 = we are faster).
 * PyTorch runs with torch threads 1 (OpenBLAS 2), 2 (OpenBLAS 1) and 1 (OpenBLAS 1); the best
 * configuration per workload is the baseline (no oversubscription of the 2 cores).
 *
 * Less noisy comparisons (the machine is shared): `mlp-train-interleaved` and
 * `resmlp-train-interleaved` alternate short rounds of PyTorch (a persistent process, torch 1
 * thread + OpenBLAS 2 threads) and ours (threads pinned: OpenBLAS 2 / wasm pool 2), after a
 * discarded warm-up round, swapping the order every round; each round's figure is the MEDIAN
 * step time, and the reported ratio is the median of the per-round ratios.
 * `elementwise-*` and `*-wasm-elementwise` compare the wasm SIMD elementwise kernels with the
 * TypeScript reference kernels (before/after, same run, also interleaved).
 * `*-train-cpu-time-1-thread` compares one compute thread on each side in samples per
 * CPU-second, which a loaded machine hardly changes (the steadiest ratio on a shared machine).
 * Sections: `--only=paths,elementwise,interleaved,cputime` (default all). The load average is printed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Backend } from '../src/backends/backend.ts';
import type { KernelDescriptor } from '../src/backends/backend.ts';
import { CpuBackend, availableMatmulPaths, jsMatmulPath, type MatmulPath } from '../src/backends/cpu/index.ts';
import { nativeBlasPath, setNativeThreads } from '../src/backends/cpu/native-blas.ts';
import { wasmSimdMtPath } from '../src/backends/cpu/wasm-pool.ts';
import { wasmSimdPath } from '../src/backends/cpu/wasm-simd.ts';
import { loadBackend } from '../src/backends/registry.ts';
import { Adam, EnsembleMLP, MLP, ResidualMLP, layerNorm, layerNormComposed, manualSeed, mseLoss, noGrad, randomNormal, sum, mul, tidy, matmul, type Module } from '../src/index.ts';

const FLOP_PER_SAMPLE = 843_776; // fwd + bwd of 32-256-256-256-16 (2*3*params-ish, TOOLCHAIN.md)
const quick = process.argv.includes('--quick');
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = new Set(onlyArg ? onlyArg.slice(7).split(',') : ['paths', 'elementwise', 'interleaved', 'cputime']);
const BUDGET = quick ? 0.3 : 1.0;
const here = dirname(fileURLToPath(import.meta.url));

interface Figures {
  train_samples_s: number;
  /** Ours only: samples/s over the first 10 steps of a fresh network. */
  cold_samples_s?: number;
  lat1_us: number;
  lat32_us: number;
  ens_ms: number;
  mm_gflops: number;
}

/**
 * Times `fn`: `warmup` calls first (default min(3, minIter)) and, with `warmupS`, at least that
 * many seconds of calls, none of them counted.
 */
async function timeit(fn: () => void | Promise<void>, budgetS = BUDGET, minIter = 5, warmup = Math.min(3, minIter), warmupS = 0): Promise<{ median: number; mean: number }> {
  const warmEnd = performance.now() + warmupS * 1000;
  for (let i = 0; i < warmup || performance.now() < warmEnd; i++) await fn();
  const times: number[] = [];
  const end = performance.now() + budgetS * 1000;
  while (times.length < minIter || performance.now() < end) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
    if (times.length > 100_000) break;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1]! / 1000, mean: times.reduce((a, b) => a + b, 0) / times.length / 1000 };
}

async function runOurs(be: Backend): Promise<Figures> {
  manualSeed(0);
  const sizes = [32, 256, 256, 256, 16];
  const net = new MLP(sizes, { backend: be });
  const opt = new Adam(net.parameters(), { lr: 1e-3 });
  const X = randomNormal([256, 32], 0, 1, { backend: be });
  const Y = randomNormal([256, 16], 0, 1, { backend: be });
  const sync = be.capabilities.syncRead ? () => {} : null;
  const train = async () => {
    tidy(() => {
      opt.zeroGrad();
      const l = mseLoss(net.forward(X), Y);
      l.backward();
      opt.step();
    });
    if (!sync) await be.sync();
  };
  // Throughput = MEAN step time (GC pauses included) after a warm-up of 10 steps and a quarter of
  // the budget, the same on the PyTorch side (torch_baseline.py). Before, 3 warm-up steps: a new
  // backend's first steps then dominated the mean (see the README, "Per-path section vs the
  // interleaved sections").
  // The first 10 steps of the fresh network are timed separately (`mlp-train-first-10-steps`,
  // no PyTorch counterpart) so that a cold-start cost stays visible.
  const cold0 = performance.now();
  for (let i = 0; i < 10; i++) await train();
  const coldS = (performance.now() - cold0) / 1000 / 10;
  const tr = await timeit(train, BUDGET, 5, 0, BUDGET / 4);
  const x1 = randomNormal([1, 32], 0, 1, { backend: be });
  const x32 = randomNormal([32, 32], 0, 1, { backend: be });
  const infer = (x: typeof x1) => async () => {
    const y = noGrad(() => net.forward(x));
    if (be.readSync) be.readSync(y.buffer);
    else await y.data();
    y.dispose();
  };
  const l1 = await timeit(infer(x1));
  const l32 = await timeit(infer(x32));
  const ens = new EnsembleMLP(4, sizes, { backend: be });
  const xe = randomNormal([4096, 32], 0, 1, { backend: be });
  const slow = be.capabilities.path === 'js';
  const en = await timeit(async () => {
    const y = noGrad(() => ens.forward(xe));
    if (!be.readSync) await y.data();
    y.dispose();
  }, BUDGET, slow ? 1 : 3);
  const a = randomNormal([1024, 1024], 0, 1, { backend: be });
  const b = randomNormal([1024, 1024], 0, 1, { backend: be });
  const mm = await timeit(async () => {
    const c = noGrad(() => matmul(a, b));
    if (!be.readSync) await c.data();
    c.dispose();
  }, BUDGET, slow ? 1 : 3);
  for (const t of [X, Y, x1, x32, xe, a, b]) t.dispose();
  net.dispose();
  ens.dispose();
  opt.dispose();
  return {
    train_samples_s: 256 / tr.mean,
    cold_samples_s: 256 / coldS,
    lat1_us: l1.median * 1e6,
    lat32_us: l32.median * 1e6,
    ens_ms: en.mean * 1e3,
    mm_gflops: (2 * 1024 ** 3) / mm.mean / 1e9,
  };
}

function runTorch(): { best: Figures; configs: string[] } | { error: string } {
  const script = join(here, 'torch_baseline.py');
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const configs: [number, number][] = [[1, 2], [2, 1], [1, 1]];
  const results: (Figures & { label: string })[] = [];
  for (const [tt, bt] of configs) {
    const r = spawnSync(python, [script, String(tt), String(BUDGET)], {
      encoding: 'utf8',
      env: { ...process.env, OPENBLAS_NUM_THREADS: String(bt), OMP_NUM_THREADS: String(tt) },
      timeout: 300_000,
    });
    if (r.status !== 0) return { error: `python failed: ${r.stderr?.slice(-400) ?? r.error?.message}` };
    const line = r.stdout.trim().split('\n').pop() ?? '';
    const j = JSON.parse(line) as Partial<Figures> & { error?: string };
    if (j.error) return { error: j.error };
    results.push({ ...(j as Figures), label: `torch-threads=${tt},openblas-threads=${bt}` });
  }
  const best: Figures = {
    train_samples_s: Math.max(...results.map((r) => r.train_samples_s)),
    lat1_us: Math.min(...results.map((r) => r.lat1_us)),
    lat32_us: Math.min(...results.map((r) => r.lat32_us)),
    ens_ms: Math.min(...results.map((r) => r.ens_ms)),
    mm_gflops: Math.max(...results.map((r) => r.mm_gflops)),
  };
  return { best, configs: results.map((r) => `${r.label}: ${Math.round(r.train_samples_s)} samples/s`) };
}

interface TorchServer {
  /** Samples/s from the median step time. */
  train(seconds: number, model?: 'mlp' | 'resmlp'): Promise<number>;
  /** Samples per CPU-second of the PyTorch process. */
  trainCpu(seconds: number, model?: 'mlp' | 'resmlp'): Promise<number>;
  stop(): void;
}

/** A persistent PyTorch process (torch 1 thread, `blasThreads` OpenBLAS threads). */
async function startTorchServer(blasThreads = 2): Promise<TorchServer | null> {
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const child = spawn(python, [join(here, 'torch_baseline.py'), '--serve', '1'], {
    env: { ...process.env, OPENBLAS_NUM_THREADS: String(blasThreads), OMP_NUM_THREADS: '1' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines: string[] = [];
  const waiters: ((l: string) => void)[] = [];
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const l = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const w = waiters.shift();
      if (w) w(l);
      else lines.push(l);
    }
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
    for (const w of waiters.splice(0)) w('{"error":"torch server exited"}');
  });
  const next = () =>
    new Promise<string>((res) => {
      const l = lines.shift();
      if (l !== undefined) return res(l);
      if (exited) return res('{"error":"torch server exited"}');
      waiters.push(res);
    });
  try {
    const first = JSON.parse(await next()) as { ready?: boolean };
    if (!first.ready) throw new Error('not ready');
  } catch {
    child.kill();
    return null;
  }
  const ask = async (seconds: number, model: 'mlp' | 'resmlp') => {
    child.stdin.write(`${model === 'mlp' ? 'train' : 'train_res'} ${seconds}\n`);
    const r = JSON.parse(await next()) as { train_samples_s?: number; cpu_samples_s?: number; error?: string };
    if (r.train_samples_s === undefined || r.cpu_samples_s === undefined) throw new Error(r.error ?? 'torch server failed');
    return r as { train_samples_s: number; cpu_samples_s: number };
  };
  return {
    async train(seconds: number, model: 'mlp' | 'resmlp' = 'mlp') {
      return (await ask(seconds, model)).train_samples_s;
    },
    async trainCpu(seconds: number, model: 'mlp' | 'resmlp' = 'mlp') {
      return (await ask(seconds, model)).cpu_samples_s;
    },
    stop() {
      child.stdin.end();
      child.kill();
    },
  };
}

/** The networks of the training workloads (identical in torch_baseline.py). */
function makeNet(model: 'mlp' | 'resmlp', be: Backend): Module & { forward(x: ReturnType<typeof randomNormal>): ReturnType<typeof randomNormal> } {
  return model === 'mlp'
    ? new MLP([32, 256, 256, 256, 16], { backend: be })
    : new ResidualMLP(32, 16, { hidden: 256, blocks: 3, activation: 'silu', backend: be });
}

/**
 * A prepared training loop; `run(seconds)` returns samples/s from the MEDIAN step time,
 * `runCpu(seconds)` samples per CPU-second of this process (for 1-thread comparisons).
 */
function trainer(be: Backend, model: 'mlp' | 'resmlp' = 'mlp'): { run(seconds: number): Promise<number>; runCpu(seconds: number): Promise<number>; dispose(): void } {
  manualSeed(0);
  const net = makeNet(model, be);
  const opt = new Adam(net.parameters(), { lr: 1e-3 });
  const X = randomNormal([256, 32], 0, 1, { backend: be });
  const Y = randomNormal([256, 16], 0, 1, { backend: be });
  const step = async () => {
    tidy(() => {
      opt.zeroGrad();
      const l = mseLoss(net.forward(X), Y);
      l.backward();
      opt.step();
    });
    if (!be.readSync) await be.sync();
  };
  return {
    async run(seconds) {
      const r = await timeit(step, seconds, 5);
      return 256 / r.median;
    },
    async runCpu(seconds) {
      let steps = 0;
      const c0 = process.cpuUsage();
      await timeit(async () => {
        steps++;
        await step();
      }, seconds, 5);
      const c = process.cpuUsage(c0);
      return (256 * steps) / ((c.user + c.system) / 1e6);
    },
    dispose() {
      net.dispose();
      opt.dispose();
      X.dispose();
      Y.dispose();
    },
  };
}

/** Our training throughput (samples/s, median step) on a backend for about `seconds`. */
async function trainThroughput(be: Backend, seconds: number, model: 'mlp' | 'resmlp' = 'mlp'): Promise<number> {
  const t = trainer(be, model);
  try {
    return await t.run(seconds);
  } finally {
    t.dispose();
  }
}

/**
 * Alternates two measurements in rounds (a discarded warm-up round first, the order swapped
 * every round, a short idle gap before each so the other side's threads stop spinning).
 * Returns the medians of both, the median of the per-round ratios a / b, and the ratio of the
 * best rounds (contention only ever slows a round down, so best-of-rounds is the other robust view).
 */
async function interleave(rounds: number, a: () => Promise<number>, b: () => Promise<number>): Promise<{ a: number; b: number; ratio: number; ratios: number[]; best: number }> {
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  const gap = () => new Promise((r) => setTimeout(r, 200));
  for (let round = -1; round < rounds; round++) {
    let x: number;
    let y: number;
    if (round % 2 === 0) {
      await gap();
      x = await a();
      await gap();
      y = await b();
    } else {
      await gap();
      y = await b();
      await gap();
      x = await a();
    }
    if (round < 0) continue; // warm-up
    as.push(x);
    bs.push(y);
    ratios.push(x / y);
  }
  return { a: median(as), b: median(bs), ratio: median(ratios), ratios, best: Math.max(...as) / Math.max(...bs) };
}

function loadNote(when: string): void {
  const [l1, l5] = loadavg();
  console.log(JSON.stringify({ bench: 'load', note: `${when}: load average ${l1!.toFixed(2)} (1 min), ${l5!.toFixed(2)} (5 min) on ${availableParallelism()} cores` }));
}

/** Median microseconds of one kernel dispatch (inputs random, output preallocated). */
function kernelUs(be: CpuBackend, k: KernelDescriptor, inLens: number[], outLens: number[]): number {
  const ib = inLens.map((n) => {
    const b = be.alloc(n);
    be.write(b, Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37) * 2));
    return b;
  });
  const ob = outLens.map((n) => be.alloc(n));
  const reps = 20;
  for (let i = 0; i < reps; i++) be.dispatch(k, ib, ob);
  const times: number[] = [];
  for (let r = 0; r < (quick ? 7 : 21); r++) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) be.dispatch(k, ib, ob);
    times.push(((performance.now() - t) / reps) * 1000);
  }
  for (const b of [...ib, ...ob]) be.free(b);
  return median(times);
}

/** Elementwise kernels: wasm SIMD vs the TypeScript reference on [256, 256] (the hidden activations). */
function elementwiseSection(): void {
  const wasm = wasmSimdPath();
  if (!wasm) {
    console.log(JSON.stringify({ bench: 'elementwise', note: 'wasm SIMD unavailable: not measured' }));
    return;
  }
  const fast = new CpuBackend(wasm);
  const ts = new CpuBackend(jsMatmulPath);
  const n = 256 * 256;
  const cases: [string, KernelDescriptor, number[], number[]][] = [
    ['add', { kind: 'binary', op: 'add', outShape: [256, 256], aShape: [256, 256], bShape: [256, 256] }, [n, n], [n]],
    ['add-bias-broadcast', { kind: 'binary', op: 'add', outShape: [256, 256], aShape: [256, 256], bShape: [1, 256] }, [n, 256], [n]],
    ['mul', { kind: 'binary', op: 'mul', outShape: [256, 256], aShape: [256, 256], bShape: [256, 256] }, [n, n], [n]],
    ['div-column-broadcast', { kind: 'binary', op: 'div', outShape: [256, 256], aShape: [256, 256], bShape: [256, 1] }, [n, 256], [n]],
    ...(['relu', 'leaky-relu', 'tanh', 'sigmoid', 'silu', 'softplus', 'exp', 'log'] as const).map(
      (op): [string, KernelDescriptor, number[], number[]] => [op, { kind: 'unary', op, size: n, alpha: 0.01, beta: 0 }, [n], [n]],
    ),
    ...(['relu', 'tanh', 'silu', 'sigmoid'] as const).map(
      (op): [string, KernelDescriptor, number[], number[]] => [`${op}-grad`, { kind: 'unary-grad', op, size: n, alpha: 0, beta: 0 }, [n, n, n], [n]],
    ),
    ['sum-rows', { kind: 'reduce', op: 'sum', shape: [256, 256], axes: [0] }, [n], [256]],
    ['softmax-rows', { kind: 'softmax', op: 'softmax', outer: 256, size: 256, inner: 1 }, [n], [n]],
    ['layer-norm', { kind: 'layer-norm', rows: 256, size: 256, eps: 1e-5, gamma: true, beta: true }, [n, 256, 256], [n, 256, 256]],
    ['layer-norm-grad', { kind: 'layer-norm-grad', rows: 256, size: 256, gamma: true, beta: true }, [n, n, 256, 256, 256], [n, 256, 256]],
    ['adam', { kind: 'adam', size: n, lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01, decoupled: true, bc1: 0.1, bc2: 0.001, gradScale: 1 }, [n, n, n, n], []],
  ];
  for (const [name, k, ins, outs] of cases) {
    // adam is in place: its outputs are inputs 0, 2, 3
    const outLens = k.kind === 'adam' ? [] : outs;
    const run = (be: CpuBackend) => (k.kind === 'adam' ? adamUs(be, k, n) : kernelUs(be, k, ins, outLens));
    const t = run(ts);
    const w = run(fast);
    console.log(JSON.stringify({ bench: `elementwise-${name}-256x256`, backend: 'cpu', path: 'wasm-simd', value: Number(w.toPrecision(4)), unit: 'us', baseline: `typescript ${Number(t.toPrecision(4))} us`, ratio: Number((t / w).toFixed(2)) }));
  }
  // Fused layer norm (one kernel each way) vs the composed ops, forward + backward, on autograd.
  for (const [label, be] of [['wasm-simd', fast], ['js', ts]] as const) {
    const x = randomNormal([256, 256], 0, 1, { backend: be }).requireGrad();
    const g = randomNormal([256], 1, 0.1, { backend: be }).requireGrad();
    const b = randomNormal([256], 0, 0.1, { backend: be }).requireGrad();
    const r = randomNormal([256, 256], 0, 1, { backend: be });
    const lnUs = (f: typeof layerNorm) => {
      const once = () => tidy(() => {
        sum(mul(f(x, g, b), r)).backward();
        for (const t of [x, g, b]) { t.grad?.dispose(); t.grad = null; }
      });
      for (let i = 0; i < 5; i++) once();
      const times: number[] = [];
      for (let i = 0; i < (quick ? 9 : 31); i++) {
        const t0 = performance.now();
        once();
        times.push((performance.now() - t0) * 1000);
      }
      return median(times);
    };
    const composed = lnUs(layerNormComposed);
    const fused = lnUs(layerNorm);
    console.log(JSON.stringify({ bench: 'layer-norm-fused-fwd-bwd-256x256', backend: 'cpu', path: label, value: Number(fused.toPrecision(4)), unit: 'us', baseline: `composed ops ${Number(composed.toPrecision(4))} us`, ratio: Number((composed / fused).toFixed(2)) }));
    for (const t of [x, g, b, r]) t.dispose();
  }
}

function adamUs(be: CpuBackend, k: KernelDescriptor, n: number): number {
  const bufs = [0, 1, 2, 3].map(() => be.alloc(n));
  be.write(bufs[1]!, Float32Array.from({ length: n }, (_, i) => Math.sin(i)));
  const times: number[] = [];
  for (let r = 0; r < (quick ? 7 : 21); r++) {
    const t = performance.now();
    for (let i = 0; i < 10; i++) be.dispatch(k, bufs, [bufs[0]!, bufs[2]!, bufs[3]!]);
    times.push(((performance.now() - t) / 10) * 1000);
  }
  for (const b of bufs) be.free(b);
  return median(times);
}

/** The CPU paths with their elementwise kernels in TypeScript (the state before wasm elementwise). */
function tsElementwiseVariant(name: string): MatmulPath | null {
  if (name === 'wasm-simd') return wasmSimdPath({ elementwise: false });
  if (name === 'wasm-simd-mt') return wasmSimdMtPath({ elementwise: false });
  if (name === 'native-blas') return nativeBlasPath({ elementwise: false });
  return null;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

function emit(bench: string, backend: string, path: string, value: number, unit: string, baseline: number | null, higherIsBetter: boolean): void {
  const ratio = baseline === null ? null : higherIsBetter ? value / baseline : baseline / value;
  console.log(
    JSON.stringify({
      bench,
      backend,
      path,
      value: Number(value.toPrecision(5)),
      unit,
      baseline: baseline === null ? null : `pytorch ${Number(baseline.toPrecision(5))} ${unit}`,
      ratio: ratio === null ? null : Number(ratio.toFixed(3)),
    }),
  );
}

async function main(): Promise<void> {
  process.env.DECISIO_QUIET = '1';
  loadNote('start');
  const targets: { backend: string; path: string; be: Backend }[] = availableMatmulPaths().map((p) => ({ backend: 'cpu', path: p.name, be: new CpuBackend(p) }));
  if (only.has('paths')) {
    const torch = runTorch();
    if ('error' in torch) console.log(JSON.stringify({ bench: 'baseline', note: `PyTorch baseline missing: ${torch.error}; ratios are null` }));
    else console.log(JSON.stringify({ bench: 'baseline', note: `PyTorch configs tried (best per workload used): ${torch.configs.join('; ')}` }));
    const base = 'error' in torch ? null : torch.best;
    const results: { t: { backend: string; path: string }; f: Figures }[] = [];
    try {
      const mod = await import('../src/backends/webgpu/index.ts');
      mod.registerWebGPUBackend();
      targets.push({ backend: 'webgpu', path: 'wgsl', be: await loadBackend('webgpu') });
    } catch (e) {
      console.log(JSON.stringify({ bench: 'webgpu', note: `webgpu backend not benchmarked: ${e instanceof Error ? e.message : String(e)}` }));
    }
    for (const t of targets) results.push({ t, f: await runOurs(t.be) });
    // Second PyTorch sweep after ours: load on a shared machine drifts, so the baseline is the
    // best PyTorch figure of both sweeps (conservative for our ratios).
    if (base) {
      const again = runTorch();
      if (!('error' in again)) {
        console.log(JSON.stringify({ bench: 'baseline', note: `PyTorch second sweep: ${again.configs.join('; ')}` }));
        base.train_samples_s = Math.max(base.train_samples_s, again.best.train_samples_s);
        base.lat1_us = Math.min(base.lat1_us, again.best.lat1_us);
        base.lat32_us = Math.min(base.lat32_us, again.best.lat32_us);
        base.ens_ms = Math.min(base.ens_ms, again.best.ens_ms);
        base.mm_gflops = Math.max(base.mm_gflops, again.best.mm_gflops);
      }
    }
    for (const { t, f } of results) {
      emit('mlp-train', t.backend, t.path, f.train_samples_s, 'samples/s', base?.train_samples_s ?? null, true);
      if (f.cold_samples_s) emit('mlp-train-first-10-steps', t.backend, t.path, f.cold_samples_s, 'samples/s', null, true);
      emit('mlp-train-gflops', t.backend, t.path, (f.train_samples_s * FLOP_PER_SAMPLE) / 1e9, 'GFLOP/s', base ? (base.train_samples_s * FLOP_PER_SAMPLE) / 1e9 : null, true);
      emit('mlp-latency-b1', t.backend, t.path, f.lat1_us, 'us', base?.lat1_us ?? null, false);
      emit('mlp-latency-b32', t.backend, t.path, f.lat32_us, 'us', base?.lat32_us ?? null, false);
      emit('ensemble-4x-b4096', t.backend, t.path, f.ens_ms, 'ms', base?.ens_ms ?? null, false);
      emit('matmul-1024', t.backend, t.path, f.mm_gflops, 'GFLOP/s', base?.mm_gflops ?? null, true);
    }
    loadNote('after the per-path figures');
  }
  if (only.has('elementwise')) {
    elementwiseSection();
    // Training before/after the wasm elementwise kernels, interleaved in the same run.
    const rounds = quick ? 3 : 7;
    for (const t of targets) {
      if (t.backend !== 'cpu') continue;
      const before = tsElementwiseVariant(t.path);
      if (!before) continue;
      const beBefore = new CpuBackend(before);
      // Single-thread paths are compared in CPU time (steady under load); the pool in wall time.
      const cpu = t.path !== 'wasm-simd-mt';
      if (t.path === 'native-blas') setNativeThreads(1);
      for (const model of ['mlp', 'resmlp'] as const) {
        const after = trainer(t.be, model);
        const prev = trainer(beBefore, model);
        const r = cpu
          ? await interleave(rounds, () => after.runCpu(BUDGET / 2), () => prev.runCpu(BUDGET / 2))
          : await interleave(rounds, () => after.run(BUDGET / 2), () => prev.run(BUDGET / 2));
        after.dispose();
        prev.dispose();
        const unit = cpu ? 'samples per CPU-second' : 'samples/s';
        console.log(JSON.stringify({
          bench: `${model}-train-wasm-elementwise`, backend: 'cpu', path: `${t.path}${t.path === 'native-blas' ? ' (1 BLAS thread)' : ''}`, value: Number(r.a.toPrecision(5)), unit,
          baseline: `typescript elementwise kernels ${Number(r.b.toPrecision(5))} ${unit} (median of ${rounds} alternating rounds; per-round ratios ${r.ratios.map((x) => x.toFixed(2)).join(' ')}; best round vs best round ${r.best.toFixed(2)})`, ratio: Number(r.ratio.toFixed(3)),
        }));
      }
      if (t.path === 'native-blas') setNativeThreads(availableParallelism());
    }
    loadNote('after the elementwise figures');
  }
  // Interleaved training comparison with PyTorch (see the header): both see the same load.
  const server = only.has('interleaved') ? await startTorchServer() : null;
  if (only.has('interleaved') && !server) console.log(JSON.stringify({ bench: 'baseline', note: 'PyTorch server unavailable: no interleaved figures' }));
  if (server) {
    const rounds = quick ? 3 : 9;
    for (const model of ['mlp', 'resmlp'] as const) {
      for (const t of targets) {
        if (t.path === 'js' || t.backend !== 'cpu') continue;
        const ours = trainer(t.be, model);
        const r = await interleave(rounds, () => ours.run(BUDGET / 2), () => server.train(BUDGET / 2, model));
        ours.dispose();
        console.log(JSON.stringify({
          bench: `${model}-train-interleaved`,
          backend: t.backend,
          path: t.path,
          value: Number(r.a.toPrecision(5)),
          unit: 'samples/s',
          baseline: `pytorch ${Number(r.b.toPrecision(5))} samples/s (torch 1 thread + OpenBLAS 2; median of ${rounds} alternating rounds; per-round ratios ${r.ratios.map((x) => x.toFixed(2)).join(' ')}; best round vs best round ${r.best.toFixed(2)})`,
          ratio: Number(r.ratio.toFixed(3)),
        }));
      }
    }
    server.stop();
  }
  // One compute thread on each side, measured in CPU time (samples per CPU-second): ours on
  // the single-thread paths vs PyTorch with torch 1 thread + OpenBLAS 1 thread. A loaded machine
  // stretches wall time but hardly CPU time, so this is the steadiest ratio we can print here.
  const server1 = only.has('cputime') ? await startTorchServer(1) : null;
  if (server1) {
    const rounds = quick ? 3 : 7;
    for (const model of ['mlp', 'resmlp'] as const) {
      for (const t of targets) {
        if (t.backend !== 'cpu' || (t.path !== 'wasm-simd' && t.path !== 'native-blas')) continue;
        if (t.path === 'native-blas') setNativeThreads(1);
        const ours = trainer(t.be, model);
        const r = await interleave(rounds, () => ours.runCpu(BUDGET / 2), () => server1.trainCpu(BUDGET / 2, model));
        ours.dispose();
        if (t.path === 'native-blas') setNativeThreads(availableParallelism());
        console.log(JSON.stringify({
          bench: `${model}-train-cpu-time-1-thread`,
          backend: t.backend,
          path: t.path,
          value: Number(r.a.toPrecision(5)),
          unit: 'samples per CPU-second',
          baseline: `pytorch ${Number(r.b.toPrecision(5))} samples per CPU-second (torch 1 thread + OpenBLAS 1; median of ${rounds} alternating rounds; per-round ratios ${r.ratios.map((x) => x.toFixed(2)).join(' ')}; best round vs best round ${r.best.toFixed(2)})`,
          ratio: Number(r.ratio.toFixed(3)),
        }));
      }
    }
    server1.stop();
  }
  loadNote('end');
  process.exit(0);
}

void main();
