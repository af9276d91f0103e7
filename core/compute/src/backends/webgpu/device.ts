/**
 * WebGPU adapter and device acquisition, isomorphic.
 *
 * - Browser / worker: `navigator.gpu`.
 * - Node: the `webgpu` package (Dawn), loaded with a dynamic import only when the runtime is
 *   Node, so bundles for the browser never pull it in. Dawn finds adapters through a Vulkan
 *   driver. When the system's drivers give no adapter (no GPU; Mesa's lavapipe is rejected by
 *   Dawn), the module looks for Chromium's SwiftShader Vulkan ICD in the standard install
 *   locations and retries with `VK_ICD_FILENAMES` pointing at it.
 *
 * Environment (Node only):
 * - `DECISIO_VK_ICD`: path of a Vulkan ICD json to use (overrides discovery).
 * - `VK_ICD_FILENAMES` / `VK_DRIVER_FILES`: when already set, honoured as they are.
 *
 * The object returned by Dawn's `create()` is kept in a module-level array for the life of the
 * process: Dawn crashes the process when it is garbage-collected while devices exist.
 */

/** Summary of the adapter a backend runs on (for logs, capabilities and benchmarks). */
export interface GpuAdapterSummary {
  /** Vendor string reported by the adapter (e.g. 'google', 'nvidia'); may be empty. */
  vendor: string;
  /** Architecture string (e.g. 'swiftshader'); may be empty. */
  architecture: string;
  /** Driver/device description; may be empty. */
  description: string;
  /** True for software fallback adapters (SwiftShader). */
  isFallbackAdapter: boolean;
  /** Where the adapter came from: 'navigator.gpu' or 'node-webgpu'. */
  source: 'navigator.gpu' | 'node-webgpu';
  /** Vulkan ICD file used in Node, when one was chosen by this module. */
  icd?: string;
}

/** A device ready for use. */
export interface GpuAcquired {
  ok: true;
  adapter: GPUAdapter;
  device: GPUDevice;
  info: GpuAdapterSummary;
}

/** Why no device could be obtained (the engine then falls back to `cpu`). */
export interface GpuUnavailable {
  ok: false;
  reason: string;
}

/** Options of {@link acquireGpu}. */
export interface GpuAcquireOptions {
  /**
   * Accept software fallback adapters (SwiftShader). Default false: a fallback adapter is far
   * slower than the CPU backend, so it is only wanted for correctness tests.
   */
  allowFallbackAdapter?: boolean;
  /** Passed to `requestAdapter`. Default 'high-performance'. */
  powerPreference?: GPUPowerPreference;
  /** Explicit Vulkan ICD json for Node (beats `DECISIO_VK_ICD` and discovery). */
  icdPath?: string;
}

/** Standard install locations of Chromium's SwiftShader Vulkan ICD (Linux). */
export const SWIFTSHADER_ICD_CANDIDATES: readonly string[] = [
  '/usr/lib/chromium/vk_swiftshader_icd.json',
  '/usr/lib/chromium-browser/vk_swiftshader_icd.json',
  '/usr/lib64/chromium-browser/vk_swiftshader_icd.json',
  '/usr/lib64/chromium/vk_swiftshader_icd.json',
  '/opt/google/chrome/vk_swiftshader_icd.json',
  '/opt/google/chrome-beta/vk_swiftshader_icd.json',
  '/opt/chromium.org/chromium/vk_swiftshader_icd.json',
  '/snap/chromium/current/usr/lib/chromium-browser/vk_swiftshader_icd.json',
];

// Dawn's GPU objects must outlive every device created from them (see module header).
const retainedNodeGpus: unknown[] = [];

interface NodeModules {
  fs: typeof import('node:fs');
  path: typeof import('node:path');
  os: typeof import('node:os');
}

function isNodeRuntime(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof p?.versions?.node === 'string';
}

function browserGpu(): GPU | undefined {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  return nav?.gpu;
}

async function loadNodeModules(): Promise<NodeModules> {
  const [fs, path, os] = await Promise.all([import('node:fs'), import('node:path'), import('node:os')]);
  return { fs, path, os };
}

/**
 * Finds a SwiftShader Vulkan ICD json on this machine: the standard Chromium/Chrome locations,
 * then Playwright's browser cache, then the directory of `CHROME_PATH`/`CHROMIUM_PATH`.
 * @returns the first existing path, or null.
 */
export async function findSwiftShaderIcd(): Promise<string | null> {
  if (!isNodeRuntime()) return null;
  const { fs, path, os } = await loadNodeModules();
  const candidates = [...SWIFTSHADER_ICD_CANDIDATES];
  for (const v of ['CHROME_PATH', 'CHROMIUM_PATH']) {
    const exe = process.env[v];
    if (exe) candidates.push(path.join(path.dirname(exe), 'vk_swiftshader_icd.json'));
  }
  const pwCache = process.env.PLAYWRIGHT_BROWSERS_PATH ?? path.join(os.homedir(), '.cache', 'ms-playwright');
  try {
    for (const d of fs.readdirSync(pwCache)) {
      if (d.startsWith('chromium')) {
        for (const sub of ['chrome-linux', 'chrome-linux64', 'chrome-headless-shell-linux64']) {
          candidates.push(path.join(pwCache, d, sub, 'vk_swiftshader_icd.json'));
        }
      }
    }
  } catch {
    // no playwright cache
  }
  for (const c of candidates) {
    try {
      if (fs.statSync(c).isFile()) return c;
    } catch {
      // not there
    }
  }
  return null;
}

