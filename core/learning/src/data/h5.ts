/**
 * HDF5 (`.h5`) trajectories through h5wasm: every top-level dataset becomes an {@link NdArray}
 * (int64 comes back as `BigInt64Array`). Groups are walked, keys are dataset paths without the
 * leading slash. The file is written into h5wasm's in-memory file system and removed after.
 */
import { LearningError } from '../errors';
import type { NdArray, NumericArray } from './npy';

type H5 = typeof import('h5wasm');
let loaded: Promise<{ h5: H5['default']; FS: NonNullable<H5['FS']> }> | undefined;

async function load(): Promise<{ h5: H5['default']; FS: NonNullable<H5['FS']> }> {
  loaded ??= (async () => {
    const isNode = typeof process !== 'undefined' && !!process.versions?.node;
    const mod = (isNode ? await import('h5wasm/node') : await import('h5wasm')) as unknown as H5;
    const h5 = mod.default ?? (mod as unknown as H5['default']);
    const module = await h5.ready;
    return { h5, FS: (module as unknown as { FS: NonNullable<H5['FS']> }).FS };
  })();
  return loaded;
}

let counter = 0;

/** Reads all datasets of an HDF5 file. Throws `data.h5Format`. */
export async function readH5(bytes: Uint8Array): Promise<Record<string, NdArray>> {
  const { h5, FS } = await load();
  const path = `/decisio-${Date.now()}-${counter++}.h5`;
  FS.writeFile(path, bytes);
  let file: InstanceType<H5['File']> | undefined;
  try {
    try {
      file = new h5.File(path, 'r');
    } catch (e) {
      throw new LearningError('data.h5Format', { detail: (e as Error).message ?? String(e) });
    }
    const out: Record<string, NdArray> = {};
    const walk = (group: InstanceType<H5['Group']>, prefix: string): void => {
      for (const key of group.keys()) {
        const entity = group.get(key);
        if (entity instanceof h5.Group) walk(entity, `${prefix}${key}/`);
        else if (entity instanceof h5.Dataset) {
          const value = entity.value;
          const shape = entity.shape ?? [];
          if (!ArrayBuffer.isView(value)) continue; // strings, compounds: not trajectory data
          const meta = entity.metadata as { type: number; size: number; signed: boolean };
          out[`${prefix}${key}`] = { dtype: dtypeName(value as NumericArray, meta), shape, data: value as NumericArray };
        }
      }
    };
    walk(file, '');
    return out;
  } finally {
    try {
      file?.close();
    } catch {
      /* already closed */
    }
    try {
      FS.unlink(path);
    } catch {
      /* not created */
    }
  }
}

function dtypeName(d: NumericArray, meta: { size: number; signed: boolean }): string {
  if (d instanceof Float32Array) return 'f4';
  if (d instanceof Float64Array) return 'f8';
  return `${meta.signed ? 'i' : 'u'}${meta.size}`;
}

/** Writes arrays into an HDF5 file (for tests and exports). */
export async function writeH5(arrays: Record<string, NdArray>): Promise<Uint8Array> {
  const { h5, FS } = await load();
  const path = `/decisio-w-${Date.now()}-${counter++}.h5`;
  const file = new h5.File(path, 'w');
  try {
    for (const [name, a] of Object.entries(arrays)) file.create_dataset({ name, data: a.data, shape: a.shape });
  } finally {
    file.close();
  }
  const out = FS.readFile(path) as Uint8Array;
  FS.unlink(path);
  return out;
}
