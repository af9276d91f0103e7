/**
 * The backend contract of the compute core.
 *
 * Every backend (`cpu`, `webgpu`, ...) implements {@link Backend}: a small device interface
 * (alloc, free, write, read, prepare, dispatch, capabilities). Op code in `src/ops/` builds
 * {@link KernelDescriptor}s and calls `dispatch`; it never branches on the backend.
 *
 * Contract (read this before writing a backend):
 *
 * - Data model. A {@link BackendBuffer} is an opaque, backend-owned block of `length` float32
 *   values. All tensors handed to kernels are DENSE and ROW-MAJOR (C-contiguous); views
 *   (transpose, slice, concat) are materialised with the `copy` kernel. Integer data (indices of
 *   `gather`, booleans of `where`) travel as float32 holding exact integers (0/1 for booleans).
 * - Ordering. `dispatch` ENQUEUES work; kernels run as if in call order. `read` resolves after
 *   every kernel enqueued before it has finished. A backend may run work asynchronously (WebGPU
 *   queues) or synchronously (CPU). `write` is ordered with dispatches too.
 * - Aliasing. Outputs never alias inputs, EXCEPT where a kernel says "in place" (`adam`,
 *   `copy` with `accumulate`, `matmul` with `accumulate`): there the output buffer is also read.
 * - Output buffers are allocated by the caller with the exact length the descriptor implies.
 *   A kernel writes every element of its output unless the descriptor says otherwise (`copy`
 *   writes only the addressed elements; the caller fills the rest first).
 * - `alloc` returns zero-filled memory. `free` may be called once per buffer; using a freed
 *   buffer is a caller bug (backends may throw).
 * - Reads are async (`read`), because WebGPU maps buffers asynchronously. A backend whose memory
 *   is host-visible also offers `readSync`; callers must check `capabilities.syncRead`.
 * - Numerics: float32 arithmetic; transcendental functions need ~1e-6 relative accuracy
 *   (the conformance suite checks per-op tolerances against a float64 reference).
 * - Randomness is counter-based and therefore identical on every backend: see
 *   {@link randomUniformAt} and {@link randomNormalAt}, which define the exact bits.
 * - Shape arrays in descriptors are plain `number[]`; `size` fields are element counts.
 *   Descriptors are plain JSON-like objects; a backend may cache compiled pipelines keyed by
 *   `kernelKey(descriptor)` (shape-independent keys are the backend's own business).
 */

/** Opaque buffer owned by one backend. `length` is the number of float32 elements. */
export interface BackendBuffer {
  /** Number of float32 elements; never changes. */
  readonly length: number;
  /** Name of the backend that owns the buffer (a buffer never moves between backends). */
  readonly backend: string;
}

/** Fused activation applied after matmul (+ bias) or as a standalone unary op. */
export type Activation = 'none' | 'relu' | 'leaky-relu' | 'tanh' | 'sigmoid' | 'silu';

/** Elementwise unary operations. `alpha`/`beta` of {@link UnaryKernel} parametrise some. */
export type UnaryOp =
  | 'neg'
  | 'exp'
  | 'log'
  | 'sqrt'
  | 'rsqrt'
  | 'abs'
  | 'sign'
  | 'square'
  | 'reciprocal'
  | 'tanh'
  | 'relu'
  /** y = x > 0 ? x : alpha * x */
  | 'leaky-relu'
  | 'silu'
  | 'sigmoid'
  | 'softplus'
  /** y = min(max(x, alpha), beta) */
  | 'clamp'
  /** y = x ^ alpha (alpha a scalar exponent; x^alpha with Math.pow semantics) */
  | 'pow-scalar'
  /** y = alpha * x + beta */
  | 'affine'
  /** y = x (plain copy) */
  | 'identity'
  /** y = floor(x) */
  | 'floor';

/** Elementwise binary operations with numpy broadcasting. Comparisons return 1 or 0. */
export type BinaryOp =
  | 'add'
  | 'sub'
  | 'mul'
  | 'div'
  | 'pow'
  | 'max'
  | 'min'
  | 'gt'
  | 'ge'
  | 'lt'
  | 'le'
  | 'eq';

/** Reduction operations. */
export type ReduceOp = 'sum' | 'mean' | 'max' | 'min';

/**
 * Gradient of a unary op, computed in one pass: dx = dy * f'(x). Inputs `[dy, x, y]` where
 * y = f(x) is the saved forward output (kernels may use whichever of x/y is convenient; both are
 * always passed). `alpha`/`beta` are the forward op's parameters.
 */
