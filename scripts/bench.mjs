/**
 * `npm run bench -- <suite...>`: benchmarks, one JSON line per figure on stdout.
 * Suites: web, compute, learning, sandbox, ingest, upload, preview, trial, serve, api. No suite given: all that exist.
 * Flags (`--name=value`) are passed to every suite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { root, run } from './lib.mjs';

const SUITES = {
  web: 'core/workbench/bench/main.ts',
  compute: 'core/compute/bench/main.ts',
  learning: 'core/learning/bench/main.ts',
  sandbox: 'core/learning/bench/sandbox.ts',
  ingest: 'server/bench/ingest.ts',
  upload: 'server/bench/upload.ts',
  preview: 'workers/data/bench/preview.ts',
  trial: 'workers/compute/bench/trial.ts',
  serve: 'server/bench/serve.ts',
  api: 'server/bench/api.ts',
};
const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = asked.length ? asked : Object.keys(SUITES);
let failed = 0;
for (const name of names) {
  const file = SUITES[name];
  if (!file) {
    console.error(`unknown bench suite "${name}"; known: ${Object.keys(SUITES).join(', ')}`);
    failed++;
    continue;
  }
  if (!fs.existsSync(path.join(root, file))) {
    console.error(`bench suite "${name}" is not written yet (${file})`);
    if (asked.length) failed++;
    continue;
  }
  const code = await run(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), file, ...process.argv.slice(2).filter((a) => a.startsWith('-'))]);
  if (code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
