import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { defaultPython, jobRoot, probeSandbox, sandboxMode } from '@decisio/learning/sandbox';
import { SERVER_VERSION } from '../version';

/** What a worker tells about itself when it registers. */
export interface MachineInfo {
  host: string;
  cores: number;
  memory: number;
  gpuAdapter: string | null;
  engineVersion: string;
  /**
   * Where the worker's SSH server answers (`host:port`, from `WORKER_SSH_ADDRESS`), for a
   * terminal into a training it runs (`trainSSH/getTrainSSH`); null: none.
   */
  sshAddress?: string | null;
  /**
   * How this worker confines a terminal (its bubblewrap, as the user code sandbox runs it, and
   * where the jobs' work directories are), announced with the SSH address; null: it cannot
   * (no bwrap, or `DECISIO_SANDBOX=unsafe-none`), and `trainSSH/getTrainSSH` refuses its jobs.
   */
  terminalSandbox?: TerminalSandbox | null;
}

/** See {@link MachineInfo.terminalSandbox}. */
export interface TerminalSandbox {
  /** The bwrap executable (absolute). */
  bwrap: string;
  /** bwrap's features, as the sandbox's probe found them. */
  disableUserns: boolean;
  tmpfsSize: boolean;
  seccomp: boolean;
  /** Where the jobs' work directories are: `<jobRoot>/<jobId>` (`DECISIO_JOB_ROOT`). */
  jobRoot: string;
}

/** This worker's {@link TerminalSandbox}: the user code sandbox's probe; null where it cannot start. */
export async function terminalSandbox(env: NodeJS.ProcessEnv = process.env): Promise<TerminalSandbox | null> {
  try {
    if (sandboxMode(env) !== 'bwrap') return null;
    const probe = await probeSandbox(defaultPython());
    if (!probe.ok) return null;
    return { bwrap: probe.bwrap, disableUserns: probe.disableUserns, tmpfsSize: probe.tmpfsSize, seccomp: probe.seccomp, jobRoot: jobRoot(env) };
  } catch {
    return null;
  }
}

/** `m` with its {@link MachineInfo.terminalSandbox} found, when it announces an SSH address and does not say already. */
export async function withTerminalSandbox(m: MachineInfo): Promise<MachineInfo> {
  if (!m.sshAddress || m.terminalSandbox !== undefined) return m;
  return { ...m, terminalSandbox: await terminalSandbox() };
}

/** This machine's resources (the GPU adapter comes from `DECISIO_GPU_ADAPTER`, the SSH address from `WORKER_SSH_ADDRESS`, when set). */
export function machineInfo(env: NodeJS.ProcessEnv = process.env): MachineInfo {
  return {
    host: os.hostname(),
    cores: os.availableParallelism(),
    memory: os.totalmem(),
    gpuAdapter: env.DECISIO_GPU_ADAPTER || null,
    engineVersion: SERVER_VERSION,
    sshAddress: env.WORKER_SSH_ADDRESS?.trim() || null,
  };
}

/** A new worker id: host, pid and a random suffix (no `:`, which BullMQ forbids in names). */
export function newWorkerId(host = os.hostname()): string {
  const safeHost = host.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 40);
  return `${safeHost}-${process.pid}-${randomBytes(3).toString('hex')}`;
}
