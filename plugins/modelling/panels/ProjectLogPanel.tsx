/**
 * `/project/project-log?projectId=…`: the project's log of trainings (spec platform §3 "Log":
 * project logs hold the train name, type, status, solution name and message): every scheme
 * processing, environment, policy, parameter search and deduction of every solution of the
 * project, newest first, from `train/getAllTrainList` per solution (100 newest each).
 */
import { useEffect, useState } from 'react';
import { Button, Callout, HTMLSelect, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { isApiError, useLocale, useProjectLink, type PanelProps } from '@decisio/sdk-plugin';
import { modellingApi, type TrainingRow } from '../api';
import { useModellingT } from '../i18n';
import { formatDuration } from '../model/forms';
import { formatTime, StateTag } from './shared';

const PER_SOLUTION = 100;
const KINDS = ['scheme', 'environment', 'policy', 'parameter', 'simulation', 'decision'] as const;

/** One line of the project log. */
export interface ProjectLogLine {
  row: TrainingRow & { kind: string };
  solution: string;
}

export function ProjectLogPanel(_props: PanelProps) {
  const { t } = useModellingT();
  const locale = useLocale();
  const projectId = useProjectLink().params.projectId;
  const solutions = modellingApi.endpoints['modelling/solutions'].useQuery({ projectId: projectId ?? '' }, { skip: !projectId });
  const [fetchAll] = modellingApi.endpoints['modelling/allTrainings'].useLazyQuery();
  const [lines, setLines] = useState<ProjectLogLine[] | null>(null);
  const [truncated, setTruncated] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [kind, setKind] = useState('');
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!solutions.data) return;
    let cancelled = false;
    setError(null);
    void Promise.all(
      solutions.data.map(async (s) => {
        const page = await fetchAll({ solutionId: s.solutionId, page: 1, pageSize: PER_SOLUTION }).unwrap();
        return { page, solution: s.name };
      }),
    ).then(
      (pages) => {
        if (cancelled) return;
        setTruncated(pages.some((p) => p.page.total > PER_SOLUTION));
        setLines(pages.flatMap((p) => p.page.rows.map((row) => ({ row, solution: p.solution }))).sort((a, b) => (b.row.createdAt ?? '').localeCompare(a.row.createdAt ?? '')));
      },
      (err: unknown) => !cancelled && setError(isApiError(err) ? err.message : String(err)),
    );
    return () => {
      cancelled = true;
    };
  }, [solutions.data, fetchAll, tick]);

  if (!projectId) return <NonIdealState icon="folder-open" title={t('projectLog.noProject')} description={t('projectLog.noProjectHint')} />;
  const failed = error ?? (solutions.error ? (isApiError(solutions.error) ? solutions.error.message : t('common.loadFailed')) : null);
  if (failed)
    return (
      <Callout intent="danger" icon="error" title={t('common.loadFailed')}>
        {failed}{' '}
        <Button minimal small onClick={() => (void solutions.refetch(), setTick((x) => x + 1))}>
          {t('common.retry')}
        </Button>
      </Callout>
    );
  if (!lines) return <NonIdealState icon={<Spinner size={32} />} title={t('common.loading')} />;
  const shown = kind ? lines.filter((l) => l.row.kind === kind) : lines;
  return (
    <div className="modelling-panel" data-testid="project-log">
      <div className="modelling-toolbar">
        <HTMLSelect aria-label={t('projectLog.type')} value={kind} onChange={(e) => setKind(e.currentTarget.value)} data-testid="project-log-kind">
          <option value="">{t('projectLog.allTypes')}</option>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`projectLog.kinds.${k}`)}
            </option>
          ))}
        </HTMLSelect>
        <span className="spacer" />
        <Button icon="refresh" aria-label={t('common.refresh')} title={t('common.refresh')} onClick={() => setTick((x) => x + 1)} />
      </div>
      {truncated && <Callout intent="primary">{t('projectLog.truncated', { count: PER_SOLUTION })}</Callout>}
      {shown.length === 0 ? (
        <NonIdealState icon="history" title={t('projectLog.empty')} description={t('projectLog.emptyHint')} />
      ) : (
        <HTMLTable compact striped style={{ width: '100%' }}>
          <thead>
            <tr>
              <th>{t('common.createdAt')}</th>
              <th>{t('projectLog.name')}</th>
              <th>{t('projectLog.type')}</th>
              <th>{t('common.state')}</th>
              <th>{t('projectLog.solution')}</th>
              <th>{t('common.duration')}</th>
              <th>{t('projectLog.message')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map(({ row, solution }) => (
              <tr key={`${row.kind}-${row.id}`} data-testid="project-log-row">
                <td>{formatTime(row.createdAt, locale)}</td>
                <td>
                  {row.name} <small className="bp6-text-muted">{row.code}</small>
                </td>
                <td>{KINDS.includes(row.kind as never) ? t(`projectLog.kinds.${row.kind as (typeof KINDS)[number]}`) : row.kind}</td>
                <td>
                  <StateTag state={row.state} />
                </td>
                <td>{solution}</td>
                <td>{formatDuration(row.durationMs)}</td>
                <td>{row.error ?? t('common.none')}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}
