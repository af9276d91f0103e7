/**
 * `/project/project-log?projectId=…`: the project's log of trainings (spec platform §3 "Log":
 * project logs hold the train name, type, status, solution name and message): every scheme
 * processing, environment, policy, parameter search and deduction of every solution of the
 * project, newest first. The server pages them (`train/getAllTrainList` by `projectId`, of one
 * kind when the type filter asks), so a project of any size is read a page at a time.
 */
import { useEffect, useState } from 'react';
import { Button, Callout, HTMLSelect, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { isApiError, useLocale, useProjectLink, type PanelProps } from '@decisio/sdk-plugin';
import { projectLogApi } from '../api';
import { useProjectLogT } from '../i18n';
import { formatDuration, formatTime, StateTag } from '@decisio/sdk-plugin/trainings';

const PAGE_SIZES = [20, 50, 100] as const;
const KINDS = ['scheme', 'environment', 'policy', 'parameter', 'simulation', 'decision'] as const;

export function ProjectLogPanel(_props: PanelProps) {
  const { t } = useProjectLogT();
  const projectId = useProjectLink().params.projectId;
  if (!projectId) return <NonIdealState icon="folder-open" title={t('projectLog.noProject')} description={t('projectLog.noProjectHint')} />;
  // One log per project: another project starts on its own first page and filter, and its
  // queries' `data` never holds the previous project's rows while its own load.
  return <ProjectLog key={projectId} projectId={projectId} />;
}

function ProjectLog({ projectId }: { projectId: string }) {
  const { t } = useProjectLogT();
  const locale = useLocale();
  const [kind, setKind] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const solutions = projectLogApi.endpoints['project-log/solutions'].useQuery({ projectId });
  const list = projectLogApi.endpoints['project-log/trainings'].useQuery({ projectId, page, pageSize, ...(kind ? { kind } : {}) });
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  // Trainings deleted meanwhile: a page past the end goes to the last one.
  useEffect(() => {
    if (list.currentData && page > pages) setPage(pages);
  }, [list.currentData, page, pages]);

  const error = list.error ?? solutions.error;
  if (error)
    return (
      <Callout intent="danger" icon="error" title={t('common.loadFailed')}>
        {isApiError(error) ? error.message : t('common.loadFailed')}{' '}
        <Button minimal small onClick={() => (void solutions.refetch(), void list.refetch())} data-testid="project-log-retry">
          {t('common.retry')}
        </Button>
      </Callout>
    );
  if (!list.data) return <NonIdealState icon={<Spinner size={32} />} title={t('common.loading')} />;
  const names = new Map((solutions.data ?? []).map((s) => [s.solutionId, s.name]));
  const rows = list.data.rows;
  return (
    <div className="modelling-panel" data-testid="project-log">
      <div className="modelling-toolbar">
        <HTMLSelect
          aria-label={t('projectLog.type')}
          value={kind}
          onChange={(e) => {
            setKind(e.currentTarget.value);
            setPage(1);
          }}
          data-testid="project-log-kind"
        >
          <option value="">{t('projectLog.allTypes')}</option>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`projectLog.kinds.${k}`)}
            </option>
          ))}
        </HTMLSelect>
        {list.isFetching && <Spinner size={16} aria-label={t('common.loading')} />}
        <span className="spacer" />
        <span className="bp6-text-muted" data-testid="project-log-total">
          {t('projectLog.total', { count: total })}
        </span>
        <Button icon="refresh" aria-label={t('common.refresh')} title={t('common.refresh')} onClick={() => (void solutions.refetch(), void list.refetch())} />
      </div>
      {rows.length === 0 ? (
        kind ? (
          <NonIdealState
            icon="filter"
            title={t('projectLog.emptyKind', { kind: t(`projectLog.kinds.${kind as (typeof KINDS)[number]}`) })}
            description={t('projectLog.emptyKindHint')}
            data-testid="project-log-empty-kind"
          />
        ) : (
          <NonIdealState icon="history" title={t('projectLog.empty')} description={t('projectLog.emptyHint')} />
        )
      ) : (
        <HTMLTable compact striped style={{ width: '100%', opacity: list.isFetching ? 0.6 : 1 }} aria-busy={list.isFetching}>
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
            {rows.map((row) => (
              <tr key={`${row.kind}-${row.id}`} data-testid="project-log-row">
                <td>{formatTime(row.createdAt, locale)}</td>
                <td>
                  {row.name} <small className="bp6-text-muted">{row.code}</small>
                </td>
                <td>{KINDS.includes(row.kind as never) ? t(`projectLog.kinds.${row.kind as (typeof KINDS)[number]}`) : row.kind}</td>
                <td>
                  <StateTag state={row.state} />
                </td>
                <td>{names.get(row.solutionId ?? '') ?? t('common.none')}</td>
                <td>{formatDuration(row.durationMs)}</td>
                <td>{row.error ?? t('common.none')}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {total > 0 && (
        <nav className="modelling-toolbar" aria-label={t('projectLog.pager')}>
          <Button icon="chevron-left" text={t('projectLog.previous')} disabled={page <= 1 || list.isFetching} onClick={() => setPage(page - 1)} data-testid="project-log-prev" />
          <span data-testid="project-log-page">{t('projectLog.pageOf', { page: Math.min(page, pages), pages })}</span>
          <Button rightIcon="chevron-right" text={t('projectLog.next')} disabled={page >= pages || list.isFetching} onClick={() => setPage(page + 1)} data-testid="project-log-next" />
          <span className="spacer" />
          <HTMLSelect
            aria-label={t('projectLog.pageSize')}
            value={pageSize}
            onChange={(e) => {
              setPageSize(Number(e.currentTarget.value));
              setPage(1);
            }}
            data-testid="project-log-page-size"
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {t('projectLog.perPage', { count: n })}
              </option>
            ))}
          </HTMLSelect>
        </nav>
      )}
    </div>
  );
}
