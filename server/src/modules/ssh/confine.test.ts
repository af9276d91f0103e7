/**
 * The worker terminal's confined shell (`confine.ts`): the command line it asks the worker to
 * run, word by word (the job's directory the only writable bind, no other job's, the sandbox's
 * limits, safe quoting, checked job ids), and the command itself run here under this machine's
 * bubblewrap, as sshd would run it (`sh -c <command>`), with a script in place of the
 * interactive shell: another job's file and the worker's own files are out of reach, the
 * job's directory is the writable cwd.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_LIMITS, SANDBOX_UID_BASE, seccompFilter } from '@decisio/learning/sandbox';
import { terminalSandbox, type TerminalSandbox } from '../../jobs/machine';
import { TERMINAL_SHELL, confinedTerminalCommand, shellQuote } from './confine';

const JOB = '0123456789abcdef0123456789abcdef';
const OTHER = 'fedcba9876543210fedcba9876543210';

/** `sh` words of `text`: single quotes, backslash escapes, blanks between words (what the command uses). */
function words(text: string): string[] {
  const out: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated quote');
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '\\') {
      word = (word ?? '') + text[++i];
    } else if (c === ' ') {
      if (word !== null) out.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (word !== null) out.push(word);
  return out;
}

/** The script the command hands to `/bin/sh -c`, and the words of its last statement (`exec "$@" env ... bwrap ...`). */
function parse(command: string): { script: string; argv: string[] } {
  const outer = words(command);
  expect(outer.slice(0, 3)).toEqual(['exec', '/bin/sh', '-c']);
  expect(outer).toHaveLength(4);
  const script = outer[3]!;
  const at = script.lastIndexOf('; exec "$@" ');
  expect(at).toBeGreaterThan(0);
  return { script, argv: words(script.slice(at + '; exec "$@" '.length)) };
}

const BINDS = new Set(['--bind', '--bind-try', '--dev-bind', '--dev-bind-try']);
const SYSTEM = new Set(['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc/ld.so.cache', '/etc/alternatives']);

