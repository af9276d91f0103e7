import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { isLearningError, type LearningError } from '../errors';
import { PythonSandbox, RewardFunction, type BatchArray } from './python-sandbox';

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
