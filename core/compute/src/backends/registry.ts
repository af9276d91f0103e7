/**
 * Backend registry: backends register a factory under a name; `setBackend` activates one and
 * falls back (logging the reason) when it cannot start. Op code only ever calls
 * {@link getBackend}; it never looks at the name.
 */
import type { Backend } from './backend.ts';

/** Creates a backend. May throw or reject when the backend is unavailable (no adapter, ...). */
export type BackendFactory = () => Backend | Promise<Backend>;

interface Entry {
  factory: BackendFactory;
  priority: number;
  instance?: Backend;
}

const entries = new Map<string, Entry>();
let current: Backend | null = null;
let logger: (message: string) => void = (m) => console.warn(`[compute] ${m}`);

/**
 * Registers (or replaces) a backend factory. Higher `priority` backends are tried first by
 * `setBackend('auto')`. The factory is called lazily, once.
 */
export function registerBackend(name: string, factory: BackendFactory, priority = 0): void {
  entries.set(name, { factory, priority });
}

/** Names of registered backends, highest priority first. */
export function listBackends(): string[] {
  return [...entries.entries()].sort((a, b) => b[1].priority - a[1].priority).map(([n]) => n);
}

/** Replaces the logger used for fallback messages (default: console.warn). */
export function setBackendLogger(log: (message: string) => void): void {
  logger = log;
}

/**
 * Instantiates (once) the backend registered under `name`, running its `init()`.
 * @throws Error when no such backend is registered or its factory/init fails.
 */
export async function loadBackend(name: string): Promise<Backend> {
  const e = entries.get(name);
  if (!e) throw new Error(`compute: backend '${name}' is not registered`);
  if (e.instance) return e.instance;
  const b = await e.factory();
  if (b.init) await b.init();
  e.instance = b;
  return b;
}

/**
 * Activates a backend. `'auto'` tries registered backends by priority. When the requested backend
 * fails, falls back to 'cpu' and logs why. Resolves with the active backend.
 * Tensors created on the previous backend stay on it (they cannot be mixed in one op).
 */
export async function setBackend(name: string): Promise<Backend> {
  const order = name === 'auto' ? listBackends() : [name, ...(name === 'cpu' ? [] : ['cpu'])];
  let lastErr: unknown = null;
  for (const n of order) {
    try {
      const b = await loadBackend(n);
      if (n !== name && name !== 'auto') {
        logger(`backend '${name}' unavailable (${String(lastErr)}); falling back to '${n}'`);
      }
      current = b;
      logger(`backend '${b.name}' active (path: ${b.capabilities.path})`);
      return b;
    } catch (err) {
      lastErr = err instanceof Error ? err.message : err;
      if (name === 'auto') logger(`backend '${n}' unavailable: ${String(lastErr)}`);
    }
  }
  throw new Error(`compute: no backend could start (last error: ${String(lastErr)})`);
}

/** Makes an already-created backend instance the active one (tests, embedding). */
export function useBackendInstance(backend: Backend): void {
  current = backend;
}

/** Hook set by the CPU backend module so `getBackend` works synchronously out of the box. */
let defaultFactory: (() => Backend) | null = null;

/** @internal Installs the synchronous default backend factory (the CPU backend). */
export function setDefaultBackendFactory(f: () => Backend): void {
  defaultFactory = f;
}

/**
 * The active backend; the synchronous default (CPU) is created on first use.
 * @throws Error when no backend is active and no default is installed.
 */
export function getBackend(): Backend {
  if (current) return current;
  if (!defaultFactory) throw new Error('compute: no backend active; call setBackend()');
  const b = defaultFactory();
  const e = entries.get(b.name);
  if (e && !e.instance) e.instance = b;
  current = b;
  return b;
}
