/**
 * `npm start`: builds the workbench when needed and starts the server on its embedded
 * defaults (SQLite and local files under DATA_DIR, in-process job queue). Prints the address.
 */
import path from 'node:path';
import { ensureWebBuild, root, run } from './lib.mjs';

const code = await ensureWebBuild();
if (code !== 0) {
  console.error('[decisio] the workbench build failed');
  process.exit(code);
}
const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const child = run(process.execPath, [tsx, path.join(root, 'server', 'src', 'main.ts')], {
  env: { NODE_ENV: 'production', ...process.env },
});
process.exit(await child);
