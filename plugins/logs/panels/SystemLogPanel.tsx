import { useMemo, useState } from 'react';
import { AnchorButton, Button, Callout, Checkbox, Classes, DialogBody, DialogFooter, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { LOG_LIMITS, LOG_RESULTS, LOG_TYPES, type LogFilter, type LogItem } from '@decisio/domain';
import { NumericInput, Alert, Dialog, BusyButton, isApiError, pageCount, Pager, useCurrentUser, useDebounced, useLocale, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { exportUrl, logsApi } from '../api';
import { useLogsT } from '../i18n';

const PAGE_SIZE = 20;

/** What the filter bar holds (text as typed; dates as `datetime-local` values). */
interface FilterForm {
  username: string;
  module: string;
  call: string;
  result: string;
  type: string;
  from: string;
  to: string;
}

const EMPTY: FilterForm = { username: '', module: '', call: '', result: '', type: '', from: '', to: '' };

/** A `datetime-local` value (local time) as ISO 8601 with offset, or undefined. */
function isoOf(local: string): string | undefined {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** The filter the server gets: trimmed, empty values left out, the module kept only when well formed. */
export function filterOf(form: FilterForm): LogFilter {
  const text = (s: string) => s.trim() || undefined;
  const module = form.module.trim();
  return {
    username: text(form.username),
    module: /^[A-Za-z0-9_-]{1,64}$/.test(module) ? module : undefined,
    call: text(form.call),
    result: (form.result || undefined) as LogFilter['result'],
    type: (form.type || undefined) as LogFilter['type'],
    from: isoOf(form.from),
    to: isoOf(form.to),
  };
}

/**
 * `/system-log`: the system log of the caller's tenant (every tenant for system roles), newest
 * first, with filters, row details, a CSV export of what the filters keep, and for holders of
 * `logs:write` the deletion of selected rows; system roles also set the retention.
 */
export function SystemLogPanel(_props: PanelProps) {
  const { t } = useLogsT();
  const locale = useLocale();
  const notify = useNotify();
  const me = useCurrentUser().data;
  const canWrite = Boolean((me as { permissions?: readonly string[] } | undefined)?.permissions?.some((p) => p === '*' || p === 'logs:write'));
  const isSystem = Boolean(me?.isSystemRole);

  const [form, setForm] = useState<FilterForm>(EMPTY);
  const filter = useDebounced(useMemo(() => filterOf(form), [form]), 300);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [details, setDetails] = useState<LogItem | null>(null);
  const [confirming, setConfirming] = useState(false);

  const list = logsApi.endpoints['logs/page'].useQuery({ ...filter, page, pageSize: PAGE_SIZE });
  const [remove, removal] = logsApi.endpoints['logs/delete'].useMutation();
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });

  const set = (key: keyof FilterForm) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setPage(1);
    setSelected(new Set());
  };
  const filtered = Object.values(form).some((v) => v !== '');
  const data = list.data;
  const pages = data ? pageCount(data.total, PAGE_SIZE) : 1;
  const rows = data?.rows ?? [];
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const confirmDelete = async () => {
    const ids = [...selected].slice(0, LOG_LIMITS.deleteIds);
    try {
      const r = await remove({ ids }).unwrap();
      notify({ message: t('deleted', { count: r.deleted }), intent: 'success', icon: 'trash' });
      setSelected(new Set());
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) ? err.message : t('deleteFailed'), intent: 'danger', icon: 'error' });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <div style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }} data-testid="system-log-panel">
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }} role="search">
        <InputGroup leftIcon="person" placeholder={t('filters.username')} aria-label={t('filters.username')} value={form.username} onChange={(e) => set('username')(e.target.value)} data-testid="log-filter-username" />
        <InputGroup leftIcon="cube" placeholder={t('filters.module')} aria-label={t('filters.module')} value={form.module} onChange={(e) => set('module')(e.target.value)} style={{ width: 140 }} data-testid="log-filter-module" />
        <InputGroup leftIcon="exchange" placeholder={t('filters.call')} aria-label={t('filters.call')} value={form.call} onChange={(e) => set('call')(e.target.value)} data-testid="log-filter-call" />
        <HTMLSelect value={form.result} onChange={(e) => set('result')(e.target.value)} aria-label={t('filters.result')} data-testid="log-filter-result">
          <option value="">{t('filters.allResults')}</option>
          {LOG_RESULTS.map((r) => (
            <option key={r} value={r}>
              {t(`results.${r}`)}
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect value={form.type} onChange={(e) => set('type')(e.target.value)} aria-label={t('filters.type')} data-testid="log-filter-type">
          <option value="">{t('filters.allTypes')}</option>
          {LOG_TYPES.map((ty) => (
            <option key={ty} value={ty}>
              {t(`types.${ty}`)}
            </option>
          ))}
        </HTMLSelect>
        <label className={Classes.TEXT_MUTED} style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
          {t('filters.from')}
          <input className={Classes.INPUT} type="datetime-local" value={form.from} onChange={(e) => set('from')(e.target.value)} aria-label={t('filters.from')} data-testid="log-filter-from" />
        </label>
        <label className={Classes.TEXT_MUTED} style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
          {t('filters.to')}
          <input className={Classes.INPUT} type="datetime-local" value={form.to} onChange={(e) => set('to')(e.target.value)} aria-label={t('filters.to')} data-testid="log-filter-to" />
        </label>
        {filtered && (
          <Button variant="minimal" icon="filter-remove" onClick={() => (setForm(EMPTY), setPage(1))}>
            {t('filters.clear')}
          </Button>
        )}
        <span style={{ flex: 1 }} />
        <BusyButton icon="refresh" onClick={() => void list.refetch()} loading={list.isFetching && !list.isLoading} aria-label={t('refresh')} title={t('refresh')} />
        <AnchorButton icon="download" href={exportUrl(filter)} download data-testid="log-export">
          {t('export')}
        </AnchorButton>
        {canWrite && (
          <Button icon="trash" intent="danger" disabled={selected.size === 0} onClick={() => setConfirming(true)} data-testid="log-delete-selected">
            {t('deleteSelected', { count: selected.size })}
          </Button>
        )}
      </div>
      {isSystem && <RetentionSetting />}

      {list.isLoading && <NonIdealState icon={<Spinner size={32} />} title={t('loading')} />}
      {list.error && (
        <Callout intent="danger" icon="error" title={t('loadFailed')}>
          {isApiError(list.error) ? list.error.message : null}{' '}
          <Button variant="minimal" size="small" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Callout>
      )}
      {data && data.total === 0 && <NonIdealState icon="history" title={filtered ? t('empty.noMatch') : t('empty.title')} />}
      {data && data.total > 0 && (
        <>
          <HTMLTable striped interactive compact style={{ width: '100%' }} data-testid="log-table">
            <thead>
              <tr>
                {canWrite && (
                  <th style={{ width: 32 }}>
                    <Checkbox
                      checked={allSelected}
                      aria-label={t('selectPage')}
                      onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id)))}
                      style={{ margin: 0 }}
                    />
                  </th>
                )}
                <th>{t('columns.time')}</th>
                <th>{t('columns.user')}</th>
                <th>{t('columns.type')}</th>
                <th>{t('columns.call')}</th>
                <th>{t('columns.method')}</th>
                <th>{t('columns.result')}</th>
                <th>{t('columns.duration')}</th>
                <th>{t('columns.ip')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={r.id}
                  data-testid="log-row"
                  tabIndex={0}
                  onClick={() => setDetails(r)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') setDetails(r);
                  }}
                >
                  {canWrite && (
                    <td onClick={(e) => e.stopPropagation()}>
                      <Checkbox checked={selected.has(r.id)} aria-label={t('select', { title: r.title })} onChange={() => toggle(r.id)} style={{ margin: 0 }} />
                    </td>
                  )}
                  <td style={{ whiteSpace: 'nowrap' }}>{date.format(new Date(r.createdAt))}</td>
                  <td>{r.username ?? t('anonymous')}</td>
                  <td>
                    <Tag minimal intent={r.type === 'error' ? 'danger' : r.type === 'job' ? 'primary' : 'none'}>
                      {t(`types.${r.type}`)}
                    </Tag>
                  </td>
                  <td>
                    <code>{r.title}</code>
                  </td>
                  <td>{r.method}</td>
                  <td>
                    <Tag minimal intent={r.responseCode === 0 ? 'success' : 'danger'} title={t('code', { code: r.responseCode })}>
                      {r.responseCode === 0 ? t('results.success') : `${t('results.failure')} · ${r.responseCode}`}
                    </Tag>
                  </td>
                  <td>{t('duration', { ms: r.timeMs })}</td>
                  <td>{r.ip ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager small page={page} pages={pages} onPage={setPage} prevLabel={t('prev')} nextLabel={t('next')}>
            {t('page', { page, pages, total: data.total })}
          </Pager>
        </>
      )}

      <Dialog isOpen={details !== null} onClose={() => setDetails(null)} title={t('details.title')} icon="history" style={{ width: 720 }}>
        {details && (
          <DialogBody>
            <HTMLTable compact style={{ width: '100%' }} data-testid="log-details">
              <tbody>
                <tr>
                  <th>{t('columns.call')}</th>
                  <td>
                    <code>{details.title}</code>
                  </td>
                </tr>
                <tr>
                  <th>{t('details.uri')}</th>
                  <td>
                    <code>
                      {details.method} {details.uri}
                    </code>
                  </td>
                </tr>
                <tr>
                  <th>{t('columns.result')}</th>
                  <td>{t('code', { code: details.responseCode })} · HTTP {details.httpStatus}</td>
                </tr>
                <tr>
                  <th>{t('details.host')}</th>
                  <td>{details.host ?? ''}</td>
                </tr>
                <tr>
                  <th>{t('details.requestId')}</th>
                  <td>
                    <code>{details.requestId}</code>
                  </td>
                </tr>
                <tr>
                  <th>{t('details.tenant')}</th>
                  <td>
                    <code>{details.tenantId ?? ''}</code>
                  </td>
                </tr>
                <tr>
                  <th>{t('details.userAgent')}</th>
                  <td style={{ wordBreak: 'break-all' }}>{details.userAgent ?? ''}</td>
                </tr>
              </tbody>
            </HTMLTable>
            <h4 className={Classes.HEADING}>{t('details.params')}</h4>
            <pre className={Classes.CODE_BLOCK} style={{ maxHeight: 300, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="log-params">
              {details.params ? pretty(details.params) : t('details.none')}
            </pre>
          </DialogBody>
        )}
        <DialogFooter actions={<Button onClick={() => setDetails(null)}>{t('details.close')}</Button>} />
      </Dialog>
      <Alert
        isOpen={confirming}
        intent="danger"
        icon="trash"
        loading={removal.isLoading}
        confirmButtonText={t('delete')}
        cancelButtonText={t('cancel')}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
        canEscapeKeyCancel
      >
        {t('deleteConfirm', { count: selected.size })}
      </Alert>
    </div>
  );
}

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

