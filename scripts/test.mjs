/**
 * `npm test`: the whole test suite, the same on a laptop and in CI. Steps:
 *   services   finds MariaDB, PostgreSQL and Redis at their `TEST_*` addresses (the local
 *              defaults when unset), starts a local one that does not answer when its server is
 *              installed, and sets `TEST_MYSQL_URL` / `TEST_POSTGRES_URL` / `TEST_REDIS_URL` to
 *              those that answer; finds Chromium (installs Debian's when root) for `CHROMIUM_PATH`;
 *   typecheck, lint;
 *   unit       vitest over every workspace (the data-layer tests on SQLite, and on MariaDB);
 *   e2e        the end-to-end tests in real Chromium.
 * A missing service is never a failure: its tests skip and the summary says which, and why.
 * The summary lists each step with its time, the skipped tests with their reasons, then
 * "tests: N passed, N failed, N skipped". Exits non-zero when a step fails.
 *
 * Options: `--no-e2e` leaves the browser tests out; `--only=<steps>` runs only those steps
 * (comma-separated: services, typecheck, lint, unit, e2e; services always run); other
 * arguments go to vitest as file filters, e.g. `npm test -- --only=unit server/src/jobs`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, run } from './lib.mjs';
import { SERVICES, ensureChromium, ensureService } from './services.mjs';

const args = process.argv.slice(2);
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',').filter(Boolean)) : null;
const filters = args.filter((a) => !a.startsWith('--'));
// With file filters a step may match no file (e.g. a server path in the e2e run): not a failure.
const filterArgs = filters.length ? ['--passWithNoTests', ...filters] : [];
const wanted = (name) => (only ? only.has(name) : name !== 'e2e' || !args.includes('--no-e2e'));
const bin = (p) => path.join(root, 'node_modules', ...p.split('/'));
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-test-'));
const skipLog = path.join(out, 'skipped.jsonl');
fs.writeFileSync(skipLog, '');

/** `{ name, state: 'ok' | 'FAILED' | 'skipped', seconds, note? }` per step, in order. */
const steps = [];
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Skipped tests per file (repository-relative): their titles. */
const skippedByFile = new Map();
/** Failed tests (repository-relative file, title, first line of the message), for the summary. */
const failedTests = [];
/** Whole steps or groups of tests not run, with the reason: `{ what, reason }`. */
const notRun = [];

const rel = (f) => path.relative(root, f) || f;
const seconds = (t0) => (Date.now() - t0) / 1000;

