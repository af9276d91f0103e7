/**
 * `npm test`: the whole test suite, as CI runs it. Steps: typecheck, lint, unit and
 * integration tests (vitest over every workspace; the data-layer tests also run on MariaDB
 * when TEST_MYSQL_URL is set), then the end-to-end tests in real Chromium.
 * Exits non-zero when any step fails and prints one closing line "tests: N passed, N failed".
 * `npm test -- --no-e2e` leaves the browser tests out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, run } from './lib.mjs';

const args = process.argv.slice(2);
const skipE2e = args.includes('--no-e2e');
const bin = (p) => path.join(root, 'node_modules', ...p.split('/'));
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-test-'));
let passed = 0;
let failed = 0;
const failures = [];

function countVitest(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
    return (r.numFailedTests ?? 0) === 0 && (r.numFailedTestSuites ?? 0) === 0;
  } catch {
    return false;
  }
}

async function step(name, cmd, argv, counted) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const code = await run(cmd, argv);
  let ok = code === 0;
  if (counted) ok = countVitest(counted) && ok;
  console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s) ===`);
  if (!ok) failures.push(name);
  return ok;
}

const node = process.execPath;
await step('typecheck', node, [bin('typescript/bin/tsc'), '-p', 'tsconfig.json']);
await step('lint', node, [bin('eslint/bin/eslint.js'), '.']);
const unitJson = path.join(out, 'unit.json');
await step('unit and integration tests', node, [bin('vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`], unitJson);
async function ensureChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  if (candidates.some((c) => c && fs.existsSync(c))) return true;
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get')) {
    console.error('Chromium is missing: install Debian\'s chromium (apt-get install chromium) or set CHROMIUM_PATH');
    return false;
  }
  console.log('Chromium is missing: installing Debian\'s chromium for the e2e tests');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  return (await run('apt-get', ['install', '-y', '-qq', 'chromium', 'libvulkan1'], { env })) === 0;
}

if (!skipE2e && !(await ensureChromium())) failures.push('e2e tests (Chromium missing)');
else if (!skipE2e) {
  const e2eJson = path.join(out, 'e2e.json');
  await step('e2e tests (Chromium)', node, [bin('vitest/vitest.mjs'), 'run', '--config', 'e2e/vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${e2eJson}`], e2eJson);
}

if (failures.length) console.log(`\nFailed steps: ${failures.join(', ')}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failures.length ? 1 : 0);
