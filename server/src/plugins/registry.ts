import type { ServerPlugin } from '@decisio/sdk-plugin/server';
import { discoverServerPlugins } from './discover';

/**
 * Server plugins that live outside the workspace's `plugins/` folder, loaded before the
 * discovered ones (their migrations run first). Plugins under `plugins/<dir>` need no entry
 * here: {@link discoverServerPlugins} finds them by their `package.json` (`decisio.server`).
 */
export const serverPlugins: ServerPlugin[] = [];

/** The server plugins `npm start` loads: {@link serverPlugins}, then the discovered ones. */
export async function loadServerPlugins(): Promise<ServerPlugin[]> {
  return [...serverPlugins, ...(await discoverServerPlugins())];
}
