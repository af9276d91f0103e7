import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLearningError, type LearningError } from '../errors';
import { PythonSandbox, RewardFunction, type BatchArray } from './python-sandbox';
import { SANDBOX_UID_BASE, SANDBOX_UID_COUNT, probeSandbox, resetSandboxProbe } from './bwrap';

const arr = (rows: number[][]): BatchArray => ({ data: Float32Array.from(rows.flat()), shape: [rows.length, rows[0]!.length] });

async function failure(p: Promise<unknown>): Promise<LearningError> {
  try {
    await p;
  } catch (e) {
    if (isLearningError(e)) return e;
    throw e;
  }
  throw new Error('expected a failure');
}

const FILES = {
  'reward.py': `import numpy as np

def get_reward(data):
    return -np.abs(data['next_temperature'][:, 0:1] + 2) - 0.1 * data['action'][:, 0:1]
`,
  'torch_reward.py': `import torch
from typing import Dict

def get_reward(data : Dict[str, torch.Tensor]) -> torch.Tensor:
    assert isinstance(data['action'], torch.Tensor)
    return - torch.abs(data['next_temperature'][...,0:1] + 2)
`,
  'broken.py': `def get_reward(data):\n    x = (1,\n    return x\n`,
  'raises.py': `import numpy as np\n\ndef get_reward(data):\n    a = data['action']\n    return a / undefined_name\n`,
  'shapes.py': `import numpy as np
def wrong(data):
    return np.zeros((3, 2))
def nan(data):
    return np.full((data['x'].shape[0], 1), np.nan)
def slow(data):
    while True:
        pass
def net(data):
    import socket
    socket.create_connection(('1.1.1.1', 80), timeout=1)
def env(data):
    import os
    return np.array([[len(os.environ.get('SECRET_TOKEN', ''))]], dtype=np.float32)
def expert(data):
    return data['obs'] + data['delta']
`,
  'lib/helpers.py': `def double(x):\n    return 2 * x\n`,
  'uses_lib.py': `import sys, os\nsys.path.insert(0, os.path.join(os.getcwd(), 'lib'))\nfrom helpers import double\n\ndef f(data):\n    return double(data['x'])\n`,
};