/** The retention in days (system roles): rows older than it are removed by the log-retention job. */
function RetentionSetting() {
  const { t } = useLogsT();
  const notify = useNotify();
  const current = logsApi.endpoints['logs/getRetention'].useQuery();
  const [save, saving] = logsApi.endpoints['logs/setRetention'].useMutation();
  const [days, setDays] = useState<number | null>(null);
  const value = days ?? current.data?.days ?? LOG_LIMITS.retentionDefaultDays;
  const submit = async () => {
    try {
      const r = await save({ days: value }).unwrap();
      setDays(null);
      notify({ message: t('retention.saved', { days: r.days }), intent: 'success', icon: 'tick' });
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) ? err.message : t('retention.failed'), intent: 'danger', icon: 'error' });
    }
  };
  return (
    <form
      style={{ display: 'flex', alignItems: 'center', gap: 8 }}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="log-retention"
    >
      <label htmlFor="log-retention-days">{t('retention.label')}</label>
      <NumericInput
        id="log-retention-days"
        min={LOG_LIMITS.retentionMinDays}
        max={LOG_LIMITS.retentionMaxDays}
        value={value}
        onValueChange={(n) => setDays(Number.isFinite(n) ? Math.round(n) : null)}
        style={{ width: 90 }}
        disabled={current.isLoading}
      />
      <span>{t('retention.days')}</span>
      <BusyButton type="submit" loading={saving.isLoading} disabled={days === null || days === current.data?.days}>
        {t('retention.save')}
      </BusyButton>
      <span className={Classes.TEXT_MUTED}>{t('retention.help')}</span>
    </form>
  );
}