export interface UnaryGradKernel {
  kind: 'unary-grad';
  op: UnaryOp;
  size: number;
  alpha: number;
  beta: number;
}

/** y = op(x); inputs `[x]`, outputs `[y]`, both `size` long. */
export interface UnaryKernel {
  kind: 'unary';
  op: UnaryOp;
  size: number;
  /** Op parameter (leaky-relu slope, clamp min, exponent, affine scale); 0 when unused. */
  alpha: number;
  /** Second op parameter (clamp max, affine shift); 0 when unused. */
  beta: number;
}

/**
 * out = op(a, b) with broadcasting. `aShape`, `bShape` are already left-padded with 1s to the
 * rank of `outShape`; a dimension of size 1 broadcasts. Inputs `[a, b]`, outputs `[out]`.
 */
export interface BinaryKernel {
  kind: 'binary';
  op: BinaryOp;
  outShape: number[];
  aShape: number[];
  bShape: number[];
}

/**
 * out = cond != 0 ? a : b with broadcasting (shapes padded to `outShape`'s rank).
 * Inputs `[cond, a, b]`, outputs `[out]`.
 */
export interface WhereKernel {
  kind: 'where';
  outShape: number[];
  condShape: number[];
  aShape: number[];
  bShape: number[];
}

/**
 * Batched matrix product with optional fused bias and activation:
 *   C[b] = act(op(A[b]) @ op(B[b]) + bias)   (+ C[b] beforehand when `accumulate`)
 * where op(A) is `m x k` (A stored `k x m` when `transA`), op(B) is `k x n` (B stored `n x k`
 * when `transB`). Inputs `[A, B]` or `[A, B, bias]` (bias length `n`, broadcast over rows);
 * outputs `[C]` (`batch * m * n`). `aBatchStride`/`bBatchStride` are 0 to broadcast one matrix
 * over the batch, else `m*k` / `k*n`. With `accumulate`, C is read and added to (in place) and
 * `activation` must be 'none'. `alpha` is the leaky-relu slope.
 */
export interface MatmulKernel {
  kind: 'matmul';
  batch: number;
  m: number;
  n: number;
  k: number;
  transA: boolean;
  transB: boolean;
  aBatchStride: number;
  bBatchStride: number;
  biasBatchStride: number;
  bias: boolean;
  activation: Activation;
  alpha: number;
  accumulate: boolean;
}

/**
 * Backward of a fused activation: dPre = dY * act'(pre). Inputs `[dY, Y]` where Y is the
 * activation's OUTPUT, except for 'silu' where the second input is the PRE-activation. Outputs
 * `[dPre]`, all `size` long. (Together with matmul in the transposed variants and a `reduce` sum
 * over rows for the bias, this is the whole backward of a fused linear layer.)
 */
export interface ActivationGradKernel {
  kind: 'activation-grad';
  activation: Activation;
  size: number;
  alpha: number;
}

/**
 * Reduction of `shape` over the sorted, unique `axes`. Output has the input's shape with the
 * reduced axes removed (element count = product of kept dims; a full reduction yields 1
 * element). `mean` divides by the product of reduced dims. Inputs `[x]`, outputs `[y]`.
 */
export interface ReduceKernel {
  kind: 'reduce';
  op: ReduceOp;
  shape: number[];
  axes: number[];
}

/**
 * Softmax family over the middle axis of an `[outer, size, inner]` view of the input.
 * 'softmax' and 'log-softmax' output the same shape; 'logsumexp' outputs `[outer, inner]`.
 * Inputs `[x]`, outputs `[y]`. Must be numerically stable (subtract the max).
 */
export interface SoftmaxKernel {
  kind: 'softmax';
  op: 'softmax' | 'log-softmax' | 'logsumexp';
  outer: number;
  size: number;
  inner: number;
}

/**
 * Gather along the middle axis of an `[outer, axisSize, inner]` view:
 *   out[o, j, i] = x[o, idx[j], i]      (idx length `count`, float32 exact integers)
 * Inputs `[x, idx]`, outputs `[out]` (`outer * count * inner`).
 * With `perRow` the index has shape `[outer, count]` instead: out[o,j,i] = x[o, idx[o,j], i]
 * (this is `take_along_axis`, used by Categorical log-prob). Out-of-range indices are clamped.
 */
