import { useState } from 'react';
import { Button, ButtonGroup, Callout, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { SCHEDULE_KIND_NAMES, type ScheduleItem, type ScheduleKind } from '@decisio/domain';
import { Alert, BusyButton, isApiError, pageCount, Pager, useCurrentUser, useListSearch, useLocale, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { jobsApi } from '../api';
import { useJobsT } from '../i18n';
import { HistorySection } from './HistorySection';
import { JobDialog } from './JobDialog';

const PAGE_SIZE = 20;

/**
 * `/job`: the tenant's scheduled jobs with their next and last run, edit, run once, pause,
 * resume and delete (holders of `jobs:write`; host-wide kinds only system roles), and the job
 * history below.
 */
export function JobsPanel(_props: PanelProps) {
  const { t } = useJobsT();
  const locale = useLocale();
  const notify = useNotify();
  const me = useCurrentUser().data;
  const canWrite = Boolean((me as { permissions?: readonly string[] } | undefined)?.permissions?.some((p) => p === '*' || p === 'jobs:write'));
  const mayChange = (s: ScheduleItem) => canWrite && (!s.hostWide || Boolean(me?.isSystemRole));

  const [status, setStatus] = useState('');
  const [kind, setKind] = useState('');
  const { keyword, setKeyword, search, page, setPage } = useListSearch({ filters: [status, kind] });
  const [dialog, setDialog] = useState<{ editing: ScheduleItem | null } | null>(null);
  const [deleting, setDeleting] = useState<ScheduleItem | null>(null);
  const [historyOf, setHistoryOf] = useState<ScheduleItem | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const list = jobsApi.endpoints['jobs/page'].useQuery({ page, pageSize: PAGE_SIZE, keyword: search || undefined, status: (status || undefined) as 'running' | undefined, kind: (kind || undefined) as ScheduleKind | undefined }, { pollingInterval: 10_000 });
  const [trigger] = jobsApi.endpoints['jobs/trigger'].useMutation();
  const [pause] = jobsApi.endpoints['jobs/pause'].useMutation();
  const [resume] = jobsApi.endpoints['jobs/resume'].useMutation();
  const [remove, removal] = jobsApi.endpoints['jobs/delete'].useMutation();
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });

  const act = async (s: ScheduleItem, action: 'trigger' | 'pause' | 'resume') => {
    setBusy(`${action}:${s.id}`);
    try {
      if (action === 'trigger') {
        await trigger({ id: s.id }).unwrap();
        setHistoryOf(s);
        notify({ message: t('triggered', { name: s.name }), intent: 'success', icon: 'play' });
      } else if (action === 'pause') {
        await pause({ id: s.id }).unwrap();
        notify({ message: t('paused', { name: s.name }), intent: 'success', icon: 'pause' });
      } else {
        await resume({ id: s.id }).unwrap();
        notify({ message: t('resumed', { name: s.name }), intent: 'success', icon: 'play' });
      }
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) ? err.message : t('actionFailed'), intent: 'danger', icon: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove({ id: deleting.id }).unwrap();
      if (historyOf?.id === deleting.id) setHistoryOf(null);
      notify({ message: t('deleted', { name: deleting.name }), intent: 'success', icon: 'trash' });
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) ? err.message : t('actionFailed'), intent: 'danger', icon: 'error' });
    } finally {
      setDeleting(null);
    }
  };

  const data = list.data;
  const pages = data ? pageCount(data.total, PAGE_SIZE) : 1;
  const filtered = Boolean(search || status || kind);

  return (
    <div style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }} data-testid="jobs-panel">
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        <InputGroup leftIcon="search" placeholder={t('search')} aria-label={t('search')} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ minWidth: 240 }} />
        <HTMLSelect value={status} onChange={(e) => setStatus(e.target.value)} aria-label={t('columns.status')}>
          <option value="">{t('allStatuses')}</option>
          {(['running', 'paused', 'waiting'] as const).map((s) => (
            <option key={s} value={s}>
              {t(`statuses.${s}`)}
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect value={kind} onChange={(e) => setKind(e.target.value)} aria-label={t('columns.kind')}>
          <option value="">{t('allKinds')}</option>
          {SCHEDULE_KIND_NAMES.map((k) => (
            <option key={k} value={k}>
              {t(`kinds.${k}`)}
            </option>
          ))}
        </HTMLSelect>
        <span style={{ flex: 1 }} />
        <BusyButton icon="refresh" onClick={() => void list.refetch()} loading={list.isFetching && !list.isLoading} aria-label={t('refresh')} title={t('refresh')} />
        {canWrite && (
          <Button icon="add" intent="primary" onClick={() => setDialog({ editing: null })} data-testid="jobs-create">
            {t('create')}
          </Button>
        )}
      </div>

      {list.isLoading && <NonIdealState icon={<Spinner size={32} />} title={t('loading')} />}
      {list.error && (
        <Callout intent="danger" icon="error" title={t('loadFailed')}>
          {isApiError(list.error) ? list.error.message : null}{' '}
          <Button variant="minimal" size="small" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Callout>
      )}
      {data && data.total === 0 && (
        <NonIdealState
          icon="time"
          title={filtered ? t('empty.noMatch') : t('empty.title')}
          description={filtered ? undefined : t('empty.description')}
          action={
            filtered || !canWrite ? undefined : (
              <Button icon="add" intent="primary" onClick={() => setDialog({ editing: null })}>
                {t('create')}
              </Button>
            )
          }
        />
      )}
      {data && data.total > 0 && (
        <>
          <HTMLTable striped compact style={{ width: '100%' }} data-testid="jobs-table">
            <thead>
              <tr>
                <th>{t('columns.name')}</th>
                <th>{t('columns.kind')}</th>
                <th>{t('columns.cron')}</th>
                <th>{t('columns.status')}</th>
                <th>{t('columns.nextRun')}</th>
                <th>{t('columns.lastRun')}</th>
                <th>{t('columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((s) => (
                <tr key={s.id} data-testid="job-row">
                  <td title={s.description}>{s.name}</td>
                  <td>
                    {t(`kinds.${s.kind}`)}{' '}
                    {s.hostWide && (
                      <Tag minimal icon="globe">
                        {t('hostWide')}
                      </Tag>
                    )}
                  </td>
                  <td>
                    <code>{s.cron}</code> <small>{s.timezone}</small>
                  </td>
                  <td>
                    <Tag minimal intent={s.status === 'paused' ? 'warning' : s.status === 'running' ? 'success' : 'none'} data-testid="job-status">
                      {t(`statuses.${s.status}`)}
                    </Tag>
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>{s.nextRunAt ? date.format(new Date(s.nextRunAt)) : '—'}</td>
                  <td style={{ whiteSpace: 'nowrap' }}>{s.lastRunAt ? date.format(new Date(s.lastRunAt)) : t('never')}</td>
                  <td>
                    <ButtonGroup variant="minimal" style={{ flexWrap: 'wrap' }}>
                      <Button size="small" icon="history" onClick={() => setHistoryOf(s)}>
                        {t('actions.history')}
                      </Button>
                      {mayChange(s) && (
                        <>
                          <BusyButton size="small" icon="play" loading={busy === `trigger:${s.id}`} onClick={() => void act(s, 'trigger')}>
                            {t('actions.trigger')}
                          </BusyButton>
                          {s.status === 'paused' ? (
                            <BusyButton size="small" icon="play" loading={busy === `resume:${s.id}`} onClick={() => void act(s, 'resume')}>
                              {t('actions.resume')}
                            </BusyButton>
                          ) : (
                            <BusyButton size="small" icon="pause" loading={busy === `pause:${s.id}`} onClick={() => void act(s, 'pause')}>
                              {t('actions.pause')}
                            </BusyButton>
                          )}
                          <Button size="small" icon="edit" onClick={() => setDialog({ editing: s })}>
                            {t('actions.edit')}
                          </Button>
                          <Button size="small" icon="trash" intent="danger" onClick={() => setDeleting(s)}>
                            {t('actions.delete')}
                          </Button>
                        </>
                      )}
                    </ButtonGroup>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager small page={page} pages={pages} onPage={setPage} prevLabel={t('prev')} nextLabel={t('next')}>
            {t('page', { page, pages, total: data.total })}
          </Pager>
        </>
      )}

      <HistorySection schedule={historyOf} onShowAll={() => setHistoryOf(null)} />

      {dialog && <JobDialog key={dialog.editing?.id ?? 'new'} editing={dialog.editing} onClose={() => setDialog(null)} />}
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        loading={removal.isLoading}
        confirmButtonText={t('actions.delete')}
        cancelButtonText={t('form.cancel')}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
        canEscapeKeyCancel
      >
        {deleting ? t('deleteConfirm', { name: deleting.name }) : null}
      </Alert>
    </div>
  );
}
