/**
 * Tensors: float32, dense row-major storage on one backend, with shape/strides, an optional
 * autograd node, reference-counted storage (reshape shares it) and scope tracking for `tidy`.
 */
import type { Backend, BackendBuffer } from './backends/backend.ts';
import { contiguousStrides, shapeSize } from './backends/backend.ts';
import { getBackend } from './backends/registry.ts';

/** Reference-counted backend buffer shared by tensors that view the same data. */
export class Storage {
  refs = 1;
  constructor(
    readonly backend: Backend,
    public buffer: BackendBuffer,
  ) {}
  /** Drops one reference; frees the buffer on the last one. */
  release(): void {
    if (--this.refs === 0) this.backend.free(this.buffer);
  }
}

/** One recorded operation of the autograd graph. */
export interface GradNode {
  /** Op name, for debugging and error messages. */
  readonly name: string;
  /** The op's tensor inputs, in order. */
  readonly inputs: readonly Tensor[];
  /**
   * Given the gradient of the op's output, returns one gradient per input (null where the
   * input needs none). Runs with gradient recording off. Must not dispose `grad`.
   */
  backward(grad: Tensor): (Tensor | null)[];
}

/** Frees buffers of tensors that were garbage-collected without `dispose()` (safety net). */
const finalizer =
  typeof FinalizationRegistry !== 'undefined'
    ? new FinalizationRegistry<Storage>((s) => s.release())
    : null;

let nextId = 1;

/**
 * A float32 tensor. Invariants: `size === product(shape)`; storage is dense row-major, so
 * `strides` are the contiguous strides of `shape`; a disposed tensor throws on use.
 */
export class Tensor {
  /** Unique id (creation order). */
  readonly id = nextId++;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  /** Number of elements. */
  readonly size: number;
  /** Whether gradients flow into this tensor. Leaves with `requiresGrad` receive `.grad`. */
  requiresGrad = false;
  /** Accumulated gradient of a leaf after `backward()`; null before. */
  grad: Tensor | null = null;
  /** The op that produced this tensor (null for leaves and under `noGrad`). */
  gradNode: GradNode | null = null;
  /** Optional name (parameters). */
  name = '';
  private storageRef: Storage | null;

  /** @internal Use the creation functions (`tensor`, `zeros`, ...) instead. */
  constructor(shape: readonly number[], storage: Storage) {
    this.shape = shape;
    this.strides = contiguousStrides(shape);
    this.size = shapeSize(shape);
    this.storageRef = storage;
    finalizer?.register(this, storage, this);
    trackInScope(this);
  }

  /** The backend the data lives on. */
  get backend(): Backend {
    return this.storage.backend;
  }

  /** @throws Error if the tensor was disposed. */
  get storage(): Storage {
    if (!this.storageRef) throw new Error(`compute: tensor #${this.id} [${this.shape.join(',')}] used after dispose`);
    return this.storageRef;
  }

  /** The backend buffer (dense row-major, `size` floats). */
  get buffer(): BackendBuffer {
    return this.storage.buffer;
  }

  /** Number of dimensions. */
  get rank(): number {
    return this.shape.length;
  }

  /** True once `dispose()` ran. */
  get isDisposed(): boolean {
    return this.storageRef === null;
  }

  /** Resolves with a copy of the values (row-major). Works on every backend. */
  data(): Promise<Float32Array> {
    return this.backend.read(this.buffer);
  }

  /**
   * Synchronous copy of the values.
   * @throws Error on backends without synchronous reads (WebGPU): use `await data()`.
   */
  dataSync(): Float32Array {
    const b = this.backend;
    if (!b.readSync) throw new Error(`compute: backend '${b.name}' has no synchronous read; use await tensor.data()`);
    return b.readSync(this.buffer);
  }

  /** The single value of a one-element tensor (sync). @throws Error if size !== 1. */
  item(): number {
    if (this.size !== 1) throw new Error(`compute: item() on a tensor of ${this.size} elements`);
    return this.dataSync()[0]!;
  }

  /** Values as nested arrays (sync; CPU). */
  toArray(): unknown {
    return nest(this.dataSync(), this.shape, 0, 0);
  }

