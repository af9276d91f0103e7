#!/usr/bin/env node
// Builds the optional OpenBLAS N-API addon (native/decisio_blas.c) when the machine has
// OpenBLAS headers (Debian: libopenblas-dev) and node headers. NEVER fails: on any problem it
// prints why and exits 0, and the compute core uses its WebAssembly path instead.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const nativeDir = join(here, '..', 'native');
const say = (m) => console.log(`[compute] native BLAS: ${m}`);

try {
  if (process.env.DECISIO_NO_NATIVE === '1') { say('skipped (DECISIO_NO_NATIVE=1)'); process.exit(0); }
  const cblas = ['/usr/include/x86_64-linux-gnu/cblas.h', '/usr/include/aarch64-linux-gnu/cblas.h', '/usr/include/cblas.h', '/usr/include/openblas/cblas.h'];
  if (!cblas.some((p) => existsSync(p))) { say('OpenBLAS headers not found (apt-get install libopenblas-dev); using wasm'); process.exit(0); }
  let gyp = null;
  const candidates = [join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')];
  try { candidates.unshift(createRequire(import.meta.url).resolve('node-gyp/bin/node-gyp.js')); } catch { /* not installed locally */ }
  gyp = candidates.find((p) => existsSync(p)) ?? null;
  if (!gyp) { say('node-gyp not found; using wasm'); process.exit(0); }
  const args = [gyp, 'rebuild'];
  const localHeaders = join(dirname(process.execPath), '..', 'include', 'node', 'node_api.h');
  if (existsSync(localHeaders)) args.push(`--nodedir=${join(dirname(process.execPath), '..')}`);
  const r = spawnSync(process.execPath, args, { cwd: nativeDir, stdio: 'pipe', encoding: 'utf8', timeout: 120_000 });
  if (r.status === 0) say('built native/build/Release/decisio_blas.node');
  else say(`build failed (status ${r.status}); using wasm.\n${(r.stderr || '').split('\n').slice(-8).join('\n')}`);
} catch (e) {
  say(`skipped: ${e instanceof Error ? e.message : String(e)}`);
}
process.exit(0);