describe('confinedTerminalCommand', () => {
  const hostile = "/srv/decisio jobs/it's $(touch /tmp/pwned) `id` ; rm -rf ~";
  const sandbox: TerminalSandbox = { bwrap: '/usr/bin/bwrap', disableUserns: true, tmpfsSize: true, seccomp: true, jobRoot: hostile };

  it('binds the job\'s own directory read-write at /sandbox and nothing else writable, no other job\'s', () => {
    const command = confinedTerminalCommand(sandbox, JOB);
    const { argv } = parse(command);
    expect(argv.slice(0, 7)).toEqual(['env', '-i', 'PATH=/usr/local/bin:/usr/bin:/bin', 'HOME=/sandbox', 'TERM=xterm-256color', 'LANG=C.UTF-8', '/usr/bin/bwrap']);
    const end = argv.indexOf('--');
    const options = argv.slice(7, end);
    // Exactly one read-write bind: the job's directory, quoted intact, as the cwd.
    const writable = options.flatMap((o, i) => (BINDS.has(o) ? [options.slice(i, i + 3)] : []));
    expect(writable).toEqual([['--bind', `${hostile}/${JOB}`, '/sandbox']]);
    expect(options.join(' ')).toContain('--chdir /sandbox');
    // Read-only binds are the system's only; a fresh /proc, /dev, /tmp; the root read-only.
    const readOnly = options.flatMap((o, i) => (o === '--ro-bind' || o === '--ro-bind-try' ? [options[i + 1]!] : []));
    expect(readOnly.every((p) => SYSTEM.has(p)), readOnly.join(',')).toBe(true);
    expect(options.join(' ')).toContain('--remount-ro /');
    // Own namespaces (network included), no way back to the worker's.
    for (const o of ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent']) expect(options).toContain(o);
    expect(options).not.toContain('--share-net');
    expect(options.slice(0, 2)).toEqual(['--seccomp', '3']);
    // No other job, no home, no secrets.
    expect(command).not.toContain(OTHER);
    for (const p of ['/home', '/root', '/run', '/var']) expect(options).not.toContain(p);
    // The sandbox's limits, soft = hard, then the interactive shell.
    expect(argv.slice(end + 1)).toEqual([
      'prlimit',
      `--as=${SANDBOX_LIMITS.memoryMb * 1024 * 1024}`,
      `--cpu=${SANDBOX_LIMITS.cpuSeconds}`,
      `--fsize=${SANDBOX_LIMITS.fileBytes}`,
      `--nofile=${SANDBOX_LIMITS.openFiles}`,
      '--core=0',
      `--nproc=${SANDBOX_LIMITS.processes}`,
      '--',
      ...TERMINAL_SHELL,
    ]);
  });

  it('passes the seccomp filter on fd 3, and never runs bwrap as root', () => {
    const { script } = parse(confinedTerminalCommand(sandbox, JOB));
    expect(script).toContain(shellQuote(seccompFilter()!.toString('base64')));
    expect(script).toContain('exec 3<"$f"');
    expect(script).toContain('setpriv --reuid="$u" --regid="$u" --clear-groups --');
    const without = parse(confinedTerminalCommand({ ...sandbox, seccomp: false, disableUserns: false }, JOB));
    expect(without.argv).not.toContain('--seccomp');
    expect(without.argv).not.toContain('--disable-userns');
    expect(without.script).not.toContain('base64');
  });

  it('quotes every value: the hostile job root stays one word and nothing of it runs', () => {
    const command = confinedTerminalCommand(sandbox, JOB);
    const dir = `${hostile}/${JOB}`;
    // `d=...`, the bind and nothing else carry it, each as one quoted word.
    const { script } = parse(command);
    expect(script.startsWith(`d=${shellQuote(dir)}; `)).toBe(true);
    expect(script.split(shellQuote(dir)).length - 1).toBe(2);
    // `sh -n` parses the whole command (outer and inner script) without error.
    for (const text of [command, script]) expect(spawnSync('/bin/sh', ['-n', '-c', text]).status).toBe(0);
  });

  it('refuses a job id that is not 32 lower-case hex, and an announcement with unclean paths', () => {
    for (const bad of ['../' + JOB.slice(3), JOB.toUpperCase(), JOB.slice(1), `${JOB}'`, `${JOB}/x`, `${JOB.slice(1)};`, '']) {
      expect(() => confinedTerminalCommand(sandbox, bad), bad).toThrow(/job id/);
    }
    for (const s of [{ jobRoot: 'relative/jobs' }, { jobRoot: '/jobs/../etc' }, { jobRoot: '/jobs\nrm' }, { jobRoot: '/' }, { bwrap: 'bwrap' }]) {
      expect(() => confinedTerminalCommand({ ...sandbox, ...s }, JOB), JSON.stringify(s)).toThrow(/clean absolute path/);
    }
  });
});

describe('the confined terminal run under this machine\'s bubblewrap', () => {
  let base: string;
  let root: string;
  const own = () => path.join(root, JOB);
  const other = () => path.join(root, OTHER);

  beforeAll(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-confine-'));
    fs.chmodSync(base, 0o711);
    // A job root whose name would run commands if it were not quoted.
    root = path.join(base, "jobs 'q' $(touch INJECTED) ;");
    fs.mkdirSync(root, { mode: 0o711 });
    fs.mkdirSync(own(), { mode: 0o700 });
    fs.writeFileSync(path.join(own(), 'reward.py'), 'own-file\n');
    // Another user's job and a worker secret, readable by anyone: only the confinement hides them.
    fs.mkdirSync(other(), { mode: 0o755 });
    fs.writeFileSync(path.join(other(), 'reward.py'), 'other-secret\n', { mode: 0o644 });
    fs.writeFileSync(path.join(base, 'worker-credentials'), 'worker-secret\n', { mode: 0o644 });
    // As root the job's directory belongs to the job sandbox's own uid (as PythonSandbox makes it).
    if (process.getuid?.() === 0) {
      const uid = SANDBOX_UID_BASE + 4242;
      fs.chownSync(own(), uid, uid);
      fs.chownSync(path.join(own(), 'reward.py'), uid, uid);
    }
  });
  afterAll(() => {
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it('sees its own job\'s files and writes there, and reaches no other job\'s file and nothing of the worker', async () => {
    // What the worker announces: the sandbox's own probe of bwrap here, and the job root.
    const sandbox = await terminalSandbox({ DECISIO_JOB_ROOT: root });
    expect(sandbox).not.toBeNull();
    const script = [
      'echo "pwd=$(pwd) uid=$(id -u)"',
      'cat /sandbox/reward.py',
      'cat "$1" 2>/dev/null; echo "other=$?"',
      'cat "$2" 2>/dev/null; echo "worker=$?"',
      'ls "$3" >/dev/null 2>&1; echo "root=$?"',
      'echo written > /sandbox/out.txt; echo "own=$?"',
      'touch /usr/x /etc/x /x 2>/dev/null; echo "system=$?"',
      'echo "ifaces=$(grep -c : /proc/net/dev)"',
      'echo "procs=$(ls /proc | grep -c "^[0-9]")"',
      'grep -E "^Max (processes|open files|address space)" /proc/self/limits',
    ].join('; ');
    const command = confinedTerminalCommand(sandbox!, JOB, { shell: ['/bin/sh', '-c', script, 'sh', path.join(other(), 'reward.py'), path.join(base, 'worker-credentials'), root] });
    // As sshd runs a command: the account's shell with `-c`, from the account's home.
    const r = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8', cwd: base, timeout: 30_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = r.stdout;
    expect(out).toContain('pwd=/sandbox uid=65534');
    expect(out).toContain('own-file');
    expect(out).not.toContain('other-secret');
    expect(out).not.toContain('worker-secret');
    expect(out).toMatch(/other=[1-9]/);
    expect(out).toMatch(/worker=[1-9]/);
    expect(out).toMatch(/root=[1-9]/);
    expect(out).toContain('own=0');
    expect(out).toMatch(/system=[1-9]/);
    // The sandbox's limits, soft = hard.
    expect(out).toMatch(new RegExp(`Max processes +${SANDBOX_LIMITS.processes} +${SANDBOX_LIMITS.processes} `));
    expect(out).toMatch(new RegExp(`Max open files +${SANDBOX_LIMITS.openFiles} +${SANDBOX_LIMITS.openFiles} `));
    expect(out).toMatch(new RegExp(`Max address space +${SANDBOX_LIMITS.memoryMb * 1024 * 1024} +${SANDBOX_LIMITS.memoryMb * 1024 * 1024} `));
    // Its own network namespace: the loopback only.
    expect(out).toContain('ifaces=1');
    // Its own pid namespace: the shell and its few children only.
    expect(Number(/procs=(\d+)/.exec(out)![1])).toBeLessThan(10);
    // The write landed in the job's directory on the worker, nowhere else; the hostile name ran nothing.
    expect(fs.readFileSync(path.join(own(), 'out.txt'), 'utf8')).toBe('written\n');
    expect(fs.readdirSync(other())).toEqual(['reward.py']);
    expect(fs.existsSync(path.join(base, 'INJECTED'))).toBe(false);
    expect(fs.existsSync('INJECTED')).toBe(false);
  });

  it('refuses when the job has no work directory on this worker', async () => {
    const sandbox = await terminalSandbox({ DECISIO_JOB_ROOT: root });
    const r = spawnSync('/bin/sh', ['-c', confinedTerminalCommand(sandbox!, 'ab'.repeat(16), { shell: ['/bin/sh', '-c', 'echo reached'] })], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain('reached');
    expect(r.stderr).toContain('no work directory');
  });
});
