/**
 * `npm run bench -- sandbox [--rounds=N] [--starts=N] [--policy-steps=N]`: what the bubblewrap
 * sandbox of user code costs, one JSON line per figure, each against the unsandboxed
 * (`DECISIO_SANDBOX=unsafe-none`) figure of the same run (`baselineValue`, `ratio` =
 * sandboxed / unsandboxed):
 * - `sandbox-start`: bwrap with the full profile running `/usr/bin/true`, against `/usr/bin/true`
 *   spawned directly (median of `--starts`, default 30; goal < 50 ms);
 * - `sandbox-python-start`: `PythonSandbox.start` (interpreter, numpy, first ready frame) and close;
 * - `sandbox-reward-call-<B>`: one `RewardFunction.compute` of a B-row batch (B = 256, 2048);
 * - `sandbox-policy-step`: wall time per step of a PPO training (thermal task, BC venv) whose
 *   reward is the task's `reward.py` in the sandbox (the learning bench's batch of 32 windows and
 *   horizon 50: 50 reward calls per step, plus the evaluation rollouts); the same seed both
 *   ways, so the same work.
 * The two modes alternate round by round (`--rounds`, default 3) and the median is kept.
 */
import { spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDataset } from '../src/data/dataset';
import { REFERENCE_TASKS, offlineToRaw } from '../src/tasks/index';
import { BcTrainer } from '../src/venv/bc';
import { PpoTrainer } from '../src/policy/ppo';
import { rewardFromFunction } from '../src/policy/rollout';
import { runTrainer } from '../src/trainer/contract';
import { PythonSandbox, RewardFunction, defaultPython } from '../src/sandbox/python-sandbox';
import { allocateSandboxId, bwrapArgs, probeSandbox, releaseSandboxId, runsAsRoot, seccompFilter, writeFilter } from '../src/sandbox/bwrap';

console.info = (...a: unknown[]) => console.error(...a);
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const ROUNDS = arg('rounds', 3);
const STARTS = arg('starts', 30);
const POLICY_STEPS = arg('policy-steps', 6);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const r3 = (v: number) => Number(v.toFixed(3));
type Mode = 'bwrap' | 'unsafe-none';
function setMode(m: Mode) {
  process.env['DECISIO_SANDBOX'] = m;
}
const quiet = console.warn;

