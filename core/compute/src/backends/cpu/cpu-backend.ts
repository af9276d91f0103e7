/**
 * The CPU backend: buffers are Float32Arrays; kernels run synchronously on dispatch. Hot kernels
 * (matmul with fused bias/activation in every transpose variant) go through a pluggable
 * {@link MatmulPath}: native OpenBLAS (Node, when the addon built), WebAssembly SIMD (optionally
 * on a worker pool), or plain JS as the last fallback. A path may also take over elementwise,
 * reduction, softmax, layer-norm and optimizer kernels (the wasm paths run them in wasm SIMD,
 * see `wasm-elementwise.ts`); whatever it declines runs in `js-kernels.ts`, the reference.
 */
import type {
  ActivationGradKernel,
  AdamKernel,
  Backend,
  BackendBuffer,
  BackendCapabilities,
  BinaryKernel,
  KernelDescriptor,
  LayerNormGradKernel,
  LayerNormKernel,
  MatmulKernel,
  ReduceKernel,
  SoftmaxKernel,
  UnaryGradKernel,
  UnaryKernel,
} from '../backend.ts';
import {
  activationGradJs,
  adamJs,
  binaryJs,
  copyJs,
  gatherJs,
  layerNormGradJs,
  layerNormJs,
  matmulJs,
  randomJs,
  reduceJs,
  scatterAddJs,
  softmaxJs,
  unaryGradJs,
  unaryJs,
  whereJs,
} from './js-kernels.ts';

/**
 * Write generations of CPU arrays: bumped on every write/dispatch output/reuse. Fast paths that
 * keep copies of operands (the wasm paths keep matmul operands resident in linear memory) use it
 * to know whether their copy is still current.
 */
const generations = new WeakMap<Float32Array, number>();
let generationCounter = 1;

/** Current write generation of an array (0 if never written through the backend). */
export function generationOf(a: Float32Array): number {
  return generations.get(a) ?? 0;
}

function bump(a: Float32Array): void {
  generations.set(a, generationCounter++);
}

/** @internal Marks `a` as rewritten (for paths that update arrays in place, see `adamBumps`). */
export const bumpGeneration = bump;

/** A CPU buffer: a Float32Array of exactly `length` elements. */
export interface CpuBuffer extends BackendBuffer {
  readonly backend: 'cpu';
  data: Float32Array;
}

/** A matmul implementation the CPU backend can route to. */
export interface MatmulPath {
  /** 'js' | 'wasm-simd' | 'wasm-simd-mt' | 'native-blas'. */
  readonly name: string;
  /** Runs the kernel (see MatmulKernel); must handle every field. */
  matmul(k: MatmulKernel, a: Float32Array, b: Float32Array, bias: Float32Array | null, c: Float32Array): void;
  /** Optional faster Adam step (same semantics as `adamJs`). */
  adam?(k: AdamKernel, p: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array): void;
  /**
   * The path's `adam` bumps the write generations of p, m and v itself (after reading its
   * resident copies of them, before remembering the updated ones), so that state which only
   * the optimizer touches stays resident between steps. Otherwise the backend bumps them.
   */
  adamBumps?: boolean;
  /** Optional faster activation gradient (for 'silu' the second input is the pre-activation). */
  activationGrad?(k: ActivationGradKernel, dy: Float32Array, y: Float32Array, dx: Float32Array): void;
  /** Optional faster column sums: out[j] = sum_i x[i*cols + j]. */
  sumRows?(x: Float32Array, rows: number, cols: number, out: Float32Array): void;
  // Optional faster kernels below return false to decline a descriptor (the JS kernel runs).
  unary?(k: UnaryKernel, x: Float32Array, y: Float32Array): boolean;
  unaryGrad?(k: UnaryGradKernel, dy: Float32Array, x: Float32Array, y: Float32Array, dx: Float32Array): boolean;
  binary?(k: BinaryKernel, a: Float32Array, b: Float32Array, out: Float32Array): boolean;
  reduce?(k: ReduceKernel, x: Float32Array, y: Float32Array): boolean;
  softmax?(k: SoftmaxKernel, x: Float32Array, y: Float32Array): boolean;
  layerNorm?(k: LayerNormKernel, x: Float32Array, gamma: Float32Array | null, beta: Float32Array | null, y: Float32Array, mean: Float32Array, rstd: Float32Array): boolean;
  layerNormGrad?(
    k: LayerNormGradKernel, dy: Float32Array, x: Float32Array, mean: Float32Array, rstd: Float32Array, gamma: Float32Array | null,
    dx: Float32Array, dgamma: Float32Array | null, dbeta: Float32Array | null,
  ): boolean;
  /** dst[0, n) += src[0, n) (gradient accumulation). */
  accumulate?(dst: Float32Array, src: Float32Array, n: number): boolean;
}

