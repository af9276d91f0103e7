/**
 * The CPU backend: buffers are Float32Arrays; kernels run synchronously on dispatch. Hot kernels
 * (matmul with fused bias/activation in every transpose variant) go through a pluggable
 * {@link MatmulPath}: native OpenBLAS (Node, when the addon built), WebAssembly SIMD (optionally
 * on a worker pool), or plain JS as the last fallback. Everything else uses `js-kernels.ts`.
 */
import type { ActivationGradKernel, AdamKernel, Backend, BackendBuffer, BackendCapabilities, KernelDescriptor, MatmulKernel } from '../backend.ts';
import {
  activationGradJs,
  adamJs,
  binaryJs,
  copyJs,
  gatherJs,
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
  /** Optional faster activation gradient (never called for 'silu'). */
  activationGrad?(k: ActivationGradKernel, dy: Float32Array, y: Float32Array, dx: Float32Array): void;
  /** Optional faster column sums: out[j] = sum_i x[i*cols + j]. */
  sumRows?(x: Float32Array, rows: number, cols: number, out: Float32Array): void;
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
    for (let j = 0; j < o.length; j++) bump(o[j]!.data);
    switch (k.kind) {
      case 'matmul': this.path.matmul(k, in0, i[1]!.data, k.bias ? i[2]!.data : null, out0); return;
      case 'unary': unaryJs(k, in0, out0); return;
      case 'unary-grad': unaryGradJs(k, in0, i[1]!.data, i[2]!.data, out0); return;
      case 'binary': binaryJs(k, in0, i[1]!.data, out0); return;
      case 'where': whereJs(k, in0, i[1]!.data, i[2]!.data, out0); return;
      case 'activation-grad':
        if (this.path.activationGrad && k.activation !== 'silu') this.path.activationGrad(k, in0, i[1]!.data, out0);
        else activationGradJs(k, in0, i[1]!.data, out0);
        return;
      case 'reduce': {
        const r = k.shape.length;
        if (this.path.sumRows && k.op === 'sum' && r >= 2 && k.axes.length === r - 1 && k.axes[r - 2] === r - 2) {
          const cols = k.shape[r - 1]!;
          this.path.sumRows(in0, cols ? in0.length / cols : 0, cols, out0);
        } else reduceJs(k, in0, out0);
        return;
      }
      case 'softmax': softmaxJs(k, in0, out0); return;
      case 'gather': gatherJs(k, in0, i[1]!.data, out0); return;
      case 'scatter-add': scatterAddJs(k, in0, i[1]!.data, out0); return;
      case 'copy': copyJs(k, in0, out0); return;
      case 'fill': out0.fill(k.value, 0, k.size); return;
      case 'random': randomJs(k, out0); return;
      case 'adam':
        if (this.path.adam) this.path.adam(k, in0, i[1]!.data, i[2]!.data, i[3]!.data);
        else adamJs(k, in0, i[1]!.data, i[2]!.data, i[3]!.data);
        return;
    }
  }
}

const EMPTY = new Float32Array(0);

/** Creates a CPU backend on the plain-JS path (callers upgrade the path with `setMatmulPath`). */
export function createCpuBackend(path?: MatmulPath): CpuBackend {
  return new CpuBackend(path);
}
