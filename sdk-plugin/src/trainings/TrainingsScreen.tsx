import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Button, ButtonGroup, HTMLTable, Tag } from '@blueprintjs/core';
import type { JobView, TrainKind } from '@decisio/domain';
import { BusyButton, policyGain, projectLinkSearch, useAppLocation, useLocale, useNavigate, useProjectEditRight } from '../index';
import { trainingsApi, type TrainingArea, type TrainingRow } from './api';
import { useTrainingsT } from './i18n';
import { DeductionDialog } from './DeductionDialog';
import { TrainFormDialog } from './TrainFormDialog';
import { TrainingDetail } from './TrainingDetail';
import { ACTIVE, DeleteConfirm, formatTime, ListStates, NoSolution, ProgressCell, StateTag, STOPPED_MANUALLY, useAct, useProjectId, useSolutionId } from './shared';
import { FollowJobs } from './events';

/** The fallback poll of a list while some running job is not followed live. */
const LIST_POLL_MS = 5000;

/** The kinds of training (and deduction) screens. */
export type TrainingScreen = 'environment' | 'policy' | 'parameter' | 'simulation' | 'decision';

const CONFIG: Record<TrainingScreen, { area: TrainingArea; train?: TrainKind; copy?: 'simulator' | 'policy'; icon: 'cube' | 'predictive-analysis' | 'settings' | 'play' | 'flow-branch'; ack: boolean }> = {
  environment: { area: 'trainSimulator', train: 'environment', copy: 'simulator', icon: 'cube', ack: true },
  policy: { area: 'trainPolicy', train: 'policy', copy: 'policy', icon: 'predictive-analysis', ack: true },
  parameter: { area: 'trainParameter', train: 'parameter', icon: 'settings', ack: true },
  simulation: { area: 'simulation', icon: 'play', ack: false },
  decision: { area: 'decision', icon: 'flow-branch', ack: false },
};

/**
 * The screen of one kind of training or deduction: its list with the form, detail, stop, copy,
 * restore and delete; `openForm` opens the new-training (or new-deduction) form at once (the
 * `/train` addresses). `detailExtra` adds an area's own section to a record's detail (the
 * environment area's per-node scores), under the record's figures. The changes (new, stop,
 * restore, copy, delete) are disabled, their title saying why, for a user who may not change the
 * project ({@link useProjectEditRight}: view right, or locked), and the form does not open (nor while the right is read).
 */
export function TrainingsScreen(props: TrainingsScreenProps) {
  // One screen per solution: another starts with no form, detail or dialog of this one's open.
  return <Trainings key={useSolutionId() ?? ''} {...props} />;
}

/** Props of {@link TrainingsScreen}. */
export interface TrainingsScreenProps {
  screen: TrainingScreen;
  openForm?: boolean;
  detailExtra?: (row: TrainingRow) => ReactNode;
}