function summarise(adapter: GPUAdapter, source: GpuAdapterSummary['source'], icd?: string): GpuAdapterSummary {
  const info = (adapter as { info?: GPUAdapterInfo }).info;
  const fallback =
    (info as { isFallbackAdapter?: boolean } | undefined)?.isFallbackAdapter ??
    (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter ??
    false;
  const s: GpuAdapterSummary = {
    vendor: info?.vendor ?? '',
    architecture: info?.architecture ?? '',
    description: info?.description ?? '',
    isFallbackAdapter: fallback || /swiftshader/i.test(`${info?.architecture ?? ''} ${info?.description ?? ''}`),
    source,
  };
  if (icd !== undefined) s.icd = icd;
  return s;
}

async function requestFrom(gpu: GPU, opts: GpuAcquireOptions): Promise<GPUAdapter | null> {
  const pp = opts.powerPreference ?? 'high-performance';
  let adapter = await gpu.requestAdapter({ powerPreference: pp });
  if (!adapter && opts.allowFallbackAdapter) {
    adapter = await gpu.requestAdapter({ powerPreference: pp, forceFallbackAdapter: true });
  }
  return adapter;
}

async function nodeAdapter(
  opts: GpuAcquireOptions,
): Promise<{ adapter: GPUAdapter; icd?: string } | { adapter: null; reason: string }> {
  let mod: { create: (o: string[]) => GPU; globals: object };
  try {
    // Keep the specifier opaque to bundlers: the browser never loads Dawn.
    const spec = 'webgpu';
    mod = (await import(/* @vite-ignore */ spec)) as typeof mod;
  } catch (err) {
    return { adapter: null, reason: `the 'webgpu' npm package (Dawn for Node) cannot be loaded: ${String(err)}` };
  }
  // Dawn's classes (GPUBufferUsage, ...) are needed as globals by WebGPU code.
  for (const [k, v] of Object.entries(mod.globals)) {
    if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
  }
  const env = process.env;
  const explicit = opts.icdPath ?? env.DECISIO_VK_ICD;
  const preset = env.VK_ICD_FILENAMES ?? env.VK_DRIVER_FILES;
  const tryOnce = async (): Promise<GPUAdapter | null> => {
    const gpu = mod.create([]);
    retainedNodeGpus.push(gpu);
    return requestFrom(gpu, opts);
  };
  if (explicit) {
    env.VK_ICD_FILENAMES = explicit;
    const a = await tryOnce();
    return a ? { adapter: a, icd: explicit } : { adapter: null, reason: `no WebGPU adapter with Vulkan ICD ${explicit}` };
  }
  const first = await tryOnce();
  if (first) return preset ? { adapter: first, icd: preset } : { adapter: first };
  if (preset) return { adapter: null, reason: `no WebGPU adapter with VK_ICD_FILENAMES=${preset}` };
  if (!opts.allowFallbackAdapter) {
    return { adapter: null, reason: 'no hardware WebGPU adapter (Vulkan) found and fallback adapters are not allowed' };
  }
  const icd = await findSwiftShaderIcd();
  if (!icd) {
    return {
      adapter: null,
      reason:
        'no WebGPU adapter: no Vulkan GPU driver, and no SwiftShader ICD found (install chromium + libvulkan1, or set DECISIO_VK_ICD)',
    };
  }
  env.VK_ICD_FILENAMES = icd;
  const second = await tryOnce();
  return second ? { adapter: second, icd } : { adapter: null, reason: `no WebGPU adapter, even with SwiftShader ICD ${icd}` };
}

/**
 * Obtains a WebGPU adapter and device in the browser (`navigator.gpu`) or in Node (`webgpu`).
 * Never throws: when no device can be had it resolves `{ ok: false, reason }`.
 * Requests the adapter's maximum storage-buffer binding and buffer sizes.
 */
export async function acquireGpu(opts: GpuAcquireOptions = {}): Promise<GpuAcquired | GpuUnavailable> {
  try {
    let adapter: GPUAdapter | null = null;
    let source: GpuAdapterSummary['source'];
    let icd: string | undefined;
    const gpu = browserGpu();
    if (gpu) {
      source = 'navigator.gpu';
      adapter = await requestFrom(gpu, opts);
      if (!adapter) return { ok: false, reason: 'navigator.gpu.requestAdapter() returned null' };
    } else if (isNodeRuntime()) {
      source = 'node-webgpu';
      const r = await nodeAdapter(opts);
      if (!r.adapter) return { ok: false, reason: r.reason };
      adapter = r.adapter;
      icd = r.icd;
    } else {
      return { ok: false, reason: 'WebGPU is not available in this runtime (no navigator.gpu)' };
    }
    const info = summarise(adapter, source, icd);
    if (info.isFallbackAdapter && !opts.allowFallbackAdapter) {
      return { ok: false, reason: `only a software fallback adapter is available (${info.description || info.architecture})` };
    }
    const lim = adapter.limits;
    const device = await adapter.requestDevice({
      requiredLimits: {
        maxStorageBufferBindingSize: lim.maxStorageBufferBindingSize,
        maxBufferSize: lim.maxBufferSize,
        maxComputeWorkgroupStorageSize: lim.maxComputeWorkgroupStorageSize,
        maxComputeInvocationsPerWorkgroup: lim.maxComputeInvocationsPerWorkgroup,
      },
    });
    return { ok: true, adapter, device, info };
  } catch (err) {
    return { ok: false, reason: `WebGPU device request failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}
