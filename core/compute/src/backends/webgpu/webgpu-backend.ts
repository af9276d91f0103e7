/**
 * The WebGPU implementation of the compute core's {@link Backend} contract.
 *
 * Buffers are pooled `GPUBuffer`s (storage | copy-src | copy-dst). Zero-filling on `alloc` is
 * lazy: a fresh buffer is marked "needs zero" and is cleared only if something reads it before a
 * kernel has overwritten it completely, so the common alloc-then-compute pattern costs nothing.
 * Dispatches are batched into one command encoder and submitted on `read`, `write`, `sync` or
 * when the uniform arena fills (see `runtime.ts`).
 */
import type { Backend, BackendBuffer, BackendCapabilities, KernelDescriptor } from '../backend.ts';
import { acquireGpu, type GpuAcquireOptions, type GpuAdapterSummary } from './device.ts';
import { GpuRuntime, type RuntimeStats } from './runtime.ts';
import {
  encodeActivationGrad,
  encodeAdam,
  encodeBinary,
  encodeFill,
  encodeRandom,
  encodeUnary,
  encodeUnaryGrad,
  encodeWhere,
} from './kernels/elementwise.ts';
import { encodeMatmul, type MatmulVariant } from './kernels/matmul.ts';
import { encodeReduce, encodeSoftmax } from './kernels/reduce.ts';
import { encodeGather, encodeScatterAdd } from './kernels/gather.ts';
import { encodeCopy } from './kernels/copy.ts';
import { encodeLayerNorm, encodeLayerNormGrad } from './kernels/layernorm.ts';

/** A float32 buffer living on the GPU. */
export class WebGPUBuffer implements BackendBuffer {
  /** Number of float32 elements. */
  readonly length: number;
  /** Always 'webgpu'. */
  readonly backend = 'webgpu';
  /** @internal The underlying buffer (null once freed). */
  gpu: GPUBuffer | null;
  /** @internal True until the contents are known to be initialised. */
  needsZero = true;

  constructor(length: number, gpu: GPUBuffer) {
    this.length = length;
    this.gpu = gpu;
  }
}

/** Options of {@link createWebGPUBackend}. */
export interface WebGPUBackendOptions extends GpuAcquireOptions {
  /** Use this device instead of acquiring one (the caller keeps ownership of its lifetime). */
  device?: GPUDevice;
  /**
   * Matmul kernel family. Default: 'direct' (no workgroup memory) on software fallback
   * adapters, where barriers are very expensive, 'tiled' on hardware GPUs.
   */
  matmulVariant?: MatmulVariant;
}

/** Kernels that write every element of their output without reading it first. */
const OVERWRITES: ReadonlySet<KernelDescriptor['kind']> = new Set([
  'unary',
  'unary-grad',
  'binary',
  'where',
  'activation-grad',
  'reduce',
  'softmax',
  'gather',
  'scatter-add',
  'fill',
  'random',
]);

/** WebGPU backend: WGSL kernels on `navigator.gpu` (browser) or Dawn (`webgpu`, Node). */
export class WebGPUBackend implements Backend {
  /** Registry name. */
  readonly name = 'webgpu';
  /** See {@link BackendCapabilities}; `path` is 'wgsl'. */
  readonly capabilities: BackendCapabilities;
  /** The adapter this backend runs on. */
  readonly adapter: GpuAdapterSummary;
  /** @internal Device-side machinery (pool, pipelines, batching). */
  readonly runtime: GpuRuntime;
  /** The matmul kernel family in use. */
  readonly matmulVariant: MatmulVariant;
  private readonly maxBytes: number;

  constructor(device: GPUDevice, adapter: GpuAdapterSummary, matmulVariant?: MatmulVariant) {
    this.matmulVariant = matmulVariant ?? (adapter.isFallbackAdapter ? 'direct' : 'tiled');
    this.runtime = new GpuRuntime(device);
    this.adapter = adapter;
    const lim = device.limits;
    this.maxBytes = Math.min(lim.maxBufferSize, lim.maxStorageBufferBindingSize);
    this.capabilities = {
      syncRead: false,
      gpu: true,
      maxBufferLength: Math.floor(this.maxBytes / 4),
      path: 'wgsl',
    };
  }

