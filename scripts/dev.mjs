/**
 * `npm run dev`: the server on its embedded defaults, restarted when its sources change (tsx
 * watch, port 8080), and Vite's dev server for the workbench with hot reload on
 * http://127.0.0.1:5173, which proxies `/api` to the server. Ctrl-C stops both.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from './lib.mjs';

const bin = (p) => path.join(root, 'node_modules', ...p.split('/'));
const children = [
  spawn(process.execPath, [bin('tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', path.join(root, 'server', 'src', 'main.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: { NODE_ENV: 'development', PORT: '8080', ...process.env },
  }),
  spawn(process.execPath, [bin('vite/bin/vite.js')], { cwd: root, stdio: 'inherit' }),
];
let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  process.exitCode = code;
};
for (const c of children) c.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
