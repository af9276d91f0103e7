import type { ServerPlugin } from '@decisio/sdk-plugin/server';

/**
 * The server plugins `npm start` loads, in order (their migrations run in this order after the
 * core history). Add a plugin's `server` entry here, e.g. the industry templates.
 */
export const serverPlugins: ServerPlugin[] = [];
