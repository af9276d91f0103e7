/**
 * Frozen CPU inference of an {@link MLP}: the weights are copied once into plain Float32Arrays and
 * each forward pass calls the CPU matmul path (native OpenBLAS, wasm SIMD or JS, the one chosen at
 * start-up) layer by layer with the fused bias + activation epilogue, into buffers that are kept
 * between calls. No tensor, autograd node or backend dispatch is made per call, which is what
 * dominates a forward pass of a few rows (the decision endpoint, rollouts of one state).
 *
 * Small products run OpenBLAS on one thread (the native path does that for every product of at
 * most `SINGLE_THREAD_MACS` multiply-adds): on a machine whose cores are busy (a server answering
 * HTTP next to its load), waking a second BLAS thread for a 10 x 256 x 256 product costs more than
 * the product itself.
 *
 * On the wasm paths the weights stay resident in linear memory: the snapshot's arrays are
 * marked as written once (a write generation, see `operand-cache.ts`), so they are copied in on
 * the first pass only, and the per-layer buffers (and their row-count views) are the same arrays
 * every call, so each hidden layer's output is read by the next layer without a copy. The
 * snapshot must not be modified after construction.
 */
import type { Activation, MatmulKernel } from '../backends/backend.ts';
import { selectMatmulPath, type MatmulPath } from '../backends/cpu/index.ts';
import { bumpGeneration } from '../backends/cpu/cpu-backend.ts';
import { SINGLE_THREAD_MACS } from '../backends/cpu/native-blas.ts';
import type { MLP } from './module.ts';

/** One layer: `y = act(x @ weight + bias)`, weight `[inFeatures, outFeatures]` row-major. */
export interface FrozenLayer {
  inFeatures: number;
  outFeatures: number;
  weight: Float32Array;
  bias: Float32Array | null;
  activation: Activation;
  alpha: number;
}

/** Largest per-layer product (rows x in x out) that runs on one BLAS thread. */
export const FROZEN_SINGLE_THREAD_WORK = SINGLE_THREAD_MACS;

/** See the module comment. */
export class FrozenMLP {
  readonly inFeatures: number;
  readonly outFeatures: number;
  private readonly path: MatmulPath;
  private readonly kernels: MatmulKernel[];
  private buffers: Float32Array[] = [];
  private capacity = 0;
  /** Per-layer output views of `rows` rows, by row count (the same arrays every call). */
  private views = new Map<number, Float32Array[]>();
  /** The snapshot (copies of the constructor's arrays). */
  readonly layers: readonly FrozenLayer[];

  constructor(layers: readonly FrozenLayer[], path: MatmulPath = selectMatmulPath()) {
    if (layers.length === 0) throw new Error('compute: FrozenMLP needs at least one layer');
    for (let i = 1; i < layers.length; i++) {
      if (layers[i]!.inFeatures !== layers[i - 1]!.outFeatures) throw new Error(`compute: FrozenMLP layer ${i} takes ${layers[i]!.inFeatures} features, the previous gives ${layers[i - 1]!.outFeatures}`);
    }
    for (const l of layers) {
      if (l.weight.length !== l.inFeatures * l.outFeatures) throw new Error('compute: FrozenMLP weight size does not match its shape');
      if (l.bias && l.bias.length !== l.outFeatures) throw new Error('compute: FrozenMLP bias size does not match its shape');
    }
    this.layers = layers.map((l) => {
      const weight = Float32Array.from(l.weight);
      const bias = l.bias ? Float32Array.from(l.bias) : null;
      bumpGeneration(weight);
      if (bias) bumpGeneration(bias);
      return { ...l, weight, bias };
    });
    this.inFeatures = layers[0]!.inFeatures;
    this.outFeatures = layers[layers.length - 1]!.outFeatures;
    this.path = path;
    this.kernels = layers.map((l) => ({
      kind: 'matmul',
      batch: 1,
      m: 0,
      n: l.outFeatures,
      k: l.inFeatures,
      transA: false,
      transB: false,
      aBatchStride: 0,
      bBatchStride: 0,
      biasBatchStride: 0,
      bias: l.bias !== null,
      activation: l.activation,
      alpha: l.alpha,
      accumulate: false,
    }));
  }

  /** Snapshots the current weights of a module (later training does not change the copy). */
  static from(mlp: MLP, path?: MatmulPath): FrozenMLP {
    return new FrozenMLP(
      mlp.layers.map((l) => ({
        inFeatures: l.inFeatures,
        outFeatures: l.outFeatures,
        weight: l.weight.dataSync(),
        bias: l.bias ? l.bias.dataSync() : null,
        activation: l.activation,
        alpha: l.alpha,
      })),
      path,
    );
  }

  /** Name of the matmul path the passes use. */
  get pathName(): string {
    return this.path.name;
  }

  /**
   * `x`: `[rows, inFeatures]` row-major. Returns `[rows, outFeatures]`: a view into a buffer that
   * the next call overwrites (copy it to keep it).
   */
  forward(x: Float32Array, rows: number): Float32Array {
    if (!Number.isInteger(rows) || rows < 1) throw new Error('compute: FrozenMLP needs at least one row');
    if (x.length < rows * this.inFeatures) throw new Error(`compute: FrozenMLP input has ${x.length} values, expected ${rows} x ${this.inFeatures}`);
    if (rows > this.capacity) {
      this.capacity = Math.max(rows, this.capacity * 2);
      this.buffers = this.layers.map((l) => new Float32Array(this.capacity * l.outFeatures));
      this.views.clear();
    }
    let outs = this.views.get(rows);
    if (!outs) {
      outs = this.layers.map((l, i) => (this.buffers[i]!.length === rows * l.outFeatures ? this.buffers[i]! : this.buffers[i]!.subarray(0, rows * l.outFeatures)));
      if (this.views.size > 64) this.views.clear();
      this.views.set(rows, outs);
    }
    let a = x.length === rows * this.inFeatures ? x : x.subarray(0, rows * this.inFeatures);
    for (let i = 0; i < this.layers.length; i++) {
      const l = this.layers[i]!;
      const k = this.kernels[i]!;
      k.m = rows;
      const out = outs[i]!;
      // Hidden outputs are marked rewritten (as the backend's dispatch marks its outputs), so the
      // next layer reads them resident. The returned last one is not: a caller may change it and
      // pass it back in, and an array the backend never marked is always copied in afresh.
      if (i + 1 < this.layers.length) bumpGeneration(out);
      this.path.matmul(k, a, l.weight, l.bias, out);
      a = out;
    }
    return a;
  }
}
