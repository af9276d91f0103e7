/** Small helpers shared by the repository scripts (start, test, bench). */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a command with inherited stdio; resolves to its exit code. */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

/** Newest modification time (ms) of the files below `dirs` (skipping node_modules). */
export function newestMtime(dirs) {
  let newest = 0;
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      const base = path.basename(p);
      if (base === 'node_modules' || base === 'dist' || base.startsWith('.')) return;
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else if (st.mtimeMs > newest) newest = st.mtimeMs;
  };
  for (const d of dirs) walk(path.join(root, d));
  return newest;
}

/** Sources of the browser build; when any is newer than dist/index.html the build is stale. */
export const WEB_SOURCES = [
  'index.html', 'public', 'vite.config.ts', 'core/workbench', 'core/domain', 'core/compute', 'core/learning',
  'sdk-plugin', 'plugins', 'workers', 'package-lock.json',
];

/** Builds the workbench when dist/ is missing or older than its sources. */
export async function ensureWebBuild({ force = false } = {}) {
  const index = path.join(root, 'dist', 'index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  if (!force && built > 0 && built >= newestMtime(WEB_SOURCES)) return 0;
  console.error('[decisio] building the workbench (vite build)...');
  return run(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn']);
}
