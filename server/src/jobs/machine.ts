import os from 'node:os';
import { randomBytes } from 'node:crypto';
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
