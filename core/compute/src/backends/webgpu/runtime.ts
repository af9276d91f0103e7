/**
 * The WebGPU runtime under the backend: buffer pool, pipeline cache, command batching,
 * per-dispatch uniforms and asynchronous readback.
 *
 * Batching: dispatches are recorded into one open command encoder (one compute pass per run of
 * dispatches) and submitted together on `flush()` (explicit, before a write or read, or when the
 * uniform arena is full). Per-dispatch parameters live in one uniform "arena" buffer: each
 * dispatch gets a 256-byte aligned slot of a CPU-side staging array, which is uploaded with a
 * single `writeBuffer` right before the submit that uses it. `queue.writeBuffer` is ordered after
 * every earlier submit, so an arena can be refilled as soon as its submit has been issued.
 *
 * Ordering hazards handled here: `queue.writeBuffer` runs before commands that are recorded but
 * not yet submitted, so `write` flushes first; freed buffers go back to the pool immediately
 * (their later reuse is ordered on the same queue), and buffers evicted from the pool are
 * destroyed only after the submit that last used them.
 */

/** Binding access of a storage buffer in a kernel: read-only or read-write. */
export type BindingAccess = 'r' | 'rw';

/** WGSL source of a kernel plus its binding signature (binding 0 is always the uniform block). */
export interface KernelSource {
  /** Complete WGSL module with entry point `main`. */
  code: string;
  /** Access of the storage bindings 1..n, in order. */
  bindings: BindingAccess[];
}

/** Statistics for tests and benchmarks. */
export interface RuntimeStats {
  submits: number;
  dispatches: number;
  pipelines: number;
  buffersCreated: number;
  pooledBytes: number;
}

const UNIFORM_SLOT = 256;
const ARENA_BYTES = 256 * 1024;
const MAX_POOLED_BYTES = 512 * 1024 * 1024;
const MAX_GROUPS = 65535;

/** Size class of an allocation in bytes (power of two up to 64 MiB, then 16 MiB steps). */
export function sizeClass(bytes: number): number {
  const b = Math.max(16, Math.ceil(bytes / 4) * 4);
  if (b <= 64 * 1024 * 1024) {
    let c = 16;
    while (c < b) c *= 2;
    return c;
  }
  const step = 16 * 1024 * 1024;
  return Math.ceil(b / step) * step;
}

/**
 * Splits a 1-D workgroup count over x and y so that neither exceeds the 65,535 limit.
 * Kernels recover the linear group index as `wid.x + wid.y * nwg.x`.
 */
export function grid1d(groups: number): [number, number, number] {
  if (groups <= MAX_GROUPS) return [Math.max(1, groups), 1, 1];
  const y = Math.ceil(groups / MAX_GROUPS);
  return [Math.ceil(groups / y), y, 1];
}

/** Owns the device-side machinery shared by every kernel. */
export class GpuRuntime {
  /** The WebGPU device. */
  readonly device: GPUDevice;
  /** Validation/uncaptured errors seen so far (tests assert this stays empty). */
  readonly errors: string[] = [];
  /** Set when the device was lost; every later call throws with it. */
  lostReason: string | null = null;
  /** While true, `dispatch` only compiles the pipeline (used by `Backend.prepare`). */
  compileOnly = false;

  private encoder: GPUCommandEncoder | null = null;
  private pass: GPUComputePassEncoder | null = null;
  private readonly pipelines = new Map<string, { pipeline: GPUComputePipeline; layout: GPUBindGroupLayout }>();
  private readonly layouts = new Map<string, { group: GPUBindGroupLayout; pipeline: GPUPipelineLayout }>();
  private readonly pool = new Map<number, GPUBuffer[]>();
  private readonly readPool = new Map<number, GPUBuffer[]>();
  private pooledBytes = 0;
  private deferredDestroy: GPUBuffer[] = [];
  private readonly arenaCpu = new Uint8Array(ARENA_BYTES);
  private arenaUsed = 0;
  private arena: GPUBuffer;
  private readonly statsData: RuntimeStats = { submits: 0, dispatches: 0, pipelines: 0, buffersCreated: 0, pooledBytes: 0 };

