/**
 * A job's own work directory (`<job root>/<jobId>`, `makeJobWorkdir`): where a job's sandbox runs
 * its user code and where a worker terminal finds it. The root is checked (a planted link or a
 * directory others can write stops the start), the id too; the sandbox of a job uses it and
 * removes it at close, under the limits that a terminal gets as well (`SANDBOX_LIMITS`).
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLearningError } from '../errors';
import { JOB_ROOT_ENV, SANDBOX_LIMITS, jobRoot, makeJobWorkdir } from './bwrap';
import { PythonSandbox } from './python-sandbox';

const JOB = '0123456789abcdef0123456789abcdef';

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return isLearningError(e) ? e.code : String(e);
  }
  return 'no error';
}

describe('makeJobWorkdir', () => {
  const base = mkdtempSync(join(tmpdir(), 'decisio-jobroot-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('makes <root>/<jobId> (700) under a root that others may pass through but not list (711), fresh each time', () => {
    const root = join(base, 'jobs');
    const dir = makeJobWorkdir(JOB, root);
    expect(dir).toBe(join(root, JOB));
    expect(lstatSync(root).mode & 0o777).toBe(0o711);
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    writeFileSync(join(dir, 'stale.py'), 'x');
    expect(makeJobWorkdir(JOB, root)).toBe(dir);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a bad job id, a planted link as root and a root others can write', () => {
    const root = join(base, 'ok');
    for (const bad of ['../x', JOB.toUpperCase(), `${JOB}/..`, '']) expect(code(() => makeJobWorkdir(bad, root)), bad).toBe('sandbox.start');
    const target = join(base, 'elsewhere');
    mkdirSync(target);
    symlinkSync(target, join(base, 'link'));
    expect(code(() => makeJobWorkdir(JOB, join(base, 'link')))).toBe('sandbox.start');
    expect(readdirSync(target)).toEqual([]);
    mkdirSync(join(base, 'open'));
    chmodSync(join(base, 'open'), 0o777);
    expect(code(() => makeJobWorkdir(JOB, join(base, 'open')))).toBe('sandbox.start');
  });

  it('takes the root from DECISIO_JOB_ROOT (absolute only)', () => {
    expect(jobRoot({ [JOB_ROOT_ENV]: '/srv/jobs' })).toBe('/srv/jobs');
    expect(jobRoot({})).toBe(join(tmpdir(), 'decisio-jobs'));
    expect(() => jobRoot({ [JOB_ROOT_ENV]: 'jobs' })).toThrow(/absolute/);
  });
});

describe('PythonSandbox of a job', () => {
  const base = mkdtempSync(join(tmpdir(), 'decisio-jobroot-'));
  const before = process.env[JOB_ROOT_ENV];
  afterAll(() => {
    if (before === undefined) delete process.env[JOB_ROOT_ENV];
    else process.env[JOB_ROOT_ENV] = before;
    rmSync(base, { recursive: true, force: true });
  });

  it('runs the user code in the job\'s own directory, under the sandbox limits, and removes it at close', async () => {
    // As root the sandbox runs as a uid of its own: every directory above the job root must let it pass.
    chmodSync(base, 0o711);
    process.env[JOB_ROOT_ENV] = join(base, 'jobs');
    const files = {
      'limits.py': `import numpy as np, resource, os
def f(data):
    n = resource.getrlimit(resource.RLIMIT_NOFILE)
    p = resource.getrlimit(resource.RLIMIT_NPROC)
    return np.array([[n[0], n[1], p[0], float(os.path.exists('limits.py'))]], dtype=np.float32)
`,
    };
    const sb = await PythonSandbox.start({ files, jobId: JOB, timeoutMs: 20_000 });
    try {
      expect(sb.workdir).toBe(join(base, 'jobs', JOB));
      expect(readdirSync(sb.workdir)).toContain('limits.py');
      const r = await sb.call('limits.py', 'f', { x: { data: Float32Array.from([1]), shape: [1, 1] } }, { rows: 1, cols: 4 });
      expect(Array.from(r.data)).toEqual([SANDBOX_LIMITS.openFiles, SANDBOX_LIMITS.openFiles, SANDBOX_LIMITS.processes, 1]);
    } finally {
      await sb.close();
    }
    expect(existsSync(join(base, 'jobs', JOB))).toBe(false);
  });
});