function Trainings({ screen, openForm = false, detailExtra }: TrainingsScreenProps) {
  const { t } = useTrainingsT();
  const locale = useLocale();
  const act = useAct();
  const navigate = useNavigate();
  const location = useAppLocation();
  const solutionId = useSolutionId();
  const cfg = CONFIG[screen];
  // Refused only once known (a reason): not while the project is read, nor without a project in the link (the server decides).
  const right = useProjectEditRight(useProjectId());
  const change = { disabled: right.reason !== undefined, title: right.reason };
  const [formOpen, setFormOpen] = useState(openForm);
  const [selected, setSelected] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TrainingRow | null>(null);
  const [ack, setAck] = useState(false);
  const [poll, setPoll] = useState(0);
  const list = trainingsApi.endpoints['trainings/trainings'].useQuery({ solutionId: solutionId ?? '', area: cfg.area }, { skip: !solutionId, pollingInterval: poll });
  // The running jobs of the list follow their live streams (state and progress as they change;
  // the list is read again only when a state changes); the list polls while one is not followed.
  const running = (list.data?.rows ?? []).filter((r) => ACTIVE.has(r.state) && r.jobId);
  const [allLive, setAllLive] = useState(false);
  const [liveProgress, setLiveProgress] = useState<Record<string, { state: string; progress: number }>>({});
  const rows = list.data?.rows;
  const onState = useCallback(
    (jobId: string, view: JobView) => {
      setLiveProgress((old) => ({ ...old, [jobId]: { state: view.state, progress: view.progress } }));
      if (rows?.find((r) => r.jobId === jobId)?.state !== view.state) void list.refetch();
    },
    [rows, list],
  );
  useEffect(() => setPoll(running.length > 0 && !allLive ? LIST_POLL_MS : 0), [running.length, allLive]);
  const progressOf = (r: TrainingRow) => {
    const l = r.jobId ? liveProgress[r.jobId] : undefined;
    return l && l.state === r.state ? l.progress : r.progress;
  };
  const [stop] = trainingsApi.endpoints['trainings/stop'].useMutation();
  const [copy] = trainingsApi.endpoints['trainings/trainingCopy'].useMutation();
  const [restore] = trainingsApi.endpoints['trainings/restore'].useMutation();
  const [remove, removal] = trainingsApi.endpoints['trainings/trainingDelete'].useMutation();
  if (!solutionId) return <NoSolution />;

  const confirmDelete = async () => {
    if (!deleting) return;
    await act(() => remove({ area: cfg.area, id: deleting.id, acknowledged: ack }).unwrap(), t('common.deleted'));
    if (selected === deleting.id) setSelected(null);
    setDeleting(null);
    setAck(false);
  };
  const newButton = (
    <Button icon="add" intent="primary" {...change} onClick={() => setFormOpen(true)} data-testid="modelling-new">
      {cfg.train ? t('train.new') : t('deduction.new')}
    </Button>
  );
  const scoreOf = (r: TrainingRow) => (typeof r.score === 'number' ? r.score.toFixed(2) : typeof r.reward === 'number' ? r.reward.toFixed(4) : t('common.none'));

  return (
    <div className="modelling-panel" data-testid={`modelling-${screen}`}>
      <div className="modelling-toolbar">
        <span className="spacer" />
        <BusyButton icon="refresh" aria-label={t('common.refresh')} title={t('common.refresh')} loading={list.isFetching && !list.isLoading} onClick={() => void list.refetch()} />
        {newButton}
      </div>
      <ListStates query={list} emptyTitle={t(`empty.${screen}`)} emptyHint={t(`empty.${screen}Hint`)} emptyIcon={cfg.icon} action={newButton}>
        <HTMLTable compact striped interactive style={{ width: '100%' }}>
          <thead>
            <tr>
              <th>{t('common.name')}</th>
              <th>{cfg.train ? t('common.algorithm') : t('deduction.stepSize')}</th>
              <th>{t('common.state')}</th>
              <th>{t('common.progress')}</th>
              <th>{screen === 'environment' || screen === 'simulation' ? t('common.score') : t('common.reward')}</th>
              <th>{t('common.createdAt')}</th>
              <th>{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.rows ?? []).map((r) => (
              <tr
                key={r.id}
                className={selected === r.id ? 'modelling-row-selected' : undefined}
                tabIndex={0}
                aria-selected={selected === r.id}
                onClick={() => setSelected(r.id)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    setSelected(r.id);
                  }
                }}
                data-testid="training-row"
              >
                <td>
                  {r.name} <small className="bp6-text-muted">{r.code}</small>
                </td>
                <td>{r.algorithm ? t(`algorithms.${r.algorithm}` as Parameters<typeof t>[0]) : r.stepSize ?? ''}</td>
                <td>
                  <StateTag state={r.state} />
                </td>
                <td>
                  <ProgressCell state={r.state} progress={progressOf(r)} durationMs={r.durationMs} />
                </td>
                <td>
                  {scoreOf(r)}
                  {cfg.area === 'trainPolicy' && policyGain(r)?.behind && (
                    <Tag minimal intent="warning" icon="warning-sign" style={{ marginLeft: 6 }} title={t('train.behindHint', { behaviour: policyGain(r)!.behaviour.toPrecision(4) })} data-testid="policy-behind">
                      {t('train.behind')}
                    </Tag>
                  )}
                </td>
                <td>{formatTime(r.createdAt, locale)}</td>
                <td onClick={(e) => e.stopPropagation()}>
                  <ButtonGroup minimal>
                    <Button small icon="eye-open" onClick={() => setSelected(r.id)}>
                      {t('common.detail')}
                    </Button>
                    {(cfg.area === 'trainSimulator' || cfg.area === 'trainPolicy') && ACTIVE.has(r.state) && (r.config as { mode?: string } | null | undefined)?.mode === 'debug' && (
                      <Button
                        small
                        icon="bug"
                        data-testid="training-debug"
                        onClick={() => navigate('/workflow/debug', { search: projectLinkSearch(location.search, { [cfg.area === 'trainSimulator' ? 'simulatorId' : 'policyId']: r.id }) })}
                      >
                        {t('train.debugOpen')}
                      </Button>
                    )}
                    {ACTIVE.has(r.state) && r.jobId && (
                      <Button small icon="stop" intent="warning" {...change} onClick={() => void act(() => stop({ jobId: r.jobId! }).unwrap(), t('common.stopped'))}>
                        {t('common.stop')}
                      </Button>
                    )}
                    {(cfg.area === 'trainSimulator' || cfg.area === 'trainPolicy') && (r.state === 'failure' || r.state === STOPPED_MANUALLY) && (
                      <Button small icon="repeat" {...change} onClick={() => void act(() => restore({ area: cfg.area as 'trainSimulator' | 'trainPolicy', id: r.id }).unwrap(), t('common.restored'))}>
                        {t('common.restore')}
                      </Button>
                    )}
                    {cfg.copy && (
                      <Button small icon="duplicate" {...change} onClick={() => void act(() => copy({ area: cfg.copy!, id: r.id }).unwrap(), t('common.copied'))}>
                        {t('common.copy')}
                      </Button>
                    )}
                    <Button small icon="trash" intent="danger" {...change} onClick={() => setDeleting(r)}>
                      {t('common.delete')}
                    </Button>
                  </ButtonGroup>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ListStates>
      {running.length > 0 && <FollowJobs jobIds={running.map((r) => r.jobId!)} onState={onState} onAllLive={setAllLive} />}
      {selected && <TrainingDetail key={selected} area={cfg.area} id={selected} onClose={() => setSelected(null)} {...(detailExtra ? { extra: detailExtra } : {})} />}
      {formOpen && !right.loading && !right.reason && cfg.train && <TrainFormDialog kind={cfg.train} solutionId={solutionId} onClose={() => setFormOpen(false)} />}
      {formOpen && !right.loading && !right.reason && !cfg.train && <DeductionDialog kind={screen as 'simulation' | 'decision'} solutionId={solutionId} onClose={() => setFormOpen(false)} />}
      <DeleteConfirm
        name={deleting?.name ?? null}
        loading={removal.isLoading}
        acknowledge={cfg.ack ? { checked: ack, onChange: setAck } : undefined}
        onConfirm={() => void confirmDelete()}
        onCancel={() => {
          setDeleting(null);
          setAck(false);
        }}
      />
    </div>
  );
}
