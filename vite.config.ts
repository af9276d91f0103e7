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

export default defineConfig({
  plugins: [react(), lazyOnly(LAZY_ONLY)],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
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