  /**
   * Releases the storage reference (buffer freed when no view shares it). Idempotent.
   * Also drops the gradient and the autograd node.
   */
  dispose(): void {
    if (!this.storageRef) return;
    finalizer?.unregister(this);
    this.storageRef.release();
    this.storageRef = null;
    this.gradNode = null;
    if (this.grad) {
      this.grad.dispose();
      this.grad = null;
    }
  }

  /**
   * A tensor of another shape viewing the same storage (no copy).
   * @throws Error if sizes differ.
   */
  view(shape: readonly number[]): Tensor {
    if (shapeSize(shape) !== this.size) throw new Error(`compute: cannot view [${this.shape}] as [${shape}]`);
    const s = this.storage;
    s.refs++;
    return new Tensor([...shape], s);
  }

  /** Marks this tensor as a gradient-receiving leaf; returns `this`. */
  requireGrad(flag = true): this {
    this.requiresGrad = flag;
    return this;
  }

  /** Reverse-mode autodiff from this tensor (see `backward` in autograd.ts). */
  backward(grad?: Tensor): void {
    if (!backwardHook) throw new Error('compute: autograd module not loaded');
    backwardHook(this, grad);
  }

  /** String summary, e.g. `Tensor[2,3]`. */
  toString(): string {
    return `Tensor[${this.shape.join(',')}]`;
  }
}

function nest(d: Float32Array, shape: readonly number[], dim: number, off: number): unknown {
  if (shape.length === 0) return d[0];
  const n = shape[dim]!;
  if (dim === shape.length - 1) return Array.from(d.subarray(off, off + n));
  const step = shapeSize(shape.slice(dim + 1));
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(nest(d, shape, dim + 1, off + i * step));
  return out;
}

let backwardHook: ((t: Tensor, g?: Tensor) => void) | null = null;

/** @internal Installed by autograd.ts. */
export function setBackwardHook(f: (t: Tensor, g?: Tensor) => void): void {
  backwardHook = f;
}

// ------------------------------------------------------------------------------------------------
// Scopes (tidy) and gradient mode
// ------------------------------------------------------------------------------------------------

const scopes: Set<Tensor>[] = [];

function trackInScope(t: Tensor): void {
  const s = scopes[scopes.length - 1];
  if (s) s.add(t);
}

/**
 * Removes a tensor from every enclosing `tidy` scope so it survives them (parameters, optimizer
 * state, gradients). Returns the tensor.
 */
export function keep<T extends Tensor>(t: T): T {
  for (const s of scopes) s.delete(t);
  return t;
}

/** Collects tensors (any depth of arrays / plain objects / Maps). */
function collect(v: unknown, out: Set<Tensor>): void {
  if (v instanceof Tensor) out.add(v);
  else if (Array.isArray(v)) for (const x of v) collect(x, out);
  else if (v instanceof Map) for (const x of v.values()) collect(x, out);
  else if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    for (const x of Object.values(v as Record<string, unknown>)) collect(x, out);
  }
}

/**
 * Runs `fn`; every tensor created inside and not reachable from its (synchronous) result is
 * disposed afterwards. Returned tensors move to the enclosing scope. Nesting is allowed.
 * Async functions are not supported (the scope would close at the first await).
 */
export function tidy<T>(fn: () => T): T {
  const scope = new Set<Tensor>();
  scopes.push(scope);
  let result: T;
  try {
    result = fn();
  } finally {
    scopes.pop();
  }
  const survivors = new Set<Tensor>();
  collect(result, survivors);
  for (const t of scope) {
    if (survivors.has(t)) {
      trackInScope(t);
    } else {
      t.dispose();
    }
  }
  return result;
}

let gradEnabled = true;

/** Whether ops currently record the autograd graph. */
export function isGradEnabled(): boolean {
  return gradEnabled;
}

/** Runs `fn` without recording gradients (inference, optimizer updates). */
export function noGrad<T>(fn: () => T): T {
  const prev = gradEnabled;
  gradEnabled = false;
  try {
    return fn();
  } finally {
    gradEnabled = prev;
  }
}

/** Sets gradient recording globally; returns the previous value. */
export function setGradEnabled(flag: boolean): boolean {
  const prev = gradEnabled;
  gradEnabled = flag;
  return prev;
}

