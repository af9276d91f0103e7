/**
 * "Terminal on the worker" of a training's detail (`trainSSH/getTrainSSH`, issue 21 item 4): while
 * the training runs, its owner opens a shell on the worker machine that runs it, when the operator
 * enabled it (`TRAIN_SSH`); the button shows only when the server's probe says a terminal would open. The first time, the worker's host key fingerprint is shown to be
 * trusted; a changed key is refused with both fingerprints. The terminal is the SDK's xterm view.
 */
import { useState } from 'react';
import { Callout } from '@blueprintjs/core';
import { BusyButton } from '../react';
import { ErrorCode, type TrainSshProbeReply, type TrainSshReply, type TrainSshRequest } from '@decisio/domain';
import { definePluginApi, type ApiError, type PluginEndpointBuilder } from '../api';
import { HostKeyNotice, hostKeyProblem, SshTerminalView } from '../terminal';
import { useTrainingsT } from './i18n';

const workerSshEndpoints = (build: PluginEndpointBuilder) => ({
  'trainings-ssh/probe': build.query<TrainSshProbeReply, { jobId: string }>({ query: (body) => ({ url: 'trainSSH/getTrainSSH', body: { ...body, probe: true } }) }),
  'trainings-ssh/open': build.mutation<TrainSshReply, TrainSshRequest>({ query: (body) => ({ url: 'trainSSH/getTrainSSH', body }) }),
  'trainings-ssh/close': build.mutation<null, { sessionId: string }>({ query: (body) => ({ url: 'ssh/close', body }) }),
});
/** The calls of the worker terminal. */
export const workerSshApi = definePluginApi('trainings-ssh', workerSshEndpoints);

/** States in which a job runs on a worker (the server opens terminals in these only). */
export const WORKER_TERMINAL_STATES: ReadonlySet<string> = new Set(['processing', 'debugging']);

/** The button, when the server says a terminal would open for this job (the operator enabled it, the job is the caller's and runs on a worker with an SSH address). */
export function WorkerTerminal({ jobId }: { jobId: string }) {
  const probe = workerSshApi.endpoints['trainings-ssh/probe'].useQuery({ jobId }, { refetchOnMountOrArgChange: true });
  if (!probe.data?.available) return null;
  return <WorkerTerminalControl jobId={jobId} />;
}

function WorkerTerminalControl({ jobId }: { jobId: string }) {
  const { t } = useTrainingsT();
  const [open, openState] = workerSshApi.endpoints['trainings-ssh/open'].useMutation();
  const [close] = workerSshApi.endpoints['trainings-ssh/close'].useMutation();
  const [session, setSession] = useState<TrainSshReply | null>(null);
  const start = async (trustFingerprint?: string) => {
    const r = await open({ jobId, cols: 100, rows: 24, ...(trustFingerprint ? { trustFingerprint } : {}) });
    if ('data' in r && r.data) setSession(r.data);
  };
  const error = openState.error as ApiError | undefined;
  const keyProblem = hostKeyProblem(error);

  if (session) {
    return (
      <div data-testid="worker-terminal">
        <SshTerminalView
          ticket={session.ticket}
          target={session.target}
          hostKey={session.hostKey}
          minHeight={260}
          labels={{
            connected: t('workerTerminal.connected', { target: session.target, worker: session.workerId }),
            hostKey: t('workerTerminal.hostKey', { fingerprint: session.hostKey.fingerprint, type: session.hostKey.type }),
            disconnect: t('workerTerminal.disconnect'),
            again: t('workerTerminal.close'),
            ended: t('workerTerminal.ended'),
            idle: t('workerTerminal.idle', { minutes: session.idleMinutes }),
            noSession: t('workerTerminal.noSession'),
            lost: t('workerTerminal.lost'),
          }}
          onDisconnect={() => void close({ sessionId: session.sessionId })}
          onNew={() => {
            openState.reset();
            setSession(null);
          }}
        />
      </div>
    );
  }
  return (
    <div data-testid="worker-terminal" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="modelling-toolbar">
        <BusyButton small icon="console" loading={openState.isLoading} title={t('workerTerminal.hint')} onClick={() => void start()} data-testid="worker-terminal-open">
          {t('workerTerminal.open')}
        </BusyButton>
      </div>
      {keyProblem ? (
        <HostKeyNotice
          problem={keyProblem}
          busy={openState.isLoading}
          labels={{
            unknownTitle: t('workerTerminal.unknownTitle'),
            unknownHint: t('workerTerminal.unknownHint'),
            trust: t('workerTerminal.trust'),
            changedTitle: t('workerTerminal.changedTitle'),
            changedHint: error!.message,
            presented: t('workerTerminal.presented'),
            stored: t('workerTerminal.stored'),
          }}
          onTrust={(fingerprint) => void start(fingerprint)}
        />
      ) : error ? (
        <Callout intent="warning" icon="info-sign" data-testid="worker-terminal-error" data-code={error.code}>
          {error.code === ErrorCode.sshInfoFailed ? t('workerTerminal.unavailable', { message: error.message }) : error.message}
        </Callout>
      ) : null}
    </div>
  );
}
