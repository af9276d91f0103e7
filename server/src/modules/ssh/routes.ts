import fs from 'node:fs/promises';
import type { Router } from '@koa/router';
import { AppError, MODELLING_JOB_KINDS, sshCloseSchema, sshConnectSchema, sshForgetHostKeySchema, trainSshSchema, type TrainSshProbeReply, type TrainSshReply } from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { JobRecord, WorkerRecord } from '../../jobs/store';
import { parseSshAddress, type TrainSshConfig } from './config';
import { confinedTerminalCommand } from './confine';
import type { HostKeys } from './host-keys';
import type { SshTerminals } from './terminals';

/**
 * `ssh/connect` (host, port, username, password or key -> a session of the caller and a
 * single-use ticket for the terminal socket), `ssh/close` and `ssh/forgetHostKey`. Signed-in users
 * only; the password and key are masked in the system log.
 */
export function sshRoutes(router: Router<AppState>, kit: RouteKit, deps: { terminals: SshTerminals; hostKeys: HostKeys }): void {
  const connect = kit.validate(sshConnectSchema);
  const close = kit.validate(sshCloseSchema);
  const forget = kit.validate(sshForgetHostKeySchema);
  router.post(
    '/ssh/connect',
    kit.auth,
    kit.tenant,
    connect,
    reply(async (ctx: AppContext) => {
      const u = ctx.state.user!;
      return deps.terminals.open({ id: u.id, username: u.username, tenantId: u.tenantId }, connect.input(ctx));
    }),
  );
  router.post(
    '/ssh/close',
    kit.auth,
    kit.tenant,
    close,
    reply(async (ctx: AppContext) => {
      deps.terminals.close(ctx.state.user!.id, close.input(ctx).sessionId);
      return null;
    }),
  );
  router.post(
    '/ssh/forgetHostKey',
    kit.auth,
    kit.tenant,
    forget,
    reply(async (ctx: AppContext) => {
      const u = ctx.state.user!;
      const { host, port } = forget.input(ctx);
      return { removed: await deps.hostKeys.forget({ id: u.id, tenantId: u.tenantId }, host, port) };
    }),
  );
}

/** Job kinds that are trainings or deductions (not a scheme's data processing). */
const TRAINING_KINDS: ReadonlySet<string> = new Set([MODELLING_JOB_KINDS.environment, MODELLING_JOB_KINDS.policy, MODELLING_JOB_KINDS.parameter, MODELLING_JOB_KINDS.simulation, MODELLING_JOB_KINDS.decision]);
/** States in which a job runs on a worker. */
const RUNNING: ReadonlySet<string> = new Set(['processing', 'debugging']);

/** What `trainSSH/getTrainSSH` reads of the job queue. */
export interface TrainSshDeps {
  terminals: SshTerminals;
  /** The operator's setting (`TRAIN_SSH`); null: off. */
  config: TrainSshConfig | null;
  /** A job of the tenant, or null. */
  job(jobId: string, tenantId: string): Promise<Pick<JobRecord, 'userId' | 'kind' | 'state' | 'workerId'> | null>;
  /** A worker row, or null. */
  worker(workerId: string): Promise<Pick<WorkerRecord, 'id' | 'sshAddress' | 'terminalSandbox'> | null>;
}

/**
 * `trainSSH/getTrainSSH` (spec workflow §7): a terminal into the worker that runs one of the
 * caller's trainings, while it runs (`processing` or at a breakpoint), when the operator enabled
 * it. The server signs in as `TRAIN_SSH_USER` with `TRAIN_SSH_KEY_FILE` at the worker's
 * `WORKER_SSH_ADDRESS`; host keys are checked as for `ssh/connect`. It never asks for a login
 * shell: it runs (SSH `exec` with a pty) the command of `confine.ts`, a shell inside the same
 * bubblewrap confinement as the job's user code, bound to the job's own work directory. A worker
 * that announced no sandbox (`terminalSandbox` null: no bwrap there) is refused with
 * `sshTerminalUnconfined`, never given an unconfined shell. Every other refusal but the host
 * key's answers `sshInfoFailed` (nothing tells whether the job exists). With `probe` it only
 * answers `{available}` (the same checks, no connection), for the detail's button.
 */
export function trainSshRoutes(router: Router<AppState>, kit: RouteKit, deps: TrainSshDeps): void {
  const body = kit.validate(trainSshSchema);
  router.post(
    '/trainSSH/getTrainSSH',
    kit.auth,
    kit.tenant,
    body,
    reply(async (ctx: AppContext): Promise<TrainSshReply | TrainSshProbeReply> => {
      const u = ctx.state.user!;
      const input = body.input(ctx);
      const cfg = deps.config;
      // Everything but the connection: the operator's setting, the caller's running job, its worker's address.
      const target = async () => {
        if (!cfg) return null;
        const job = await deps.job(input.jobId, u.tenantId);
        if (!job || job.userId !== u.id || !TRAINING_KINDS.has(job.kind) || !RUNNING.has(job.state) || !job.workerId) return null;
        const worker = await deps.worker(job.workerId);
        const address = worker?.sshAddress ? parseSshAddress(worker.sshAddress) : null;
        return worker && address ? { cfg, worker, address } : null;
      };
      const found = await target();
      // The command is built before any connection: a worker that cannot confine the shell gets none.
      let command: string | null = null;
      if (found?.worker.terminalSandbox) {
        try {
          command = confinedTerminalCommand(found.worker.terminalSandbox, input.jobId);
        } catch {
          command = null;
        }
      }
      if (input.probe) return { available: found !== null && command !== null };
      if (!found) throw new AppError('sshInfoFailed');
      if (command === null) throw new AppError('sshTerminalUnconfined');
      const { worker, address } = found;
      let privateKey: string;
      try {
        privateKey = await fs.readFile(found.cfg.keyFile, 'utf8');
      } catch {
        throw new AppError('sshInfoFailed');
      }
      const session = await deps.terminals.open(
        { id: u.id, username: u.username, tenantId: u.tenantId },
        {
          host: address.host,
          port: address.port,
          username: found.cfg.username,
          authType: 'key',
          privateKey,
          ...(found.cfg.passphrase ? { passphrase: found.cfg.passphrase } : {}),
          cols: input.cols,
          rows: input.rows,
          ...(input.trustFingerprint ? { trustFingerprint: input.trustFingerprint } : {}),
        },
        { operatorHost: true, detail: { jobId: input.jobId, workerId: worker.id, confined: true }, command },
      );
      const host = address.host.includes(':') ? `[${address.host}]` : address.host;
      return { ...session, target: `${found.cfg.username}@${host}:${address.port}`, workerId: worker.id };
    }),
  );
}
