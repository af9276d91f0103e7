/**
 * Runs inside a module Web Worker of a cross-origin isolated page (see `cpu-pool.test.ts`):
 * starts the multi-threaded wasm SIMD pool the way a browser must (`prepareCpuBackend`, without
 * blocking), checks that the CPU backend picked it, compares its matmuls with the plain JS
 * kernels over the transpose variants, batches, bias + activation epilogues and accumulation,
 * and trains a small MLP on it. Posts one report.
 */
import * as C from '../../src/index.ts';
import type { MatmulKernel } from '../../src/backends/backend.ts';

/** What the worker reports. */
export interface PoolReport {
  isolated: boolean;
  cores: number;
  poolStarted: boolean;
  selected: string;
  paths: string[];
  checks: { name: string; ok: boolean; detail: string }[];
  firstLoss: number;
  lastLoss: number;
  error?: string;
}

function rand(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 32 - 0.5;
  }
  return out;
}

async function run(): Promise<PoolReport> {
  const report: PoolReport = {
    isolated: (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true,
    cores: navigator.hardwareConcurrency,
    poolStarted: false,
    selected: '',
    paths: [],
    checks: [],
    firstLoss: NaN,
    lastLoss: NaN,
  };
  report.poolStarted = await C.prepareWasmPool();
  const backend = await C.prepareCpuBackend();
  report.selected = C.selectMatmulPath().name;
  const paths = C.availableMatmulPaths();
  report.paths = paths.map((p) => p.name);
  const mt = paths.find((p) => p.name === 'wasm-simd-mt');
  const cases: [string, Partial<MatmulKernel>][] = [
    ['256x384x320 plain', { m: 256, n: 384, k: 320 }],
    ['transA', { m: 200, n: 264, k: 300, transA: true }],
    ['transB', { m: 200, n: 264, k: 300, transB: true }],
    ['transA+transB', { m: 136, n: 200, k: 512, transA: true, transB: true }],
    ['bias+relu', { m: 300, n: 256, k: 256, bias: true, activation: 'relu' }],
    ['bias+tanh', { m: 300, n: 256, k: 256, bias: true, activation: 'tanh' }],
    ['accumulate alpha', { m: 128, n: 512, k: 256, accumulate: true, alpha: 0.5 }],
    ['batched ensemble (k=4) with per-member bias', { batch: 4, m: 128, n: 256, k: 256, bias: true, activation: 'relu' }],
  ];
  for (const [name, partial] of cases) {
    if (!mt) {
      report.checks.push({ name, ok: false, detail: 'wasm-simd-mt path not available' });
      continue;
    }
    const k: MatmulKernel = {
      kind: 'matmul', batch: 1, m: 1, n: 1, k: 1, transA: false, transB: false, aBatchStride: 0, bBatchStride: 0, biasBatchStride: 0,
      bias: false, activation: 'none', alpha: 1, accumulate: false, ...partial,
    };
    if (k.batch > 1) {
      k.aBatchStride = k.m * k.k;
      k.bBatchStride = k.k * k.n;
      if (k.bias) k.biasBatchStride = k.n;
    }
    const a = rand(k.batch * k.m * k.k, 1);
    const b = rand(k.batch * k.k * k.n, 2);
    const bias = k.bias ? rand(k.batch * k.n, 3) : null;
    const start = rand(k.batch * k.m * k.n, 4);
    const want = start.slice();
    const got = start.slice();
    C.jsMatmulPath.matmul(k, a, b, bias, want);
    mt.matmul(k, a, b, bias, got);
    let worst = 0;
    for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(want[i]! - got[i]!) / (1 + Math.abs(want[i]!)));
    report.checks.push({ name, ok: worst < 1e-4, detail: `max rel err ${worst.toExponential(2)}` });
  }
  // A small training run through the public API on the backend the worker selected.
  C.useBackendInstance(backend);
  const g = new C.Generator(3);
  const net = new C.MLP([8, 256, 256, 1], { activation: 'relu', generator: g });
  const opt = new C.Adam(net.parameters(), { lr: 1e-3 });
  const X = C.randomNormal([512, 8], 0, 1, { generator: g });
  const Y = C.tanh(C.matmul(X, C.randomNormal([8, 1], 0, 1, { generator: g })));
  for (let s = 0; s < 40; s++) {
    const loss = C.tidy(() => {
      opt.zeroGrad();
      const l = C.mseLoss(net.forward(X), Y);
      l.backward();
      opt.step();
      return l.item();
    });
    if (s === 0) report.firstLoss = loss;
    report.lastLoss = loss;
  }
  return report;
}

self.onmessage = () => {
  run().then(
    (r) => self.postMessage(r),
    (err: unknown) => self.postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) }),
  );
};