/** The plain-JS matmul path. */
export const jsMatmulPath: MatmulPath = { name: 'js', matmul: matmulJs };

/** CPU backend. Create through {@link createCpuBackend} or the registry. */
export class CpuBackend implements Backend {
  readonly name = 'cpu';
  readonly capabilities: BackendCapabilities;
  private path: MatmulPath;

  constructor(path: MatmulPath = jsMatmulPath) {
    this.path = path;
    this.capabilities = { syncRead: true, gpu: false, maxBufferLength: 2 ** 30, path: path.name };
  }

  /** The active matmul path. */
  get matmulPath(): MatmulPath {
    return this.path;
  }

  /** Switches the matmul path (benchmarks compare paths on one backend). */
  setMatmulPath(path: MatmulPath): void {
    this.path = path;
    this.capabilities.path = path.name;
  }

  /**
   * Free lists by exact length: training loops allocate the same shapes every step, so reusing
   * arrays avoids page faults and GC. Bounded by `poolLimitBytes`.
   */
  private readonly pool = new Map<number, Float32Array[]>();
  private pooledBytes = 0;
  /** Upper bound of memory kept in the free lists (bytes). */
  poolLimitBytes = 256 * 1024 * 1024;

  alloc(length: number): CpuBuffer {
    if (length > this.capabilities.maxBufferLength) throw new RangeError(`cpu: buffer of ${length} floats too large`);
    const list = this.pool.get(length);
    const reused = list?.pop();
    if (reused) {
      this.pooledBytes -= length * 4;
      reused.fill(0);
      bump(reused);
      return { length, backend: 'cpu', data: reused };
    }
    return { length, backend: 'cpu', data: new Float32Array(length) };
  }

  free(buffer: BackendBuffer): void {
    const b = buffer as CpuBuffer;
    const d = b.data;
    b.data = EMPTY;
    if (d.length < 64 || d === EMPTY || this.pooledBytes + d.length * 4 > this.poolLimitBytes) return;
    let list = this.pool.get(d.length);
    if (!list) {
      list = [];
      this.pool.set(d.length, list);
    }
    list.push(d);
    this.pooledBytes += d.length * 4;
  }

  /** Drops the free lists (returns memory to the GC). */
  trimPool(): void {
    this.pool.clear();
    this.pooledBytes = 0;
  }

  write(buffer: BackendBuffer, data: Float32Array, offset = 0): void {
    const d = (buffer as CpuBuffer).data;
    d.set(data, offset);
    bump(d);
  }

  read(buffer: BackendBuffer): Promise<Float32Array> {
    return Promise.resolve((buffer as CpuBuffer).data.slice());
  }

  readSync(buffer: BackendBuffer): Float32Array {
    return (buffer as CpuBuffer).data.slice();
  }

  sync(): Promise<void> {
    return Promise.resolve();
  }