  /** Pool, pipeline and submit counters. */
  get stats(): RuntimeStats {
    return this.runtime.stats;
  }

  alloc(length: number): WebGPUBuffer {
    if (!Number.isInteger(length) || length < 0) throw new RangeError(`webgpu: bad buffer length ${length}`);
    if (length * 4 > this.maxBytes) {
      throw new RangeError(`webgpu: buffer of ${length} floats exceeds the device limit of ${this.capabilities.maxBufferLength}`);
    }
    return new WebGPUBuffer(length, this.runtime.acquire(length * 4));
  }

  free(buffer: BackendBuffer): void {
    const b = buffer as WebGPUBuffer;
    if (!b.gpu) return;
    this.runtime.release(b.gpu);
    b.gpu = null;
  }

  private gpuOf(buffer: BackendBuffer | undefined, role: string): GPUBuffer {
    if (!(buffer instanceof WebGPUBuffer)) throw new TypeError(`webgpu: ${role} is not a webgpu buffer`);
    if (!buffer.gpu) throw new Error(`webgpu: ${role} was freed`);
    return buffer.gpu;
  }

  /** Makes a lazily zeroed buffer really zero before something reads it. */
  private materialise(buffer: BackendBuffer | undefined, role: string): GPUBuffer {
    const g = this.gpuOf(buffer, role);
    const b = buffer as WebGPUBuffer;
    if (b.needsZero) {
      this.runtime.clear(g, b.length * 4);
      b.needsZero = false;
    }
    return g;
  }

  write(buffer: BackendBuffer, data: Float32Array, offset = 0): void {
    const b = buffer as WebGPUBuffer;
    if (offset < 0 || offset + data.length > b.length) {
      throw new RangeError(`webgpu: write of ${data.length} at ${offset} overflows a buffer of ${b.length}`);
    }
    const g = offset === 0 && data.length === b.length ? this.gpuOf(b, 'write target') : this.materialise(b, 'write target');
    b.needsZero = false;
    if (data.length) this.runtime.write(g, offset * 4, data);
  }

  async read(buffer: BackendBuffer): Promise<Float32Array> {
    const b = buffer as WebGPUBuffer;
    const g = this.gpuOf(b, 'read source');
    if (b.needsZero) return new Float32Array(b.length);
    if (b.length === 0) return new Float32Array(0);
    return new Float32Array(await this.runtime.read(g, b.length * 4));
  }

  /**
   * Compiles (and caches) the pipeline `dispatch(kernel)` will use, without recording work.
   * Pipelines are keyed by shape class, so one `prepare` covers every size of that class.
   */
  prepare(kernel: KernelDescriptor): void {
    const rt = this.runtime;
    const scratchIn = rt.acquire(16);
    const scratchOut = rt.acquire(16);
    rt.compileOnly = true;
    try {
      this.encode(kernel, () => scratchIn, () => scratchOut);
    } finally {
      rt.compileOnly = false;
      rt.release(scratchIn);
      rt.release(scratchOut);
    }
  }

  dispatch(kernel: KernelDescriptor, inputs: readonly BackendBuffer[], outputs: readonly BackendBuffer[]): void {
    const overwrites = OVERWRITES.has(kernel.kind) || (kernel.kind === 'matmul' && !kernel.accumulate);
    this.encode(
      kernel,
      (i) => this.materialise(inputs[i], `input ${i} of ${kernel.kind}`),
      (i) => {
        const b = outputs[i];
        if (overwrites) {
          const g = this.gpuOf(b, `output ${i} of ${kernel.kind}`);
          (b as WebGPUBuffer).needsZero = false;
          return g;
        }
        return this.materialise(b, `output ${i} of ${kernel.kind}`);
      },
    );
  }

