/**
 * Runs the WebGPU kernel checks inside headless Chromium: bundles `webgpu-entry.ts` with Vite
 * (library build, in memory), serves it from a tiny static server on 127.0.0.1 (a secure
 * context, which WebGPU requires), opens it with playwright-core on the system Chromium with
 * `--enable-unsafe-webgpu` and returns the page's report.
 */
import { createServer, type Server } from 'node:http';
import { appendFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserReport } from './webgpu-entry.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** Chromium executables tried in order (override with `CHROMIUM_PATH`). */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * Records a test file's skip and its reason for the summary of `npm test` (the
 * `DECISIO_TEST_SKIP_LOG` file, see scripts/test.mjs), or prints it when run on its own.
 */
export function recordSkip(file: string, name: string, reason: string): void {
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  const log = process.env.DECISIO_TEST_SKIP_LOG;
  if (log) appendFileSync(log, `${JSON.stringify({ file: path, service: name.toLowerCase(), name, reason })}\n`);
  else console.warn(`skipped: ${name} tests of ${path} (${reason})`);
}

/** Flags for headless WebGPU on SwiftShader or a real GPU. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--enable-unsafe-webgpu',
];

/** Bundles the browser entry into one ES module (string). */
export async function bundleEntry(): Promise<string> {
  const { build } = await import('vite');
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    root: here,
    build: {
      write: false,
      minify: false,
      target: 'esnext',
      lib: { entry: join(here, 'webgpu-entry.ts'), formats: ['es'], fileName: 'entry' },
      rollupOptions: { external: [/^node:/, 'webgpu'] },
    },
  });
  const outputs = Array.isArray(out) ? out : [out];
  for (const o of outputs) {
    if ('output' in o) {
      for (const chunk of o.output) if (chunk.type === 'chunk' && chunk.isEntry) return chunk.code;
    }
  }
  throw new Error('vite produced no entry chunk');
}

function serve(js: string): Promise<{ server: Server; url: string }> {
  const html = '<!doctype html><meta charset="utf-8"><title>webgpu checks</title><script type="module" src="/entry.js"></script>';
  const server = createServer((req, res) => {
    if (req.url === '/entry.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(js);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html);
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    });
  });
}

/** Result of {@link runInChromium}: the page's report, or why Chromium could not run it. */
export type HarnessResult = BrowserReport | { ok: false; reason: string };

/**
 * Bundles, serves and runs the kernel checks in headless Chromium.
 * Never throws: failures to start come back as `{ ok: false, reason }`.
 */
export async function runInChromium(timeoutMs = 240_000): Promise<HarnessResult> {
  const exe = process.env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.find((p) => existsSync(p));
  if (!exe) return { ok: false, reason: `no Chromium executable (tried ${CHROMIUM_CANDIDATES.join(', ')})` };
  let js: string;
  try {
    js = await bundleEntry();
  } catch (err) {
    return { ok: false, reason: `bundling failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  const { chromium } = await import('playwright-core');
  const { server, url } = await serve(js);
  const browser = await chromium.launch({ executablePath: exe, headless: true, args: CHROMIUM_FLAGS }).catch((err: unknown) => err as Error);
  try {
    if (browser instanceof Error) return { ok: false, reason: `Chromium failed to start: ${browser.message}` };
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => typeof (globalThis as { runWebGPUKernelChecks?: unknown }).runWebGPUKernelChecks === 'function', null, {
      timeout: 30_000,
    });
    page.setDefaultTimeout(timeoutMs);
    const report = (await page.evaluate(() =>
      (globalThis as unknown as { runWebGPUKernelChecks: () => Promise<unknown> }).runWebGPUKernelChecks(),
    )) as BrowserReport;
    if (pageErrors.length && report.ok) report.errors.push(...pageErrors);
    return report;
  } catch (err) {
    return { ok: false, reason: `page failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    if (!(browser instanceof Error)) await browser.close();
    server.close();
  }
}
