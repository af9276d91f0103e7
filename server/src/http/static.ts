import fs from 'node:fs';
import path from 'node:path';
import type { AppMiddleware } from './context';
import { opened } from './stream';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.onnx': 'application/octet-stream',
  '.parquet': 'application/octet-stream',
};

/** True when `dir` holds a built workbench (`index.html`). */
export function hasWorkbench(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'index.html'));
}

function fileIn(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(full).isFile() ? full : null;
  } catch {
    return null;
  }
}

/**
 * Serves the built workbench from `root`: files as they are (hashed files under `assets/` cached
 * for a year as immutable, everything else revalidated), and `index.html` (no-cache) for any other
 * GET outside `/api/` so client-side routes work on reload. Compression is done by the
 * compression middleware in front of it.
 */
export function serveWorkbench(root: string): AppMiddleware {
  const base = path.resolve(root);
  const index = path.join(base, 'index.html');
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api/') || ctx.path === '/api') return next();
    let file = fileIn(base, ctx.path);
    if (!file) {
      await next();
      if (ctx.body !== undefined || ctx.status !== 404) return;
      // SPA fallback, except for missing files that look like assets.
      if (ctx.path.startsWith('/assets/')) return;
      file = index;
    }
    const stat = fs.statSync(file);
    const rel = path.relative(base, file).split(path.sep).join('/');
    ctx.type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    ctx.set('Cache-Control', rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.set('Last-Modified', stat.mtime.toUTCString());
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.length = stat.size;
    if (ctx.method === 'GET') ctx.body = await opened(fs.createReadStream(file));
  };
}
