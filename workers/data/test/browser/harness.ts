/**
 * Shared by the browser test and the benchmark: builds the test page with Vite (the worker,
 * DuckDB's wasm and worker scripts are emitted as local assets), serves it on 127.0.0.1 with
 * `vite preview`, and launches Debian's Chromium through playwright-core, recording every
 * request so that callers can assert that nothing leaves 127.0.0.1.
 */
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

/** Chromium binary; `CHROMIUM_PATH` overrides Debian's. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * True (skip) when there is no Chromium to drive; then prints the reason and records it for
 * the summary of `npm test` (the `DECISIO_TEST_SKIP_LOG` file, see scripts/test.mjs).
 */
export function skipWithoutChromium(file: string): boolean {
  if (existsSync(CHROMIUM_PATH)) return false;
  const reason = process.env.DECISIO_TEST_MISSING_CHROMIUM ?? `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium or set CHROMIUM_PATH)`;
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  const log = process.env.DECISIO_TEST_SKIP_LOG;
  if (log) appendFileSync(log, `${JSON.stringify({ file: path, service: 'chromium', name: 'Chromium', reason })}\n`);
  else console.warn(`skipped: Chromium tests of ${path} (${reason})`);
  return true;
}

/** A served test page in a running browser. */
export interface Harness {
  page: Page;
  browser: Browser;
  origin: string;
  /** Every URL requested by the page and its workers. */
  requests: string[];
  /** Requests that did not go to the page's origin (or to blob:/data:). */
  external(): string[];
  close(): Promise<void>;
}

/** Builds and serves the test page, opens it in headless Chromium and waits until it is ready. */
export async function openHarness(root = here): Promise<Harness> {
  const outDir = mkdtempSync(join(tmpdir(), 'decisio-data-page-'));
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      chunkSizeWarningLimit: 100_000,
      // DuckDB's bundle makes the worker-URL transform slow (a few seconds); no need to say so.
      rolldownOptions: { checks: { bundlerTimings: false } },
    },
    worker: { format: 'es' },
  });
  let server: PreviewServer | null = null;
  let browser: Browser | null = null;
  try {
    server = await preview({
      root,
      configFile: false,
      logLevel: 'warn',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, strictPort: false },
    });
    const address = server.httpServer.address();
    if (!address || typeof address === 'string') throw new Error('preview server has no port');
    const origin = `http://127.0.0.1:${address.port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const context = await browser.newContext();
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    // Anything but the page's origin is refused, so a run-time download would fail loudly.
    await context.route((url) => url.origin !== origin, (route) => route.abort('blockedbyclient'));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/index.html`);
    await page.waitForFunction(() => document.title === 'ready', null, { timeout: 30_000 }).catch(() => {
      throw new Error(`test page did not start: ${errors.join('; ')}`);
    });
    const srv = server;
    const br = browser;
    return {
      page,
      browser: br,
      origin,
      requests,
      external: () => requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('blob:') && !u.startsWith('data:')),
      async close() {
        await br.close();
        await srv.close();
        rmSync(outDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await browser?.close();
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
    throw e;
  }
}

/** Chooses a file on disk in the page's file input (the browser reads it lazily). */
export async function chooseFile(page: Page, path: string): Promise<void> {
  await page.setInputFiles('#file', path);
}
