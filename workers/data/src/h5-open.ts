/**
 * Opens a local HDF5 File in the worker with h5wasm: the File is mounted on Emscripten's
 * WORKERFS (random access through FileReaderSync, nothing copied into wasm memory) and opened
 * read-only. Only usable inside a Web Worker.
 */
import h5wasm, { type Group } from 'h5wasm';

/** An opened HDF5 file; call `close` when done. */
export interface H5Handle {
  root: Group;
  close(): void;
}

/** Opens a File or Blob as HDF5; used by `inspect` and `stats`. */
export type H5Opener = (file: File) => Promise<H5Handle>;

let mounts = 0;

/** {@link H5Opener} for Web Workers (WORKERFS mount). */
export const openH5InWorker: H5Opener = async (file) => {
  const { FS } = await h5wasm.ready;
  mounts += 1;
  const dir = `/decisio-h5-${mounts}`;
  FS.mkdir(dir);
  FS.mount(FS.filesystems.WORKERFS, { files: [file] }, dir);
  let f: InstanceType<typeof h5wasm.File>;
  try {
    f = new h5wasm.File(`${dir}/${file.name}`, 'r');
  } catch (e) {
    FS.unmount(dir);
    FS.rmdir(dir);
    throw e;
  }
  return {
    root: f,
    close() {
      f.close();
      FS.unmount(dir);
      FS.rmdir(dir);
    },
  };
};
