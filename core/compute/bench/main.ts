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
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Backend } from '../src/backends/backend.ts';
import { CpuBackend, availableMatmulPaths } from '../src/backends/cpu/index.ts';
import { loadBackend } from '../src/backends/registry.ts';
import { Adam, EnsembleMLP, MLP, manualSeed, mseLoss, noGrad, randomNormal, tidy, matmul } from '../src/index.ts';

const FLOP_PER_SAMPLE = 843_776; // fwd + bwd of 32-256-256-256-16 (2*3*params-ish, TOOLCHAIN.md)
const quick = process.argv.includes('--quick');
const BUDGET = quick ? 0.3 : 1.0;
const here = dirname(fileURLToPath(import.meta.url));

interface Figures {
  train_samples_s: number;
  lat1_us: number;
  lat32_us: number;
  ens_ms: number;
  mm_gflops: number;
}

async function timeit(fn: () => void | Promise<void>, budgetS = BUDGET, minIter = 5): Promise<{ median: number; mean: number }> {
  for (let i = 0; i < Math.min(3, minIter); i++) await fn();
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
  const tr = await timeit(train);
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

/** A persistent PyTorch process answering "train <seconds>" (interleaved measurements). */
async function startTorchServer(): Promise<{ train(seconds: number): Promise<number>; stop(): void } | null> {
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const child = spawn(python, [join(here, 'torch_baseline.py'), '--serve', '1'], {
    env: { ...process.env, OPENBLAS_NUM_THREADS: '2', OMP_NUM_THREADS: '1' },
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
  return {
    async train(seconds: number) {
      child.stdin.write(`train ${seconds}\n`);
      const r = JSON.parse(await next()) as { train_samples_s?: number; error?: string };
      if (r.train_samples_s === undefined) throw new Error(r.error ?? 'torch server failed');
      return r.train_samples_s;
    },
    stop() {
      child.stdin.end();
      child.kill();
    },
  };
}

/** Our training throughput (samples/s) on a backend for about `seconds`. */
async function trainThroughput(be: Backend, seconds: number): Promise<number> {
  manualSeed(0);
  const net = new MLP([32, 256, 256, 256, 16], { backend: be });
  const opt = new Adam(net.parameters(), { lr: 1e-3 });
  const X = randomNormal([256, 32], 0, 1, { backend: be });
  const Y = randomNormal([256, 16], 0, 1, { backend: be });
  const r = await timeit(async () => {
    tidy(() => {
      opt.zeroGrad();
      const l = mseLoss(net.forward(X), Y);
      l.backward();
      opt.step();
    });
    if (!be.readSync) await be.sync();
  }, seconds, 3);
  net.dispose();
  opt.dispose();
  X.dispose();
  Y.dispose();
  return 256 / r.mean;
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
  const torch = runTorch();
  if ('error' in torch) console.log(JSON.stringify({ bench: 'baseline', note: `PyTorch baseline missing: ${torch.error}; ratios are null` }));
  else console.log(JSON.stringify({ bench: 'baseline', note: `PyTorch configs tried (best per workload used): ${torch.configs.join('; ')}` }));
  const base = 'error' in torch ? null : torch.best;
  const results: { t: { backend: string; path: string }; f: Figures }[] = [];
  const targets: { backend: string; path: string; be: Backend }[] = availableMatmulPaths().map((p) => ({ backend: 'cpu', path: p.name, be: new CpuBackend(p) }));
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
    emit('mlp-train-gflops', t.backend, t.path, (f.train_samples_s * FLOP_PER_SAMPLE) / 1e9, 'GFLOP/s', base ? (base.train_samples_s * FLOP_PER_SAMPLE) / 1e9 : null, true);
    emit('mlp-latency-b1', t.backend, t.path, f.lat1_us, 'us', base?.lat1_us ?? null, false);
    emit('mlp-latency-b32', t.backend, t.path, f.lat32_us, 'us', base?.lat32_us ?? null, false);
    emit('ensemble-4x-b4096', t.backend, t.path, f.ens_ms, 'ms', base?.ens_ms ?? null, false);
    emit('matmul-1024', t.backend, t.path, f.mm_gflops, 'GFLOP/s', base?.mm_gflops ?? null, true);
  }
  // Interleaved training comparison: PyTorch (torch 1 thread, OpenBLAS 2) and ours alternate
  // in short rounds so both see the same machine load; the median ratio is reported.
  const server = 'error' in torch ? null : await startTorchServer();
  if (server) {
    for (const t of targets) {
      if (t.path === 'js') continue;
      const ours: number[] = [];
      const theirs: number[] = [];
      const ratios: number[] = [];
      for (let round = 0; round < (quick ? 3 : 7); round++) {
        // Idle gaps let the other side's BLAS threads stop spinning before each measurement.
        await new Promise((r) => setTimeout(r, 300));
        const a = await server.train(BUDGET / 2);
        await new Promise((r) => setTimeout(r, 300));
        const b = await trainThroughput(t.be, BUDGET / 2);
        theirs.push(a);
        ours.push(b);
        ratios.push(b / a);
      }
      console.log(
        JSON.stringify({
          bench: 'mlp-train-interleaved',
          backend: t.backend,
          path: t.path,
          value: Number(median(ours).toPrecision(5)),
          unit: 'samples/s',
          baseline: `pytorch ${Number(median(theirs).toPrecision(5))} samples/s (torch 1 thread + OpenBLAS 2, median of ${ratios.length} alternating rounds)`,
          ratio: Number(median(ratios).toFixed(3)),
        }),
      );
    }
    server.stop();
  }
  process.exit(0);
}

void main();
