/**
 * The multi-threaded wasm SIMD path in a real browser: headless Chromium opens a cross-origin
 * isolated page (COOP same-origin + COEP require-corp, as the server sends them), which starts
 * `cpu-pool-entry.ts` in a module Web Worker; the worker starts the pool's own workers over
 * shared memory, checks its matmuls against the JS kernels and trains a small MLP on it.
 */
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_CANDIDATES, CHROMIUM_FLAGS, recordSkip } from './webgpu-harness.ts';
import type { PoolReport } from './cpu-pool-entry.ts';

const here = dirname(fileURLToPath(import.meta.url));

async function bundle(): Promise<string> {
  const { build } = await import('vite');
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    root: here,
    build: {
      write: false,
      minify: false,
      target: 'esnext',
      lib: { entry: join(here, 'cpu-pool-entry.ts'), formats: ['es'], fileName: 'entry' },
      rollupOptions: { external: [/^node:/, 'webgpu'] },
    },
  });
  for (const o of Array.isArray(out) ? out : [out]) {
    if ('output' in o) for (const chunk of o.output) if (chunk.type === 'chunk' && chunk.isEntry) return chunk.code;
  }
  throw new Error('vite produced no entry chunk');
}

const ISOLATION = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const PAGE = `<!doctype html><meta charset="utf-8"><title>cpu pool</title><script>
window.runPool = () => new Promise((resolve) => {
  const w = new Worker('/entry.js', { type: 'module' });
  w.onmessage = (e) => resolve(e.data);
  w.onerror = (e) => resolve({ error: 'worker error: ' + (e.message || 'unknown') });
  w.postMessage('go');
});
</script>`;

function serve(js: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/entry.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', ...ISOLATION });
      res.end(js);
    } else {
      res.writeHead(200, { 'content-type': 'text/html', ...ISOLATION });
      res.end(PAGE);
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/` });
    });
  });
}

const exe = process.env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.find((p) => existsSync(p));

const noChromium = !exe || !existsSync(exe);
if (noChromium) recordSkip(import.meta.url, 'Chromium', process.env.DECISIO_TEST_MISSING_CHROMIUM ?? `no Chromium executable (tried ${exe ?? CHROMIUM_CANDIDATES.join(', ')}; set CHROMIUM_PATH)`);

describe.skipIf(noChromium)('wasm-simd-mt worker pool in Chromium', () => {
  let report: PoolReport;
  let server: Server | undefined;

  beforeAll(async () => {
    const served = await serve(await bundle());
    server = served.server;
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: exe!, headless: true, args: CHROMIUM_FLAGS.filter((f) => f !== '--enable-unsafe-webgpu') });
    try {
      const page = await browser.newPage();
      await page.goto(served.url);
      report = (await page.evaluate(() => (window as unknown as { runPool: () => Promise<PoolReport> }).runPool())) as PoolReport;
    } finally {
      await browser.close();
    }
  }, 180_000);
  afterAll(() => {
    server?.close();
  });

  it('runs in a cross-origin isolated worker and starts the pool without blocking', () => {
    console.info(`[cpu pool] cores ${report.cores}, selected ${report.selected}, loss ${report.firstLoss.toFixed(4)} -> ${report.lastLoss.toFixed(4)}`);
    expect(report.error).toBeUndefined();
    expect(report.isolated).toBe(true);
    if (report.cores < 2) {
      // One core: the pool is rightly not offered; the single-thread wasm path is chosen.
      expect(report.poolStarted).toBe(false);
      expect(report.selected).toBe('wasm-simd');
      return;
    }
    expect(report.poolStarted).toBe(true);
    expect(report.selected).toBe('wasm-simd-mt');
    expect(report.paths).toEqual(['wasm-simd-mt', 'wasm-simd', 'js']);
  });

  it('matches the JS kernels on every matmul variant', () => {
    expect(report.checks.length).toBeGreaterThan(0);
    if (report.cores < 2) return;
    for (const c of report.checks) expect(c.ok, `${c.name}: ${c.detail}`).toBe(true);
  });

  it('trains an MLP on it', () => {
    expect(report.lastLoss).toBeLessThan(report.firstLoss * 0.5);
  });
});
