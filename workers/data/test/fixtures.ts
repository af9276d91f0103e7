/** Test fixtures: npy/npz bytes written in TypeScript (no numpy needed). */
import { zipSync, type Zippable } from 'fflate';

/** Bytes of an npy v1.0 file. `data` is in storage order (column-major if `fortran`). */
export function npyBytes(descr: string, shape: number[], data: ArrayBufferView, fortran = false): Uint8Array {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': ${shapeText}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const out = new Uint8Array(10 + header.length + data.byteLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(new TextEncoder().encode(header), 10);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 10 + header.length);
  return out;
}

/** An npz archive of named npy members, stored (level 0) or deflated. */
export function npzBytes(members: Record<string, Uint8Array>, deflate = false): Uint8Array {
  const z: Zippable = {};
  for (const [k, v] of Object.entries(members)) z[`${k}.npy`] = [v, { level: deflate ? 6 : 0 }];
  return zipSync(z);
}

/** A File in Node (global since Node 20). */
export function fileOf(bytes: Uint8Array | string, name: string): File {
  return new File([typeof bytes === 'string' ? bytes : bytes.slice()], name);
}