  private encode(kernel: KernelDescriptor, inp: (i: number) => GPUBuffer, out: (i: number) => GPUBuffer): void {
    const rt = this.runtime;
    switch (kernel.kind) {
      case 'unary':
        return encodeUnary(rt, kernel, inp(0), out(0));
      case 'unary-grad':
        return encodeUnaryGrad(rt, kernel, inp(0), inp(1), inp(2), out(0));
      case 'binary':
        return encodeBinary(rt, kernel, inp(0), inp(1), out(0));
      case 'where':
        return encodeWhere(rt, kernel, inp(0), inp(1), inp(2), out(0));
      case 'matmul':
        return encodeMatmul(rt, kernel, inp(0), inp(1), out(0), kernel.bias ? inp(2) : undefined, this.matmulVariant);
      case 'activation-grad':
        return encodeActivationGrad(rt, kernel, inp(0), inp(1), out(0));
      case 'reduce':
        return encodeReduce(rt, kernel, inp(0), out(0));
      case 'softmax':
        return encodeSoftmax(rt, kernel, inp(0), out(0));
      case 'gather':
        return encodeGather(rt, kernel, inp(0), inp(1), out(0));
      case 'scatter-add':
        return encodeScatterAdd(rt, kernel, inp(0), inp(1), out(0));
      case 'copy': {
        const src = inp(0);
        const dst = out(0);
        if (src === dst && !rt.compileOnly) {
          // Same buffer on both sides: stage the source (WebGPU forbids read + write binding).
          const tmp = rt.acquire(src.size);
          rt.copy(src, 0, tmp, 0, src.size);
          encodeCopy(rt, kernel, tmp, dst);
          rt.release(tmp);
          return;
        }
        return encodeCopy(rt, kernel, src, dst);
      }
      case 'fill':
        return encodeFill(rt, kernel, out(0));
      case 'random':
        return encodeRandom(rt, kernel, out(0));
      case 'adam':
        return encodeAdam(rt, kernel, inp(0), inp(1), inp(2), inp(3));
      case 'layer-norm': {
        const params: GPUBuffer[] = [];
        if (kernel.gamma) params.push(inp(1));
        if (kernel.beta) params.push(inp(kernel.gamma ? 2 : 1));
        return encodeLayerNorm(rt, kernel, inp(0), params, out(0), out(1), out(2));
      }
      case 'layer-norm-grad': {
        let j = 1;
        const dgamma = kernel.gamma ? out(j++) : null;
        const dbeta = kernel.beta ? out(j++) : null;
        return encodeLayerNormGrad(rt, kernel, inp(0), inp(1), inp(2), inp(3), kernel.gamma ? inp(4) : null, out(0), dgamma, dbeta);
      }
      default: {
        const never: never = kernel;
        throw new Error(`webgpu: unknown kernel ${JSON.stringify(never)}`);
      }
    }
  }

  sync(): Promise<void> {
    return this.runtime.sync();
  }

  dispose(): void {
    this.runtime.dispose();
  }
}

/**
 * Creates the WebGPU backend on the best adapter available.
 * @throws Error (rejects) with the reason when no adapter/device can be obtained, e.g. only a
 *   software fallback adapter exists and `allowFallbackAdapter` is false.
 */
export async function createWebGPUBackend(options: WebGPUBackendOptions = {}): Promise<WebGPUBackend> {
  if (options.device) {
    return new WebGPUBackend(options.device, {
      vendor: '',
      architecture: '',
      description: 'caller-provided device',
      isFallbackAdapter: false,
      source: 'navigator.gpu',
    }, options.matmulVariant);
  }
  const r = await acquireGpu(options);
  if (!r.ok) throw new Error(`webgpu unavailable: ${r.reason}`);
  return new WebGPUBackend(r.device, r.info, options.matmulVariant);
}
