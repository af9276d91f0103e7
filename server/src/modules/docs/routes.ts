/**
 * The API description, public: `GET /api/openapi.json` (OpenAPI 3.1, see `openapi.ts`) and
 * `GET /api/docs`, the same as a plain page (every call with its summary, whether it needs a
 * session, its request schema and its reply's), readable without any script or outside asset.
 * Built once, on the first request, from the routes mounted by then (all of them: the server
 * mounts its routes before it listens).
 */
import type { Router } from '@koa/router';
import type { AppState } from '../../http/context';
import { SERVER_VERSION } from '../../version';
import { buildOpenApi } from './openapi';

type Json = Record<string, any>;

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The document as a page. */
export function docsPage(doc: Json): string {
  const ops: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      const reply = op.responses?.['200']?.content?.['application/json']?.schema?.properties?.data;
      ops.push(
        `<section id="${esc(op.operationId)}"><h2><code>${method.toUpperCase()} ${esc(path)}</code></h2><p>${esc(op.summary)}${op.security ? ' <em>(signed in)</em>' : ''}</p>` +
          (body ? `<details><summary>Request body</summary><pre>${esc(JSON.stringify(body, null, 2))}</pre></details>` : '') +
          (op.parameters ? `<details><summary>Parameters</summary><pre>${esc(JSON.stringify(op.parameters, null, 2))}</pre></details>` : '') +
          (reply && Object.keys(reply).length ? `<details><summary>Reply <code>data</code></summary><pre>${esc(JSON.stringify(reply, null, 2))}</pre></details>` : '') +
          '</section>',
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)} ${esc(doc.info.version)}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}h2{font-size:1rem;margin:1.5rem 0 .25rem}pre{background:rgba(127,127,127,.12);padding:.5rem;overflow:auto}@media (prefers-color-scheme:dark){body{background:#1c2127;color:#e5e8eb}}</style></head>
<body><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1><p>${esc(doc.info.description)}</p><p><a href="/api/openapi.json">openapi.json</a> · ${ops.length} calls</p>${ops.join('\n')}</body></html>`;
}

/** Mounts the two documents on `router`; `routers` are those the description covers. */
export function docsRoutes(router: Router<AppState>, routers: ReadonlyArray<Router<AppState>>, auth: unknown): void {
  let doc: Json | null = null;
  const build = () => (doc ??= buildOpenApi(routers, { version: SERVER_VERSION, auth }));
  router.get('/openapi.json', (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = build();
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = docsPage(build());
  });
}
