/**
 * Finds the server plugins shipped in the workspace: every `plugins/<dir>/package.json` whose
 * `decisio.server` names a server entry (e.g. `"decisio": { "server": "./server/index.ts" }`)
 * that exports `serverPlugin` (made with `defineServerPlugin`). No server module imports a
 * plugin: adding a folder is enough.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerPlugin } from '@decisio/sdk-plugin/server';

/** The workspace's `plugins/` folder. */
export const WORKSPACE_PLUGINS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../plugins');

/** A plugin folder's server entry, relative to the folder, or null when it has none. */
function serverEntryOf(dir: string): string | null {
  const file = path.join(dir, 'package.json');
  if (!fs.existsSync(file)) return null;
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { decisio?: { server?: unknown } };
  const entry = pkg.decisio?.server;
  if (entry === undefined) return null;
  if (typeof entry !== 'string' || !entry.startsWith('./')) throw new Error(`${file}: decisio.server must be a relative path such as "./server/index.ts"`);
  return entry;
}

function isServerPlugin(v: unknown): v is ServerPlugin {
  const p = v as Partial<ServerPlugin> | null;
  return !!p && typeof p.id === 'string' && Array.isArray(p.migrations) && Array.isArray(p.seeds) && Array.isArray(p.jobKinds);
}

/**
 * Imports the server entries of the plugin folders under `pluginsDir`, in folder-name order
 * (their migrations run in that order).
 * @throws Error when an entry does not export `serverPlugin` made with `defineServerPlugin`.
 */
export async function discoverServerPlugins(pluginsDir: string = WORKSPACE_PLUGINS_DIR): Promise<ServerPlugin[]> {
  if (!fs.existsSync(pluginsDir)) return [];
  const dirs = fs
    .readdirSync(pluginsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const plugins: ServerPlugin[] = [];
  for (const name of dirs) {
    const dir = path.join(pluginsDir, name);
    const entry = serverEntryOf(dir);
    if (!entry) continue;
    const mod = (await import(pathToFileURL(path.join(dir, entry)).href)) as { serverPlugin?: unknown };
    if (!isServerPlugin(mod.serverPlugin)) throw new Error(`plugins/${name}: ${entry} must export serverPlugin made with defineServerPlugin`);
    plugins.push(mod.serverPlugin);
  }
  return plugins;
}