  dispatch(k: KernelDescriptor, inputs: readonly BackendBuffer[], outputs: readonly BackendBuffer[]): void {
    const i = inputs as readonly CpuBuffer[];
    const o = outputs as readonly CpuBuffer[];
    const in0 = i[0]?.data ?? EMPTY;
    const out0 = o[0]!.data;
    // Outputs change: new generation BEFORE the kernel (a fast path may record it as current).
    // Adam updates in place; its generations are bumped after it read them (see adamBumps).
    if (k.kind !== 'adam') for (let j = 0; j < o.length; j++) bump(o[j]!.data);
    const p = this.path;
    switch (k.kind) {
      case 'matmul': p.matmul(k, in0, i[1]!.data, k.bias ? i[2]!.data : null, out0); return;
      case 'unary': if (!p.unary?.(k, in0, out0)) unaryJs(k, in0, out0); return;
      case 'unary-grad': if (!p.unaryGrad?.(k, in0, i[1]!.data, i[2]!.data, out0)) unaryGradJs(k, in0, i[1]!.data, i[2]!.data, out0); return;
      case 'binary': if (!p.binary?.(k, in0, i[1]!.data, out0)) binaryJs(k, in0, i[1]!.data, out0); return;
      case 'where': whereJs(k, in0, i[1]!.data, i[2]!.data, out0); return;
      case 'activation-grad':
        if (p.activationGrad) p.activationGrad(k, in0, i[1]!.data, out0);
        else activationGradJs(k, in0, i[1]!.data, out0);
        return;
      case 'reduce': {
        const r = k.shape.length;
        if (p.sumRows && !p.reduce && k.op === 'sum' && r >= 2 && k.axes.length === r - 1 && k.axes[r - 2] === r - 2) {
          const cols = k.shape[r - 1]!;
          p.sumRows(in0, cols ? in0.length / cols : 0, cols, out0);
        } else if (!p.reduce?.(k, in0, out0)) reduceJs(k, in0, out0);
        return;
      }
      case 'softmax': if (!p.softmax?.(k, in0, out0)) softmaxJs(k, in0, out0); return;
      case 'gather': gatherJs(k, in0, i[1]!.data, out0); return;
      case 'scatter-add': scatterAddJs(k, in0, i[1]!.data, out0); return;
      case 'copy': {
        const n = k.shape.length === 1 ? k.shape[0]! : -1;
        const flat = n >= 0 && k.accumulate && k.srcStrides[0] === 1 && k.dstStrides[0] === 1 && k.srcOffset === 0 && k.dstOffset === 0 && in0.length === n && out0.length === n;
        if (!(flat && p.accumulate?.(out0, in0, n))) copyJs(k, in0, out0);
        return;
      }
      case 'fill': out0.fill(k.value, 0, k.size); return;
      case 'random': randomJs(k, out0); return;
      case 'adam':
        if (p.adam) p.adam(k, in0, i[1]!.data, i[2]!.data, i[3]!.data);
        else adamJs(k, in0, i[1]!.data, i[2]!.data, i[3]!.data);
        if (!(p.adam && p.adamBumps)) for (let j = 0; j < o.length; j++) bump(o[j]!.data);
        return;
      case 'layer-norm': {
        let j = 1;
        const gamma = k.gamma ? i[j++]!.data : null;
        const beta = k.beta ? i[j++]!.data : null;
        const mean = o[1]!.data;
        const rstd = o[2]!.data;
        if (!p.layerNorm?.(k, in0, gamma, beta, out0, mean, rstd)) layerNormJs(k, in0, gamma, beta, out0, mean, rstd);
        return;
      }
      case 'layer-norm-grad': {
        const gamma = k.gamma ? i[4]!.data : null;
        let j = 1;
        const dgamma = k.gamma ? o[j++]!.data : null;
        const dbeta = k.beta ? o[j++]!.data : null;
        const x = i[1]!.data, mean = i[2]!.data, rstd = i[3]!.data;
        if (!p.layerNormGrad?.(k, in0, x, mean, rstd, gamma, out0, dgamma, dbeta)) layerNormGradJs(k, in0, x, mean, rstd, gamma, out0, dgamma, dbeta);
        return;
      }
    }
  }
}

const EMPTY = new Float32Array(0);

/** Creates a CPU backend on the plain-JS path (callers upgrade the path with `setMatmulPath`). */
export function createCpuBackend(path?: MatmulPath): CpuBackend {
  return new CpuBackend(path);
}