  constructor(device: GPUDevice) {
    this.device = device;
    this.arena = device.createBuffer({ size: ARENA_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.onuncapturederror = (ev: GPUUncapturedErrorEvent) => {
      const msg = ev.error.message;
      this.errors.push(msg);
      if (this.errors.length > 100) this.errors.shift();
      console.error(`[compute/webgpu] ${msg}`);
    };
    void device.lost.then((info) => {
      this.lostReason = `device lost (${info.reason}): ${info.message}`;
    });
  }

  /** Counters since creation. */
  get stats(): RuntimeStats {
    return { ...this.statsData, pipelines: this.pipelines.size, pooledBytes: this.pooledBytes };
  }

  private check(): void {
    if (this.lostReason) throw new Error(`webgpu: ${this.lostReason}`);
  }

  /** A storage buffer of at least `bytes` bytes, from the pool when one is free. */
  acquire(bytes: number): GPUBuffer {
    this.check();
    let cls = sizeClass(bytes);
    // Near the binding limit the size class would overshoot it: use the exact size instead.
    if (cls > this.device.limits.maxStorageBufferBindingSize) cls = Math.max(16, Math.ceil(bytes / 4) * 4);
    const free = this.pool.get(cls);
    const reused = free?.pop();
    if (reused) {
      this.pooledBytes -= cls;
      return reused;
    }
    this.statsData.buffersCreated++;
    return this.device.createBuffer({
      size: cls,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
  }

  /** Returns a buffer to the pool (or destroys it after the next submit when the pool is full). */
  release(buf: GPUBuffer): void {
    const cls = buf.size;
    if (this.pooledBytes + cls > MAX_POOLED_BYTES) {
      this.deferredDestroy.push(buf);
      return;
    }
    let list = this.pool.get(cls);
    if (!list) {
      list = [];
      this.pool.set(cls, list);
    }
    list.push(buf);
    this.pooledBytes += cls;
  }

  /** Drops every pooled buffer (after the pending work is submitted). */
  trimPool(): void {
    for (const list of this.pool.values()) this.deferredDestroy.push(...list);
    this.pool.clear();
    this.pooledBytes = 0;
    this.flush();
  }

  /**
   * The compute pipeline for `key`, compiling `make()` on first use. The pipeline layout is
   * explicit (uniform at binding 0, storage buffers after), shared by kernels of equal signature.
   */
  pipeline(key: string, make: () => KernelSource): { pipeline: GPUComputePipeline; layout: GPUBindGroupLayout } {
    const cached = this.pipelines.get(key);
    if (cached) return cached;
    this.check();
    const src = make();
    const sig = src.bindings.join(',');
    let lay = this.layouts.get(sig);
    if (!lay) {
      const entries: GPUBindGroupLayoutEntry[] = [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
        ...src.bindings.map((a, i) => ({
          binding: i + 1,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: a === 'r' ? ('read-only-storage' as const) : ('storage' as const) },
        })),
      ];
      const group = this.device.createBindGroupLayout({ entries });
      lay = { group, pipeline: this.device.createPipelineLayout({ bindGroupLayouts: [group] }) };
      this.layouts.set(sig, lay);
    }
    const module = this.device.createShaderModule({ code: src.code, label: key });
    const pipeline = this.device.createComputePipeline({
      label: key,
      layout: lay.pipeline,
      compute: { module, entryPoint: 'main' },
    });
    const entry = { pipeline, layout: lay.group };
    this.pipelines.set(key, entry);
    return entry;
  }

  private ensurePass(): GPUComputePassEncoder {
    if (!this.encoder) this.encoder = this.device.createCommandEncoder();
    if (!this.pass) this.pass = this.encoder.beginComputePass();
    return this.pass;
  }

  private ensureEncoderNoPass(): GPUCommandEncoder {
    if (this.pass) {
      this.pass.end();
      this.pass = null;
    }
    if (!this.encoder) this.encoder = this.device.createCommandEncoder();
    return this.encoder;
  }

  /**
   * Records one dispatch. `uniforms` (at most 256 bytes) goes to binding 0, `buffers` to
   * bindings 1..n in the order of the kernel's signature.
   */
  dispatch(
    key: string,
    make: () => KernelSource,
    buffers: readonly GPUBuffer[],
    uniforms: Uint32Array,
    groups: readonly [number, number, number],
  ): void {
    if (this.compileOnly) {
      this.pipeline(key, make);
      return;
    }
    if (groups[0] === 0 || groups[1] === 0 || groups[2] === 0) return;
    const { pipeline, layout } = this.pipeline(key, make);
    if (this.arenaUsed + UNIFORM_SLOT > ARENA_BYTES) this.flush();
    const off = this.arenaUsed;
    this.arenaCpu.set(new Uint8Array(uniforms.buffer, uniforms.byteOffset, Math.min(uniforms.byteLength, UNIFORM_SLOT)), off);
    this.arenaUsed += UNIFORM_SLOT;
    const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: { buffer: this.arena, offset: off, size: UNIFORM_SLOT } }];
    for (let i = 0; i < buffers.length; i++) entries.push({ binding: i + 1, resource: { buffer: buffers[i]! } });
    const bindGroup = this.device.createBindGroup({ layout, entries });
    const pass = this.ensurePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(groups[0], groups[1], groups[2]);
    this.statsData.dispatches++;
  }

  /** Records a zero fill of the first `bytes` bytes of `buf`. */
  clear(buf: GPUBuffer, bytes: number): void {
    const n = Math.ceil(bytes / 4) * 4;
    if (n === 0) return;
    this.ensureEncoderNoPass().clearBuffer(buf, 0, n);
  }

  /** Records a buffer-to-buffer copy (byte offsets and size must be multiples of 4). */
  copy(src: GPUBuffer, srcOffset: number, dst: GPUBuffer, dstOffset: number, bytes: number): void {
    if (bytes === 0) return;
    this.ensureEncoderNoPass().copyBufferToBuffer(src, srcOffset, dst, dstOffset, bytes);
  }

  /** Submits everything recorded so far (one submit). */
  flush(): void {
    if (this.pass) {
      this.pass.end();
      this.pass = null;
    }
    if (this.encoder) {
      if (this.arenaUsed > 0) this.device.queue.writeBuffer(this.arena, 0, this.arenaCpu, 0, this.arenaUsed);
      this.device.queue.submit([this.encoder.finish()]);
      this.encoder = null;
      this.statsData.submits++;
    }
    this.arenaUsed = 0;
    if (this.deferredDestroy.length) {
      for (const b of this.deferredDestroy) b.destroy();
      this.deferredDestroy = [];
    }
  }

  /** Writes host data at a byte offset, ordered after every earlier recorded command. */
  write(buf: GPUBuffer, byteOffset: number, data: ArrayBufferView): void {
    this.check();
    this.flush();
    // writeBuffer needs a multiple-of-4 size; Float32Array data always is.
    this.device.queue.writeBuffer(buf, byteOffset, data.buffer, data.byteOffset, data.byteLength);
  }

  /** Reads `bytes` bytes of `buf` after all earlier work; resolves with a fresh ArrayBuffer. */
  async read(buf: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
    this.check();
    const size = sizeClass(bytes);
    const list = this.readPool.get(size);
    const staging =
      list?.pop() ?? this.device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const n = Math.ceil(bytes / 4) * 4;
    this.copy(buf, 0, staging, 0, n);
    this.flush();
    await staging.mapAsync(GPUMapMode.READ, 0, n);
    const out = staging.getMappedRange(0, n).slice(0);
    staging.unmap();
    let back = this.readPool.get(size);
    if (!back) {
      back = [];
      this.readPool.set(size, back);
    }
    if (back.length < 4) back.push(staging);
    else staging.destroy();
    return out;
  }

  /** Resolves when every submitted command has finished. */
  async sync(): Promise<void> {
    this.flush();
    await this.device.queue.onSubmittedWorkDone();
    this.check();
  }

  /** Destroys pooled buffers and the device. */
  dispose(): void {
    try {
      this.flush();
    } catch {
      // device may be lost already
    }
    for (const list of [...this.pool.values(), ...this.readPool.values()]) for (const b of list) b.destroy();
    this.pool.clear();
    this.readPool.clear();
    this.arena.destroy();
    this.device.destroy();
  }
}