export interface GatherKernel {
  kind: 'gather';
  outer: number;
  axisSize: number;
  inner: number;
  count: number;
  perRow: boolean;
}

/**
 * Adjoint of {@link GatherKernel}: dx[o, idx[..j], i] += dOut[o, j, i]. Inputs `[dOut, idx]`,
 * outputs `[dx]` (`outer * axisSize * inner`), which the kernel fully overwrites (zero, then add).
 */
export interface ScatterAddKernel {
  kind: 'scatter-add';
  outer: number;
  axisSize: number;
  inner: number;
  count: number;
  perRow: boolean;
}

/**
 * Strided copy: for every multi-index i over `shape`,
 *   dst[dstOffset + sum(i*dstStrides)] (+)= src[srcOffset + sum(i*srcStrides)].
 * Covers transpose, slice, concat pieces, broadcast expansion (a 0 src stride) and their
 * adjoints. Only the addressed dst elements are written; with `accumulate`, they are added to.
 * Inputs `[src]`, outputs `[dst]`.
 */
export interface CopyKernel {
  kind: 'copy';
  shape: number[];
  srcStrides: number[];
  srcOffset: number;
  dstStrides: number[];
  dstOffset: number;
  accumulate: boolean;
}

/** out[i] = value for all `size` elements. Inputs `[]`, outputs `[out]`. */
export interface FillKernel {
  kind: 'fill';
  size: number;
  value: number;
}

/**
 * Counter-based random numbers: out[i] = randomUniformAt(seed, i) * (b - a) + a for 'uniform',
 * randomNormalAt(seed, i) * b + a for 'normal' (a = mean, b = std). Inputs `[]`, outputs `[out]`.
 * Backends must produce exactly these values (up to float32 rounding of log/cos).
 */
export interface RandomKernel {
  kind: 'random';
  dist: 'uniform' | 'normal';
  size: number;
  /** Two 32-bit unsigned key words. */
  seed: [number, number];
  a: number;
  b: number;
}

/**
 * Fused Adam/AdamW step, IN PLACE on `[param, m, v]`; inputs `[param, grad, m, v]`, outputs
 * `[param, m, v]` (the same buffers as inputs 0, 2, 3). With g = grad (+ weightDecay*param when
 * not `decoupled`):  m = b1*m + (1-b1)*g;  v = b2*v + (1-b2)*g*g;
 *   param -= lr * ( (m/bc1) / (sqrt(v/bc2) + eps) + (decoupled ? weightDecay*param : 0) ),
 * where bc1 = 1 - b1^t and bc2 = 1 - b2^t are precomputed by the caller.
 * `gradScale` multiplies the gradient first (gradient clipping).
 */
export interface AdamKernel {
  kind: 'adam';
  size: number;
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  decoupled: boolean;
  bc1: number;
  bc2: number;
  gradScale: number;
}

/**
 * Layer normalisation over the last axis of a dense `[rows, size]` view:
 *   y = (x - mean) * rstd (* gamma) (+ beta),  rstd = 1 / sqrt(var + eps) (biased variance).
 * Inputs `[x]`, then `gamma` when `gamma`, then `beta` when `beta` (each `size` long).
 * Outputs `[y, mean, rstd]` (`mean`/`rstd` are `rows` long, kept for the backward pass).
 */
export interface LayerNormKernel {
  kind: 'layer-norm';
  rows: number;
  size: number;
  eps: number;
  gamma: boolean;
  beta: boolean;
}

/**
 * Backward of {@link LayerNormKernel}. With xhat = (x - mean) * rstd and g = dy (* gamma):
 *   dx = rstd * (g - mean_j(g) - xhat * mean_j(g * xhat)),
 *   dgamma = sum over rows of dy * xhat,  dbeta = sum over rows of dy.
 * Inputs `[dy, x, mean, rstd]`, then `gamma` when `gamma`. Outputs `[dx]`, then `dgamma` when
 * `gamma`, then `dbeta` when `beta` (fully overwritten).
 */
export interface LayerNormGradKernel {
  kind: 'layer-norm-grad';
  rows: number;
  size: number;
  gamma: boolean;
  beta: boolean;
}

/** Every kernel a backend must implement. */
export type KernelDescriptor =
  | UnaryKernel
  | UnaryGradKernel
  | BinaryKernel
  | WhereKernel
  | MatmulKernel
  | ActivationGradKernel
  | ReduceKernel
  | SoftmaxKernel
  | GatherKernel
  | ScatterAddKernel
  | CopyKernel
  | FillKernel
  | RandomKernel
  | AdamKernel
  | LayerNormKernel
  | LayerNormGradKernel;