describe('PythonSandbox', () => {
  let sb: PythonSandbox;
  const started = PythonSandbox.start({ files: FILES, timeoutMs: 20_000 }).then((s) => (sb = s));
  afterAll(async () => {
    await sb?.close();
  });

  it('runs a numpy reward on a batch in original units', async () => {
    await started;
    const reward = new RewardFunction(sb);
    const r = await reward.compute({ next_temperature: arr([[-2], [0], [3]]), action: arr([[0], [1], [10]]) });
    expect(Array.from(r)).toEqual([-0, -2.1, -6].map(Math.fround));
    expect(sb.versions.numpy).not.toBe('');
  });

  it('gives torch tensors to a file that imports torch (REVIVE reward files run unchanged)', async () => {
    await started;
    const m = await sb.load('torch_reward.py');
    expect(m).toEqual({ functions: ['get_reward'], torch: true });
    const r = await new RewardFunction(sb, 'torch_reward.py').compute({ next_temperature: arr([[-2], [1]]), action: arr([[0], [0]]) });
    expect(Array.from(r)).toEqual([-0, -3]);
  });

  it('runs REVIVE published reward files as they are', async () => {
    await started;
    const r = await sb.call('shapes.py', 'expert', { obs: arr([[1, 2]]), delta: arr([[0.5, 0.5]]) }, { rows: 1, cols: 2 });
    expect(Array.from(r.data)).toEqual([1.5, 2.5]);
  });

  it('reports syntax errors with the line', async () => {
    await started;
    const e = await failure(sb.load('broken.py'));
    expect(e.code).toBe('sandbox.syntax');
    expect(e.params['line']).toBeGreaterThanOrEqual(2);
    expect(e.params['file']).toBe('broken.py');
  });

  it('reports exceptions with the user file line', async () => {
    await started;
    const e = await failure(sb.call('raises.py', 'get_reward', { action: arr([[1]]) }, { rows: 1, cols: 1 }));
    expect(e.code).toBe('sandbox.exception');
    expect(e.params).toMatchObject({ type: 'NameError', file: 'raises.py', line: 5 });
    expect(e.localized('zh-CN')).toContain('第 5 行');
  });

  it('rejects wrong shapes, NaN and missing functions', async () => {
    await started;
    expect((await failure(sb.call('shapes.py', 'wrong', { x: arr([[1]]) }, { rows: 1, cols: 1 }))).code).toBe('sandbox.shape');
    expect((await failure(sb.call('shapes.py', 'nan', { x: arr([[1], [2]]) }, { rows: 2, cols: 1 }))).code).toBe('sandbox.nan');
    expect((await failure(sb.call('shapes.py', 'nope', { x: arr([[1]]) }, { rows: 1 }))).code).toBe('sandbox.missingFunction');
  });

  it('cuts off the network and scrubs the environment', async () => {
    await started;
    process.env['SECRET_TOKEN'] = 'abc';
    const e = await failure(sb.call('shapes.py', 'net', { x: arr([[1]]) }, { rows: 1 }));
    expect(e.code).toBe('sandbox.exception');
    const r = await sb.call('shapes.py', 'env', { x: arr([[1]]) }, { rows: 1, cols: 1 });
    expect(r.data[0]).toBe(0);
    delete process.env['SECRET_TOKEN'];
  });

  it('lets user files import files beside them', async () => {
    await started;
    const r = await sb.call('uses_lib.py', 'f', { x: arr([[1, 2]]) }, { rows: 1, cols: 2 });
    expect(Array.from(r.data)).toEqual([2, 4]);
  });

  it('times out, then restarts on the next call', async () => {
    const s = await PythonSandbox.start({ files: FILES, timeoutMs: 1500 });
    try {
      const e = await failure(s.call('shapes.py', 'slow', { x: arr([[1]]) }, { rows: 1 }));
      expect(e.code).toBe('sandbox.timeout');
      const r = await s.call('reward.py', 'get_reward', { next_temperature: arr([[-2]]), action: arr([[0]]) }, { rows: 1, cols: 1 });
      expect(Math.abs(r.data[0]!)).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('passes large batches as binary', async () => {
    await started;
    const B = 100_000;
    const x = new Float32Array(B * 3).map((_, i) => i % 7);
    const r = await sb.call('shapes.py', 'expert', { obs: { data: x, shape: [B, 3] }, delta: { data: new Float32Array(B * 3), shape: [B, 3] } }, { rows: B, cols: 3 });
    expect(r.data).toEqual(x);
  });

  it('fails to start with a clear error for a missing interpreter', async () => {
    const e = await failure(PythonSandbox.start({ files: {}, python: '/nonexistent/python3' }));
    expect(e.code).toBe('sandbox.start');
  });

  it('keeps this source file readable (sanity)', () => {
    expect(readFileSync(__filename, 'utf8')).toContain('PythonSandbox');
  });
});

/** Command lines of every process on the host (the test's own view, outside the sandbox). */
function hostCommandLines(): string[] {
  const out: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      out.push(readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim());
    } catch {
      /* gone */
    }
  }
  return out;
}

/** A listening server that counts the connections it got. */
async function listener(where: { path: string } | { port: 0; host: string }): Promise<{ server: Server; accepted: () => number; port: number }> {
  let n = 0;
  const server = createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((resolve) => server.listen(where, resolve));
  const addr = server.address();
  return { server, accepted: () => n, port: typeof addr === 'object' && addr ? addr.port : 0 };
}

const asRoot = process.getuid?.() === 0;
/** A string as a `[1, n]` array of its UTF-8 bytes (the probes rebuild it). */
function text(s: string): BatchArray {
  const b = new TextEncoder().encode(s);
  return { data: Float32Array.from(b), shape: [1, b.length] };
}
const one = { x: arr([[1]]) };

/**
 * Each probe is what an attacker tried with an ordinary account; each asserts on the harm (a
 * host file unchanged, no connection accepted, no process left), not only on an error text.
 */
describe('PythonSandbox isolation (bubblewrap)', () => {
  const marker = `${Date.now() % 100000}.${Math.floor(Math.random() * 1000)}`;
  const hostDir = mkdtempSync(join(tmpdir(), 'decisio-host-'));
  const secretFile = join(hostDir, 'decisio.sqlite');
  writeFileSync(secretFile, 'password_hash=secret');
  const tmpEscape = `/tmp/decisio-escape-${marker}`;
  const PROBES = `import os, time, subprocess, numpy as np, _socket

def out(v):
    return np.array([[float(v)]], dtype=np.float32)

def read_host_file(data):
    with open(${JSON.stringify(secretFile)}) as f:
        return out(len(f.read()))

def write_host_file(data):
    with open(${JSON.stringify(secretFile)}, 'w') as f:
        f.write('owned')
    return out(1)

def write_tmp(data):
    with open(${JSON.stringify(tmpEscape)}, 'w') as f:
        f.write('owned')
    return out(1)

def write_usr(data):
    with open('/usr/decisio-escape', 'w') as f:
        f.write('owned')
    return out(1)

def write_elsewhere(data):
    n = 0
    for p in ['/decisio-escape', '/etc/decisio-escape', '/dev/decisio-escape', '/proc/decisio-escape', '/bin/decisio-escape']:
        try:
            with open(p, 'w') as f:
                f.write('x')
            n += 1
        except OSError:
            pass
    big = 0
    try:
        with open('/tmp/big', 'wb') as f:
            for i in range(100):
                f.write(b'x' * (1 << 20))
                big += 1
    except OSError:
        pass
    return np.array([[n, big]], dtype=np.float32)

def environ_hits(data):
    needle = bytes(int(v) for v in data['needle'][0])
    hits = 0
    pids = [p for p in os.listdir('/proc') if p.isdigit()]
    for p in pids:
        try:
            with open('/proc/%s/environ' % p, 'rb') as f:
                if needle in f.read():
                    hits += 1
        except OSError:
            pass
    return np.array([[hits, len(pids)]], dtype=np.float32)

def connect_unix(data):
    s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    s.connect(bytes(int(v) for v in data['path'][0]).decode())
    return out(1)

def connect_tcp(data):
    s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    s.settimeout(2)
    s.connect(('127.0.0.1', int(data['port'][0, 0])))
    return out(1)

def identity(data):
    with open('mine', 'w') as f:
        f.write('x')
    caps = {}
    for l in open('/proc/self/status'):
        if l.startswith('Cap'):
            k, v = l.split(':')
            caps[k] = int(v.strip(), 16)
    return np.array([[caps['CapEff'], caps['CapPrm'], caps['CapBnd'], caps['CapAmb']]], dtype=np.float32)

def kernel_calls(data):
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(256)
    # io_uring_setup, userfaultfd, keyctl, bpf, perf_event_open, ptrace, unshare, mount
    calls = [(425, 1, buf), (323, 0), (250, 0, 0), (321, 0, 0, 0), (298, buf, 0, -1, -1, 0), (101, 0, 0, 0, 0), (272, 0x10000000), (165, 0, 0, 0, 0, 0)]
    errs = []
    for c in calls:
        ctypes.set_errno(0)
        r = libc.syscall(*c)
        errs.append(ctypes.get_errno() if r == -1 else 0)
    return np.array([errs], dtype=np.float32)

def read_root_600(data):
    with open('root-only') as f:
        return out(len(f.read()))

def forks_caught(data):
    procs = []
    try:
        for i in range(200):
            procs.append(subprocess.Popen(['sleep', '${marker}']))
    except OSError:
        pass
    return out(len(procs))

def fork_bomb(data):
    procs = [subprocess.Popen(['sleep', '${marker}']) for i in range(200)]
    return out(len(procs))

def detached(data):
    subprocess.Popen(['sleep', '${marker}'], start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if data['x'][0, 0] > 1:
        while True:
            pass
    return out(1)
`;
  let sb: PythonSandbox;
  const started = PythonSandbox.start({ files: { 'probes.py': PROBES }, timeoutMs: 20_000 }).then((s) => (sb = s));
  const leftovers = () => hostCommandLines().filter((c) => c.includes(`sleep ${marker}`));
  afterAll(async () => {
    await sb?.close();
    rmSync(hostDir, { recursive: true, force: true });
    rmSync(tmpEscape, { force: true });
  });

  it('runs every start under bwrap', async () => {
    await started;
    expect(sb.isolation).toBe('bwrap');
    expect((await probeSandbox('/usr/bin/python3')).ok).toBe(true);
  });

  it('cannot read or write the server data directory', async () => {
    await started;
    const read = await failure(sb.call('probes.py', 'read_host_file', one, { rows: 1, cols: 1 }));
    expect(read.code).toBe('sandbox.exception');
    expect(read.params['type']).toBe('FileNotFoundError');
    await failure(sb.call('probes.py', 'write_host_file', one, { rows: 1, cols: 1 }));
    expect(readFileSync(secretFile, 'utf8')).toBe('password_hash=secret');
  });

  it('writes nowhere but its work directory: /tmp is private, /usr read-only', async () => {
    await started;
    const r = await sb.call('probes.py', 'write_tmp', one, { rows: 1, cols: 1 });
    expect(r.data[0]).toBe(1); // it wrote into its own /tmp ...
    expect(existsSync(tmpEscape)).toBe(false); // ... which the host never sees
    await failure(sb.call('probes.py', 'write_usr', one, { rows: 1, cols: 1 }));
    expect(existsSync('/usr/decisio-escape')).toBe(false);
    // The root, /etc, /dev are read-only; the private /tmp is capped (memory cannot be filled through it).
    const w = await sb.call('probes.py', 'write_elsewhere', one, { rows: 1, cols: 2 });
    expect(w.data[0]).toBe(0);
    expect(w.data[1]).toBeLessThanOrEqual(64);
  });

  it("sees no other process's /proc (no environment to steal)", async () => {
    await started;
    // A variable of this (the server's) process environment, as /proc shows it on the host.
    const entry = readFileSync(`/proc/${process.pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => /^[A-Z_][A-Z0-9_]*=./.test(e) && !/^(PATH|HOME|TMPDIR|LANG|OMP_NUM_THREADS|OPENBLAS_NUM_THREADS|MKL_NUM_THREADS)=/.test(e));
    expect(entry).toBeDefined();
    const r = await sb.call('probes.py', 'environ_hits', { needle: text(entry!) }, { rows: 1, cols: 2 });
    expect(r.data[0]).toBe(0);
    expect(r.data[1]).toBeLessThanOrEqual(3); // bwrap's init and the runner
  });

  it('reaches no Unix socket and no TCP port of the host', async () => {
    await started;
    const sockDir = mkdtempSync(join(tmpdir(), 'decisio-sock-'));
    chmodSync(sockDir, 0o777);
    const unix = await listener({ path: join(sockDir, 'db.sock') });
    chmodSync(join(sockDir, 'db.sock'), 0o777);
    const tcp = await listener({ port: 0, host: '127.0.0.1' });
    try {
      for (const path of [join(sockDir, 'db.sock'), '/run/mysqld/mysqld.sock', '/var/run/mysqld/mysqld.sock']) {
        const e = await failure(sb.call('probes.py', 'connect_unix', { path: text(path) }, { rows: 1, cols: 1 }));
        expect(e.code).toBe('sandbox.exception');
      }
      for (const port of [tcp.port, 3306, 5432, 6379]) {
        const e = await failure(sb.call('probes.py', 'connect_tcp', { port: arr([[port]]) }, { rows: 1, cols: 1 }));
        expect(e.code).toBe('sandbox.exception');
      }
      expect(unix.accepted()).toBe(0);
      expect(tcp.accepted()).toBe(0);
    } finally {
      unix.server.close();
      tcp.server.close();
      rmSync(sockDir, { recursive: true, force: true });
    }
  });

  it('runs as an unprivileged host uid without capabilities', async () => {
    await started;
    const r = await sb.call('probes.py', 'identity', one, { rows: 1, cols: 4 });
    expect(Array.from(r.data)).toEqual([0, 0, 0, 0]);
    const owner = statSync(join(sb.workdir, 'mine')).uid;
    if (asRoot) {
      expect(owner).toBeGreaterThanOrEqual(SANDBOX_UID_BASE);
      expect(owner).toBeLessThan(SANDBOX_UID_BASE + SANDBOX_UID_COUNT);
    } else expect(owner).toBe(process.getuid?.());
  });

  it.runIf(process.arch === 'x64')('refuses the kernel interfaces exploits start from (seccomp: io_uring, userfaultfd, keyctl, bpf, perf_event_open, ptrace, unshare, mount)', async () => {
    await started;
    const r = await sb.call('probes.py', 'kernel_calls', one, { rows: 1, cols: 8 });
    expect(Array.from(r.data)).toEqual(new Array(8).fill(1)); // EPERM from the filter, whatever the arguments
  });

  it.runIf(asRoot)('cannot read a root-owned mode 600 file, even in its own directory', async () => {
    await started;
    writeFileSync(join(sb.workdir, 'root-only'), 'root secret', { mode: 0o600 });
    expect(statSync(join(sb.workdir, 'root-only')).uid).toBe(0);
    const e = await failure(sb.call('probes.py', 'read_root_600', one, { rows: 1, cols: 1 }));
    expect(e.params['type']).toBe('PermissionError');
  });

  it('caps the processes: 200 forks are refused, a fork bomb gets a clear error', async () => {
    await started;
    const r = await sb.call('probes.py', 'forks_caught', one, { rows: 1, cols: 1 });
    expect(r.data[0]).toBeGreaterThan(0);
    expect(r.data[0]).toBeLessThan(64);
    const e = await failure(sb.call('probes.py', 'fork_bomb', one, { rows: 1, cols: 1 }));
    expect(e.code).toBe('sandbox.processLimit');
    expect(e.localized('en-US')).toContain('64');
    expect(e.localized('zh-CN')).toContain('进程');
    expect(leftovers()).toEqual([]);
  });

  it('leaves no process behind: after a call, a time-out, or close', async () => {
    await started;
    await sb.call('probes.py', 'detached', one, { rows: 1, cols: 1 });
    expect(leftovers()).toEqual([]);
    const s = await PythonSandbox.start({ files: { 'probes.py': PROBES }, timeoutMs: 1500 });
    try {
      expect((await failure(s.call('probes.py', 'detached', { x: arr([[2]]) }, { rows: 1, cols: 1 }))).code).toBe('sandbox.timeout');
      await new Promise((r) => setTimeout(r, 300));
      expect(leftovers()).toEqual([]);
    } finally {
      await s.close();
    }
    expect(leftovers()).toEqual([]);
  });
});

describe('PythonSandbox without bubblewrap', () => {
  it('refuses user code with a clear error naming the package; never falls back', async () => {
    const path = process.env['PATH'];
    resetSandboxProbe();
    const empty = mkdtempSync(join(tmpdir(), 'decisio-nobwrap-'));
    process.env['PATH'] = empty;
    try {
      const e = await failure(PythonSandbox.start({ files: { 'reward.py': 'def get_reward(d):\n    return 0\n' } }));
      expect(e.code).toBe('sandbox.unavailable');
      expect(e.localized('en-US')).toContain('bubblewrap');
      expect(e.localized('zh-CN')).toContain('bubblewrap');
    } finally {
      process.env['PATH'] = path;
      rmSync(empty, { recursive: true, force: true });
      resetSandboxProbe();
    }
  });

  it('runs unsandboxed only under the explicit opt-out, with a warning', async () => {
    const path = process.env['PATH'];
    resetSandboxProbe();
    const empty = mkdtempSync(join(tmpdir(), 'decisio-nobwrap-'));
    process.env['PATH'] = empty;
    process.env['DECISIO_SANDBOX'] = 'unsafe-none';
    const warn = console.warn;
    const warned: string[] = [];
    console.warn = (...a: unknown[]) => void warned.push(a.join(' '));
    try {
      const s = await PythonSandbox.start({ files: FILES, python: '/usr/bin/python3' });
      try {
        expect(s.isolation).not.toBe('bwrap');
        const r = await new RewardFunction(s).compute({ next_temperature: arr([[-2]]), action: arr([[0]]) });
        expect(Math.abs(r[0]!)).toBe(0);
      } finally {
        await s.close();
      }
      expect(warned.join('\n')).toContain('unsafe-none');
      process.env['DECISIO_SANDBOX'] = 'of';
      expect((await failure(PythonSandbox.start({ files: FILES }))).code).toBe('sandbox.start');
    } finally {
      console.warn = warn;
      process.env['PATH'] = path;
      rmSync(empty, { recursive: true, force: true });
      delete process.env['DECISIO_SANDBOX'];
      resetSandboxProbe();
    }
  });
});
