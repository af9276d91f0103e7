import type { AppContext, AppMiddleware } from './context';
import { isHttps } from './proxy';

/**
 * The workbench's Content-Security-Policy. Every source is there because the workbench needs it
 * (checked in real Chromium by the e2e suite, which fails on any violation):
 * - `script-src 'self' 'wasm-unsafe-eval'`: only the built bundles (no inline script, no eval);
 *   WebAssembly compilation for DuckDB-WASM, h5wasm and the compute core's kernels (DuckDB's
 *   own worker scripts get `'unsafe-eval'` too: {@link DUCKDB_WORKER_CSP}).
 * - `worker-src 'self' blob:`: the data and Monaco workers are built files; the compute core's
 *   wasm thread pool starts its workers from a `blob:` URL.
 * - `style-src 'self' 'unsafe-inline'`: Monaco, Blueprint popovers, dockview and React Flow
 *   insert `<style>` elements and style attributes at run time.
 * - `img-src 'self' data: blob:`: the data-URL favicon and icons, charts exported as blobs.
 * - `font-src 'self' data:`: bundled fonts, some inlined as data URLs by the build.
 * - `connect-src 'self'`: the api, event streams and the wasm/parquet files the workers fetch.
 * - `object-src 'none'`, `base-uri 'self'`, `form-action 'self'`, `frame-ancestors 'none'`.
 */
export const WORKBENCH_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Api answers are data, never documents: nothing may load or run from them (a downloaded file
 * opened in the browser runs no script).
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * TensorBoard's own page behind `/api/tensorboard/<jobId>/` (opened in its own tab): its bundle
 * needs inline scripts and eval. When TensorBoard sends a policy of its own, both apply (the
 * browser enforces every policy), so its script hashes still hold and this one still forbids
 * framing.
 */
export const TENSORBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline' data:",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * DuckDB-WASM's own worker scripts (`/assets/duckdb-browser-<eh|mvp>.worker-<hash>.js`): its
 * Emscripten glue evaluates its EM_ASM snippets with `eval` and Apache Arrow compiles
 * null checks with `new Function`, so this policy, which Chromium applies to a worker from the
 * worker script's own answer, adds `'unsafe-eval'` for these two files only. A worker has no
 * DOM and no local storage; the pages and every other worker keep the workbench policy.
 */
export const DUCKDB_WORKER_CSP = WORKBENCH_CSP.replace("script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'");

const DUCKDB_WORKER = /^\/assets\/duckdb-browser-[a-z]+\.worker-[\w-]+\.js$/;

/** HSTS over https only: a year, this host only (other hosts of the domain may not have https). */
export const HSTS = 'max-age=31536000';

const TENSORBOARD_PREFIX = '/api/tensorboard/';

function policyOf(path: string): string {
  if (path.startsWith(TENSORBOARD_PREFIX)) return TENSORBOARD_CSP;
  if (path.startsWith('/api/') || path === '/api' || path === '/healthz') return API_CSP;
  if (DUCKDB_WORKER.test(path)) return DUCKDB_WORKER_CSP;
  return WORKBENCH_CSP;
}

/**
 * Sets the security headers of one answer (also used by the error fallback after it cleared the
 * headers): cross-origin isolation (COOP/COEP/CORP: SharedArrayBuffer for DuckDB-WASM and the
 * compute workers), the Content-Security-Policy of the path, no framing, no referrer, no
 * sniffing, and HSTS when the client came over https.
 */
export function applySecurityHeaders(ctx: AppContext): void {
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cross-Origin-Embedder-Policy', 'require-corp');
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', policyOf(ctx.path));
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  if (isHttps(ctx)) ctx.set('Strict-Transport-Security', HSTS);
}

/**
 * Security headers on every answer of the workbench and the api (the decision access address,
 * a machine endpoint on the hot path, answers before this with its own light headers).
 */
export function securityHeaders(): AppMiddleware {
  return async (ctx, next) => {
    applySecurityHeaders(ctx);
    await next();
    if (!ctx.path.startsWith(TENSORBOARD_PREFIX)) return;
    // The proxied TensorBoard copies its own headers over ours: keep its policy and add ours.
    const theirs = ctx.response.get('Content-Security-Policy');
    if (theirs && theirs !== TENSORBOARD_CSP) ctx.set('Content-Security-Policy', [String(theirs), TENSORBOARD_CSP]);
    else ctx.set('Content-Security-Policy', TENSORBOARD_CSP);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
  };
}
