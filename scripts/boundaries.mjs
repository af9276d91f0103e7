/**
 * The dependency direction of the architecture, as data (ARCHITECTURE.md, "Layout"):
 * plugins -> sdk-plugin -> core/domain; core/workbench -> sdk-plugin; core/learning ->
 * core/compute; server -> core/{domain,compute,learning}; workers -> core/{compute,learning}.
 * Used by the ESLint rule `decisio/boundaries` and by its test.
 */
import path from 'node:path';

/** Area of a repository-relative path, or null when it is outside every area. */
export function areaOf(rel) {
  const parts = rel.split(/[\\/]/);
  if (parts[0] === 'core' && parts[1]) return `core/${parts[1]}`;
  if (parts[0] === 'plugins' && parts[1]) return `plugin:${parts[1]}`;
  if (['sdk-plugin', 'server', 'workers', 'e2e', 'scripts'].includes(parts[0])) return parts[0];
  return null;
}

const PACKAGE_AREAS = {
  '@decisio/domain': 'core/domain',
  '@decisio/compute': 'core/compute',
  '@decisio/learning': 'core/learning',
  '@decisio/workbench': 'core/workbench',
  '@decisio/sdk-plugin': 'sdk-plugin',
  '@decisio/server': 'server',
  '@decisio/worker-data': 'workers',
  '@decisio/worker-compute': 'workers',
};

/** Area an import specifier points at (null for third-party packages). */
export function targetArea(spec, fromRel) {
  if (spec.startsWith('.')) {
    const rel = path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), spec));
    return areaOf(rel);
  }
  const m = /^(@decisio\/[^/]+)/.exec(spec);
  if (!m) return null;
  if (m[1].startsWith('@decisio/plugin-')) return `plugin:${m[1].slice('@decisio/plugin-'.length)}`;
  return PACKAGE_AREAS[m[1]] ?? 'unknown';
}

const ALLOWED = {
  'core/domain': ['core/domain'],
  'core/compute': ['core/compute'],
  'core/learning': ['core/learning', 'core/compute', 'core/domain'],
  'core/workbench': ['core/workbench', 'sdk-plugin', 'core/domain'],
  'sdk-plugin': ['sdk-plugin', 'core/domain'],
  workers: ['workers', 'core/compute', 'core/learning', 'core/domain'],
  server: ['server', 'core/domain', 'core/compute', 'core/learning', 'sdk-plugin'],
  e2e: ['e2e', 'core/domain', 'server', 'scripts'],
  scripts: null,
};

/**
 * Checks one import. Returns an error text or null. The workbench's composition root
 * (`core/workbench/src/main.tsx`) may import plugin manifests (the package root only).
 */
export function checkImport(fromRel, spec) {
  const from = areaOf(fromRel);
  const to = targetArea(spec, fromRel);
  if (!from || !to || from === to) return null;
  if (from.startsWith('plugin:')) {
    if (to === 'sdk-plugin' || to === 'core/domain') return null;
    if (to === 'core/workbench') return `plugins must not import the workbench's internals (${spec}); use @decisio/sdk-plugin`;
    if (to.startsWith('plugin:')) return `a plugin must not import another plugin (${spec}); share through @decisio/sdk-plugin services`;
    return `plugins may import only @decisio/sdk-plugin and @decisio/domain, not ${spec}`;
  }
  if (from === 'core/workbench' && to.startsWith('plugin:')) {
    const isRoot = /^@decisio\/plugin-[^/]+$/.test(spec);
    if (fromRel.endsWith('core/workbench/src/main.tsx') && isRoot) return null;
    return `only core/workbench/src/main.tsx may import plugin manifests (${spec})`;
  }
  if (from === 'sdk-plugin' && spec.includes('sdk-plugin/src/server') === false && to === 'server') {
    return `sdk-plugin must not import the server (${spec})`;
  }
  const allowed = ALLOWED[from];
  if (allowed === null || allowed === undefined) return null;
  if (!allowed.includes(to)) return `${from} must not depend on ${to} (${spec})`;
  return null;
}

/** Folders of industry template plugins (`plugins/template-<name>/`). */
const TEMPLATE_PLUGIN = /^plugins\/(template-[^/]+)\//;
/** What a template plugin may import besides its own files. */
const TEMPLATE_ALLOWED = /^@decisio\/(sdk-plugin|domain)(\/.*)?$/;

/**
 * Industry template plugins (`plugins/template-*`) are written as a third party would: their
 * code may import only `@decisio/sdk-plugin` (and its entries), `@decisio/domain` and the
 * plugin's own files; no other package (not even `node:*`, React or zod: the SDK hands over
 * what a template needs) and nothing outside the folder. Tests (`*.test.ts(x)`) and the
 * plugin's `vitest.config.ts` are not shipped code and are left to `checkImport`.
 * Returns an error text or null (null also for files outside template plugins).
 */
export function checkTemplateImport(fromRel, spec) {
  const m = TEMPLATE_PLUGIN.exec(fromRel);
  if (!m || /\.test\.tsx?$/.test(fromRel) || fromRel.endsWith('/vitest.config.ts')) return null;
  if (TEMPLATE_ALLOWED.test(spec)) return null;
  if (spec.startsWith('.')) {
    const rel = path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), spec));
    if (rel.startsWith(`plugins/${m[1]}/`)) return null;
    return `a template plugin may import only its own files, @decisio/sdk-plugin and @decisio/domain, not ${spec} (outside plugins/${m[1]})`;
  }
  return `a template plugin may import only @decisio/sdk-plugin, @decisio/domain and its own files, not ${spec}`;
}