// ------------------------------------------------------------------------------------------------
// Creation
// ------------------------------------------------------------------------------------------------

/**
 * Allocates an uninitialised-by-contract (zero-filled) tensor on a backend (default: active).
 * @throws Error on negative or non-integer dimensions.
 */
export function empty(shape: readonly number[], backend: Backend = getBackend()): Tensor {
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0) throw new Error(`compute: invalid shape [${shape.join(',')}]`);
  }
  const n = shapeSize(shape);
  return new Tensor([...shape], new Storage(backend, backend.alloc(n)));
}

type Nested = number | readonly Nested[];

function inferShape(v: Nested): number[] {
  const s: number[] = [];
  let cur: Nested = v;
  while (Array.isArray(cur)) {
    s.push(cur.length);
    cur = (cur as readonly Nested[])[0] ?? 0;
  }
  return s;
}

function flattenInto(v: Nested, out: number[]): void {
  if (Array.isArray(v)) for (const x of v as readonly Nested[]) flattenInto(x, out);
  else out.push(v as number);
}

/**
 * Creates a tensor from values. `values` may be a nested number array (shape inferred), a flat
 * array or a Float32Array with an explicit `shape`, or a number (scalar, shape []).
 * @throws Error when the value count does not match the shape.
 */
export function tensor(
  values: Nested | Float32Array | ArrayLike<number>,
  shape?: readonly number[],
  backend: Backend = getBackend(),
): Tensor {
  let flat: Float32Array;
  let shp: number[];
  if (typeof values === 'number') {
    flat = Float32Array.of(values);
    shp = shape ? [...shape] : [];
  } else if (values instanceof Float32Array) {
    flat = values;
    shp = shape ? [...shape] : [values.length];
  } else if (Array.isArray(values) && !shape) {
    shp = inferShape(values as Nested);
    const arr: number[] = [];
    flattenInto(values as Nested, arr);
    flat = Float32Array.from(arr);
  } else {
    const arr: number[] = [];
    if (Array.isArray(values)) flattenInto(values as Nested, arr);
    else for (let i = 0; i < (values as ArrayLike<number>).length; i++) arr.push((values as ArrayLike<number>)[i]!);
    flat = Float32Array.from(arr);
    shp = shape ? [...shape] : [arr.length];
  }
  if (shapeSize(shp) !== flat.length) {
    throw new Error(`compute: ${flat.length} values do not fill shape [${shp.join(',')}]`);
  }
  const t = empty(shp, backend);
  if (flat.length) backend.write(t.buffer, flat);
  return t;
}

/** Scalar tensor (shape []). */
export function scalar(value: number, backend: Backend = getBackend()): Tensor {
  return tensor(value, [], backend);
}

/** Tensor filled with `value`. */
export function full(shape: readonly number[], value: number, backend: Backend = getBackend()): Tensor {
  const t = empty(shape, backend);
  if (value !== 0 && t.size) backend.dispatch({ kind: 'fill', size: t.size, value }, [], [t.buffer]);
  return t;
}

/** Zeros. */
export function zeros(shape: readonly number[], backend: Backend = getBackend()): Tensor {
  return empty(shape, backend);
}

/** Ones. */
export function ones(shape: readonly number[], backend: Backend = getBackend()): Tensor {
  return full(shape, 1, backend);
}

/** Zeros with the shape and backend of `t`. */
export function zerosLike(t: Tensor): Tensor {
  return empty(t.shape, t.backend);
}

/** Ones with the shape and backend of `t`. */
export function onesLike(t: Tensor): Tensor {
  return full(t.shape, 1, t.backend);
}

/** [0, 1, ..., n-1] (float32). */
export function arange(n: number, backend: Backend = getBackend()): Tensor {
  const d = new Float32Array(n);
  for (let i = 0; i < n; i++) d[i] = i;
  return tensor(d, [n], backend);
}

/** Same-length tensor that is a leaf with `requiresGrad` (a trainable parameter), kept out of scopes. */
export function parameter(t: Tensor, name = ''): Tensor {
  t.requiresGrad = true;
  t.name = name;
  return keep(t);
}