/** Reads a vitest JSON report into the totals; false when it is missing or has failures. */
function countVitest(file) {
  let r;
  try {
    r = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += r.numFailedTests ?? 0;
  for (const f of r.testResults ?? []) {
    // A file that failed to load (or a failed hook) has no failed assertion: name the file.
    if (f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failedTests.push({ file: rel(f.name), title: '(the file itself)', message: String(f.message ?? '').split('\n')[0] });
    }
    for (const t of f.assertionResults ?? []) {
      if (t.status === 'failed') {
        failedTests.push({ file: rel(f.name), title: t.fullName || t.title, message: String(t.failureMessages?.[0] ?? '').split('\n')[0] });
      }
      if (!['skipped', 'pending', 'todo'].includes(t.status)) continue;
      totals.skipped += 1;
      const key = rel(f.name);
      if (!skippedByFile.has(key)) skippedByFile.set(key, []);
      skippedByFile.get(key).push(t.fullName || t.title);
    }
  }
  return (r.numFailedTests ?? 0) === 0 && (r.numFailedTestSuites ?? 0) === 0 && r.success !== false;
}

async function step(name, cmd, argv, report) {
  console.log(`\n=== ${name} ===`);
  const t0 = Date.now();
  const code = await run(cmd, argv);
  let ok = code === 0;
  if (report) ok = countVitest(report) && ok;
  const s = seconds(t0);
  steps.push({ name, state: ok ? 'ok' : 'FAILED', seconds: s });
  console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} (${s.toFixed(1)} s) ===`);
  return ok;
}

function skipStep(name, reason) {
  steps.push({ name, state: 'skipped', seconds: 0, note: reason });
  notRun.push({ what: name, reason });
}

// --- services -------------------------------------------------------------------------------
console.log('\n=== services ===');
let t0 = Date.now();
const found = [];
for (const s of SERVICES) {
  const r = await ensureService(s);
  found.push(r);
  if (r.url) {
    process.env[s.variable] = r.url;
    delete process.env[`DECISIO_TEST_MISSING_${s.id.toUpperCase()}`];
    console.log(`${s.name.padEnd(11)} ${r.url.replace(/\/\/[^@/]*@/, '//')} (${r.state})`);
  } else {
    // Tests read the variable to know whether the service is there: unset it, say why.
    delete process.env[s.variable];
    process.env[`DECISIO_TEST_MISSING_${s.id.toUpperCase()}`] = r.reason;
    console.log(`${s.name.padEnd(11)} missing: ${r.reason}`);
  }
}
const needChromium = wanted('unit') || wanted('e2e');
const chromium = needChromium ? await ensureChromium() : { reason: 'not needed by the chosen steps' };
if (chromium.path) {
  process.env.CHROMIUM_PATH = chromium.path;
  console.log(`${'Chromium'.padEnd(11)} ${chromium.path}`);
} else {
  process.env.DECISIO_TEST_MISSING_CHROMIUM = chromium.reason;
  console.log(`${'Chromium'.padEnd(11)} missing: ${chromium.reason}`);
}
process.env.DECISIO_TEST_SKIP_LOG = skipLog;
steps.push({ name: 'services', state: 'ok', seconds: seconds(t0), note: found.map((r) => `${r.name} ${r.url ? r.state : 'missing'}`).join(', ') });
for (const r of found) {
  if (r.url) continue;
  const what = r.id === 'mysql' ? `${r.name} tests: the MariaDB runs of the data-layer tests (describe.each(databases)) and the tests below that need it` : `${r.name} tests`;
  notRun.push({ what, reason: `${r.variable}: ${r.reason}` });
}

// --- steps ----------------------------------------------------------------------------------
const node = process.execPath;
const vitest = bin('vitest/vitest.mjs');
if (wanted('typecheck')) await step('typecheck', node, [bin('typescript/bin/tsc'), '-p', 'tsconfig.json']);
if (wanted('lint')) await step('lint', node, [bin('eslint/bin/eslint.js'), '.']);
if (wanted('unit')) {
  const json = path.join(out, 'unit.json');
  await step('unit and integration tests', node, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, ...filterArgs], json);
}
if (wanted('e2e')) {
  if (!chromium.path) skipStep('e2e tests (Chromium)', chromium.reason);
  else {
    const json = path.join(out, 'e2e.json');
    await step('e2e tests (Chromium)', node, [vitest, 'run', '--config', 'e2e/vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, ...filterArgs], json);
  }
}

// --- summary --------------------------------------------------------------------------------
/** Reasons recorded by the tests that skipped for a missing service, per file. */
const reasonsByFile = new Map();
for (const line of fs.readFileSync(skipLog, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  let e;
  try {
    e = JSON.parse(line);
  } catch {
    continue;
  }
  const key = rel(e.file);
  if (!reasonsByFile.has(key)) reasonsByFile.set(key, new Map());
  reasonsByFile.get(key).set(e.name, e.reason);
}

console.log('\n=== summary ===');
for (const s of steps) {
  console.log(`  ${s.name.padEnd(28)} ${s.state.padEnd(7)} ${s.seconds.toFixed(1).padStart(7)} s${s.note ? `  (${s.note})` : ''}`);
}
if (notRun.length || skippedByFile.size) {
  console.log('skipped:');
  for (const n of notRun) console.log(`  ${n.what} (${n.reason})`);
  for (const [file, titles] of [...skippedByFile].sort(([a], [b]) => a.localeCompare(b))) {
    const reasons = reasonsByFile.get(file);
    const why = reasons?.size ? [...reasons].map(([name, reason]) => `${name}: ${reason}`).join('; ') : 'no missing service recorded: skipped in the test source or after a failed hook';
    console.log(`  ${file}: ${titles.length} test${titles.length === 1 ? '' : 's'} (${why})`);
    for (const t of titles.slice(0, 3)) console.log(`      - ${t}`);
    if (titles.length > 3) console.log(`      - ... and ${titles.length - 3} more`);
  }
}
const failedSteps = steps.filter((s) => s.state === 'FAILED').map((s) => s.name);
if (failedTests.length) {
  // Named here, at the end, because a CI log is often read from its tail.
  console.log('failed:');
  for (const t of failedTests.slice(0, 20)) {
    console.log(`  ${t.file} > ${t.title}`);
    if (t.message) console.log(`      ${t.message.slice(0, 300)}`);
  }
  if (failedTests.length > 20) console.log(`  ... and ${failedTests.length - 20} more`);
}
if (failedSteps.length) console.log(`failed steps: ${failedSteps.join(', ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
fs.rmSync(out, { recursive: true, force: true });
process.exit(failedSteps.length ? 1 : 0);