function spawnWait(cmd: string, args: string[], opts: { uid?: number; gid?: number } = {}, filter: Buffer | null = null): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const c = spawn(cmd, args, { stdio: filter ? ['ignore', 'ignore', 'ignore', 'pipe'] : 'ignore', env: { PATH: '/usr/bin:/bin' }, ...opts });
    if (filter) writeFilter(c.stdio[3], filter);
    c.on('error', reject);
    c.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${cmd} exit ${code}`))));
  });
}

function line(bench: string, value: number, unit: string, baselineValue: number, extra: Record<string, unknown> = {}) {
  console.log(JSON.stringify({ bench, value: r3(value), unit, baseline: 'DECISIO_SANDBOX=unsafe-none, same run', baselineValue: r3(baselineValue), ratio: r3(value / baselineValue), ...extra }));
}

const probe = await probeSandbox(defaultPython());
if (!probe.ok) throw new Error(`bwrap cannot start here: ${probe.detail}`);
console.warn = () => undefined; // the opt-out's warning on every start

// 1. bare sandbox start
{
  const dir = mkdtempSync(join(tmpdir(), 'decisio-bench-'));
  const id = runsAsRoot() ? allocateSandboxId() : undefined;
  if (id !== undefined) chownSync(dir, id, id);
  const ids = id !== undefined ? { uid: id, gid: id } : {};
  const boxed: number[] = [];
  const bare: number[] = [];
  const args = bwrapArgs(probe, '/usr/bin/true', dir, []);
  const filter = probe.seccomp ? seccompFilter() : null;
  for (let i = 0; i < 3; i++) await spawnWait(probe.bwrap, args, ids, filter); // warm
  for (let i = 0; i < STARTS; i++) {
    boxed.push(await spawnWait(probe.bwrap, args, ids, filter));
    bare.push(await spawnWait('/usr/bin/true', [], ids));
  }
  releaseSandboxId(id);
  rmSync(dir, { recursive: true, force: true });
  line('sandbox-start', median(boxed), 'ms', median(bare), { goal: '< 50 ms', starts: STARTS, p90: r3([...boxed].sort((a, b) => a - b)[Math.floor(boxed.length * 0.9)]!) });
}

// 2. interpreter start, and 3. reward calls
const task = REFERENCE_TASKS.thermal;
// nan_to_num: with this small venv, PPO's rollouts reach NaN within a few steps (the TypeScript
// reward sees the same); the sandbox refuses NaN rewards, the bench keeps timing.
const files = { 'reward.py': `import numpy as np\n${task.rewardPy}\n_reward = get_reward\n\ndef get_reward(data):\n    return np.nan_to_num(np.asarray(_reward(data)))\n` };
{
  const starts: Record<Mode, number[]> = { bwrap: [], 'unsafe-none': [] };
  const calls: Record<Mode, Record<number, number[]>> = { bwrap: { 256: [], 2048: [] }, 'unsafe-none': { 256: [], 2048: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['bwrap', 'unsafe-none'] as Mode[]) {
      setMode(mode);
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const s = await PythonSandbox.start({ files });
        await s.close();
        starts[mode].push(performance.now() - t0);
      }
      const s = await PythonSandbox.start({ files });
      const reward = new RewardFunction(s);
      for (const rows of [256, 2048]) {
        const batch = {
          temperature: { data: new Float32Array(rows).fill(1), shape: [rows, 1] as [number, number] },
          action: { data: new Float32Array(rows).fill(0.5), shape: [rows, 1] as [number, number] },
          next_temperature: { data: new Float32Array(rows).fill(-1), shape: [rows, 1] as [number, number] },
        };
        for (let i = 0; i < 20; i++) await reward.compute(batch); // warm
        for (let i = 0; i < 200; i++) {
          const t0 = performance.now();
          await reward.compute(batch);
          calls[mode][rows]!.push(performance.now() - t0);
        }
      }
      await s.close();
    }
  }
  line('sandbox-python-start', median(starts.bwrap), 'ms', median(starts['unsafe-none']), { note: 'python3 + numpy import + first frame, then close' });
  for (const rows of [256, 2048]) line(`sandbox-reward-call-${rows}`, median(calls.bwrap[rows]!) * 1000, 'us', median(calls['unsafe-none'][rows]!) * 1000, { rows, calls: 200 * ROUNDS });
}

// 4. policy training with the reward in the sandbox
{
  const graph = task.graph();
  const ds = buildDataset(graph, offlineToRaw(task.generate({ trajectories: 20, steps: task.horizon, seed: 1 })));
  const bc = new BcTrainer(graph, ds, { hidden: [128, 128], updatesPerStep: 25, evalEvery: 10, batchSize: 256, lr: 2e-3 });
  await runTrainer(bc, { seed: 1, stop: { system: true }, budget: { maxSteps: 40 }, onEvent: () => {} });
  const ck = bc.checkpoint();
  if (ck.best) bc.venv!.loadWeights(ck.best);
  const venv = bc.venv!;
  const perStep: Record<Mode, number[]> = { bwrap: [], 'unsafe-none': [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['bwrap', 'unsafe-none'] as Mode[]) {
      setMode(mode);
      const s = await PythonSandbox.start({ files });
      try {
        const trainer = new PpoTrainer(venv, rewardFromFunction(new RewardFunction(s)), { horizon: 50, batchSize: 32, evalEvery: 1000 }, ds);
        let last = 0;
        const times: number[] = [];
        const result = await runTrainer(trainer, {
          seed: 3,
          stop: { system: true },
          budget: { maxSteps: POLICY_STEPS },
          onEvent: (e) => {
            if (e.type !== 'metrics') return;
            const now = performance.now();
            if (last) times.push(now - last);
            last = now;
          },
        });
        if (result.reason === 'failed') throw result.error;
        if (times.length === 0) throw new Error('the policy training ran no timed step');
        perStep[mode].push(median(times));
      } finally {
        await s.close();
      }
    }
  }
  line('sandbox-policy-step', median(perStep.bwrap), 'ms', median(perStep['unsafe-none']), { task: 'thermal', batch: 32, horizon: 50, steps: POLICY_STEPS, goal: 'ratio ~ 1 (within noise)' });
}
console.warn = quiet;
delete process.env['DECISIO_SANDBOX'];
process.exit(0);
