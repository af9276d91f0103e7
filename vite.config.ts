import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Builds the workbench (index.html -> core/workbench/src/main.tsx) into dist/ with hashed
 * assets. Everything ships in the build: no CDN, no remote font. Heavy libraries must only be
 * reached through `import()`; the `lazyOnly` guard fails the build when the entry chunk or one
 * of its static imports contains them.
 */

/** Packages that must never be in the first load. */
const LAZY_ONLY = ['monaco-editor', '@xyflow/', '@duckdb/duckdb-wasm', 'elkjs', 'uplot', 'h5wasm'];

/** Cross-origin isolation (SharedArrayBuffer for DuckDB-WASM and the compute workers). */
const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

function lazyOnly(packages: string[]): Plugin {
  return {
    name: 'decisio-lazy-only',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const seen = new Set<string>();
      const stack = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
      while (stack.length) {
        const f = stack.pop()!;
        if (seen.has(f)) continue;
        seen.add(f);
        const c = byName.get(f);
        if (!c) continue;
        for (const id of c.moduleIds) {
          const bad = packages.find((p) => id.includes(`/node_modules/${p}`));
          if (bad) this.error(`"${bad}" is in the first load (${f} <- ${id}); load it with import()`);
        }
        stack.push(...c.imports);
      }
    },
  };
}

/**
 * Blueprint's icon paths as static JSON files, one per icon and size, fetched by the workbench's
 * icon loader (`core/workbench/src/theme/icons.ts`) when an icon is first shown. A glob of
 * lazily imported modules would put a 4,000-entry map (about 32 KB gzip) into the first load.
 * Files go to `assets/icons/<blueprint icons version>/<16|20>/<name>.json` (long-cached like
 * every asset; the version in the path changes when the icons do). The dev server serves the
 * same paths.
 */
function blueprintIconFiles(): Plugin {
  const pkgDir = path.resolve(__dirname, 'node_modules/@blueprintjs/icons');
  const version = (JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const sizes = ['16', '20'] as const;
  /** The paths of one generated module (`export default ["M..", ...];`). */
  const read = (size: string, name: string): string | null => {
    const file = path.join(pkgDir, 'lib/esm/generated', `${size}px`, 'paths', `${name}.js`);
    if (!/^[a-z0-9-]+$/.test(name) || !fs.existsSync(file)) return null;
    const m = /export default (\[[\s\S]*?\]);/.exec(fs.readFileSync(file, 'utf8'));
    return m ? JSON.stringify(JSON.parse(m[1]!)) : null;
  };
  return {
    name: 'decisio-blueprint-icon-files',
    config: () => ({ define: { __DECISIO_ICONS__: JSON.stringify(`assets/icons/${version}`) } }),
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /^\/assets\/icons\/[^/]+\/(16|20)\/([a-z0-9-]+)\.json$/.exec(req.url ?? '');
        const body = m ? read(m[1]!, m[2]!) : null;
        if (!m) return next();
        res.statusCode = body ? 200 : 404;
        res.setHeader('Content-Type', 'application/json');
        res.end(body ?? '[]');
      });
    },
    generateBundle() {
      for (const size of sizes) {
        const dir = path.join(pkgDir, 'lib/esm/generated', `${size}px`, 'paths');
        for (const f of fs.readdirSync(dir)) {
          if (!f.endsWith('.js')) continue;
          const name = f.slice(0, -3);
          const body = read(size, name);
          if (body) this.emitFile({ type: 'asset', fileName: `assets/icons/${version}/${size}/${name}.json`, source: body });
        }
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), lazyOnly(LAZY_ONLY), blueprintIconFiles()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: process.env.DECISIO_SOURCEMAP === "1",
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
    assetsInlineLimit: 4096,
    rolldownOptions: {
      // Our workspace packages have no import-time side effects: a module none of whose exports
      // is used is dropped, so that e.g. the zod schemas of @decisio/domain stay out of the
      // first load when the shell only needs the error codes.
      treeshake: {
        moduleSideEffects: (id: string) => !/\/(core\/domain|sdk-plugin)\/src\/.*\.tsx?$/.test(id),
      },
    },
  },
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['@duckdb/duckdb-wasm'] },
  server: {
    host: '127.0.0.1',
    port: 5173,
    headers: ISOLATION_HEADERS,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  preview: {
    headers: ISOLATION_HEADERS,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
});
