/**
 * Web bundle benchmark: `npx tsx core/workbench/bench/main.ts [--no-build]`.
 *
 * Runs the production build (unless `--no-build`, which reads the existing `dist/`), then
 * prints one JSON line per figure:
 * - `web-first-load`: gzipped JavaScript + CSS the shell loads before any plugin panel opens
 *   (the entry chunk, its static imports, and their CSS), goal <= 300 KB;
 * - `web-first-load-js` / `web-first-load-css`: the same split by kind;
 * - `web-lazy:<chunk>`: each lazily loaded chunk (with its CSS), gzipped;
 * - `web-lazy-icons`: the per-icon path chunks together (each loads only when shown).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dist = join(root, 'dist');
const GOAL_KB = 300;

if (!process.argv.includes('--no-build')) {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`no ${manifestPath}: run without --no-build`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;

const gz = new Map<string, number>();
const gzipKB = (file: string): number => {
  let v = gz.get(file);
  if (v === undefined) {
    v = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
    gz.set(file, v);
  }
  return v;
};
const round = (x: number) => Math.round(x * 10) / 10;
const line = (o: Record<string, unknown>) => console.log(JSON.stringify(o));

/** Files loaded with a chunk: itself, its static imports (transitively) and their CSS. */
function closure(keys: string[], exclude: Set<string> = new Set()): { js: Set<string>; css: Set<string> } {
  const js = new Set<string>();
  const css = new Set<string>();
  const seen = new Set<string>();
  const stack = [...keys];
  while (stack.length) {
    const k = stack.pop()!;
    if (seen.has(k)) continue;
    seen.add(k);
    const c = manifest[k];
    if (!c) continue;
    if (!exclude.has(c.file)) (c.file.endsWith('.css') ? css : js).add(c.file);
    for (const f of c.css ?? []) if (!exclude.has(f)) css.add(f);
    stack.push(...(c.imports ?? []));
  }
  return { js, css };
}

const entries = Object.entries(manifest).filter(([, c]) => c.isEntry).map(([k]) => k);
const first = closure(entries);
const firstJs = [...first.js].reduce((s, f) => s + gzipKB(f), 0);
const firstCss = [...first.css].reduce((s, f) => s + gzipKB(f), 0);
line({ bench: 'web-first-load', value: round(firstJs + firstCss), unit: 'KB gzip', goal: GOAL_KB, files: first.js.size + first.css.size });
line({ bench: 'web-first-load-js', value: round(firstJs), unit: 'KB gzip' });
line({ bench: 'web-first-load-css', value: round(firstCss), unit: 'KB gzip' });

const loaded = new Set([...first.js, ...first.css]);
const iconDir = join(root, 'node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths');
const iconNames = new Set(existsSync(iconDir) ? readdirSync(iconDir).filter((f) => f.endsWith('.js')).map((f) => f.slice(0, -3)) : []);
// Every chunk reachable through import() from the first load (transitively).
const dynamicKeys = new Set<string>();
{
  const stack = Object.entries(manifest).filter(([, c]) => loaded.has(c.file)).flatMap(([, c]) => c.dynamicImports ?? []);
  while (stack.length) {
    const k = stack.pop()!;
    if (dynamicKeys.has(k)) continue;
    dynamicKeys.add(k);
    const c = manifest[k];
    stack.push(...(c?.dynamicImports ?? []), ...(c?.imports ?? []).flatMap((i) => manifest[i]?.dynamicImports ?? []));
  }
}
let iconCount = 0;
let iconKB = 0;
let iconMax = 0;
const lazy: { name: string; kb: number }[] = [];
for (const key of dynamicKeys) {
  const c = manifest[key];
  if (!c) continue;
  const own = closure([key], loaded);
  const kb = [...own.js, ...own.css].reduce((s, f) => s + gzipKB(f), 0);
  if (!c.src && c.name && iconNames.has(c.name)) {
    iconCount += 1;
    iconKB += kb;
    iconMax = Math.max(iconMax, kb);
    continue;
  }
  const name = (c.src ?? key).replace(/^.*node_modules\//, '').replace(/\.(tsx?|m?js)$/, '');
  lazy.push({ name, kb });
}
// Blueprint's own all-at-once icon loaders stay reachable from its code but are never fetched:
// the app installs a per-icon loader (core/workbench/src/theme/icons.ts).
const unused = /@blueprintjs\/icons\/lib\/esm\/(allPaths|generated\/(16|20)px\/paths\/index|paths-loaders\/)/;
for (const l of lazy.sort((a, b) => b.kb - a.kb)) {
  line({ bench: `web-lazy:${l.name}`, value: round(l.kb), unit: 'KB gzip', ...(unused.test(l.name) ? { fetched: false } : {}) });
}
line({ bench: 'web-lazy-icons', value: round(iconKB), unit: 'KB gzip', chunks: iconCount, maxChunk: round(iconMax) });