/** The kernel kinds, as a string union. */
export type KernelKind = KernelDescriptor['kind'];

/** What a backend can do; ops and tests read this, never the backend name. */
export interface BackendCapabilities {
  /** `readSync` is available (host-visible memory). */
  syncRead: boolean;
  /** The backend runs on a GPU. */
  gpu: boolean;
  /** Largest buffer, in float32 elements. */
  maxBufferLength: number;
  /** Human-readable description of the active fast path (e.g. 'wasm-simd', 'native-blas'). */
  path: string;
}

/** The device interface every backend implements. See the module header for the contract. */
export interface Backend {
  /** Registry name, e.g. 'cpu' or 'webgpu'. */
  readonly name: string;
  readonly capabilities: BackendCapabilities;
  /** Allocates a zero-filled buffer of `length` float32 values. @throws RangeError if too big. */
  alloc(length: number): BackendBuffer;
  /** Releases a buffer. Idempotence is not required. */
  free(buffer: BackendBuffer): void;
  /** Copies `data` into the buffer starting at element `offset` (default 0). */
  write(buffer: BackendBuffer, data: Float32Array, offset?: number): void;
  /** Resolves with a copy of the buffer's contents once all earlier work is done. */
  read(buffer: BackendBuffer): Promise<Float32Array>;
  /** Synchronous read; present only when `capabilities.syncRead`. */
  readSync?(buffer: BackendBuffer): Float32Array;
  /** Optional: compile/cache whatever `dispatch(kernel)` will need (pipelines, shaders). */
  prepare?(kernel: KernelDescriptor): void | Promise<void>;
  /** Enqueues one kernel. Inputs and outputs are described per kernel kind above. */
  dispatch(kernel: KernelDescriptor, inputs: readonly BackendBuffer[], outputs: readonly BackendBuffer[]): void;
  /** Resolves when all enqueued work has completed. */
  sync(): Promise<void>;
  /** Optional asynchronous initialisation (adapter request, wasm instantiation, workers). */
  init?(): Promise<void>;
  /** Releases everything (workers, device). The backend is unusable afterwards. */
  dispose?(): void;
}

// ----------------------------------------------------------------------------------------------
// Counter-based RNG shared by all backends (exact integer arithmetic, WGSL-friendly: u32 only).
// ----------------------------------------------------------------------------------------------

/**
 * 32-bit mixing hash (the "lowbias32" finaliser). All arithmetic is u32 wrap-around, which WGSL
 * reproduces with `u32` multiplication.
 */
export function hash32(x: number): number {
  x = x >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

/** Random u32 for counter `i` under key `seed`: hash32(hash32(i ^ s0) + s1) ^ ... (exact). */
export function randomBitsAt(seed: readonly [number, number], i: number): number {
  const h = hash32((i ^ seed[0]) >>> 0);
  return hash32((h + seed[1]) >>> 0);
}

/** Uniform in [0, 1): (bits >>> 8) * 2^-24. */
export function randomUniformAt(seed: readonly [number, number], i: number): number {
  return (randomBitsAt(seed, i) >>> 8) * 5.960464477539063e-8;
}

/**
 * Standard normal for element i via Box-Muller on counters 2i and 2i+1:
 *   u1 = 1 - uniform(2i) (in (0,1]), u2 = uniform(2i+1), z = sqrt(-2 ln u1) * cos(2 pi u2).
 */
export function randomNormalAt(seed: readonly [number, number], i: number): number {
  const u1 = 1 - randomUniformAt(seed, 2 * i);
  const u2 = randomUniformAt(seed, 2 * i + 1);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** Product of a shape's dimensions (1 for a scalar shape `[]`). */
export function shapeSize(shape: readonly number[]): number {
  let s = 1;
  for (const d of shape) s *= d;
  return s;
}

/** Row-major (C-contiguous) strides of a shape. */
export function contiguousStrides(shape: readonly number[]): number[] {
  const st = new Array<number>(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    st[i] = s;
    s *= shape[i]!;
  }
  return st;
}

/** A stable string key for a descriptor (useful for pipeline caches). */
export function kernelKey(kernel: KernelDescriptor): string {
  return JSON.stringify(kernel);
}
