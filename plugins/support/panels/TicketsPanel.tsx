import { useState } from 'react';
import { Button, ButtonGroup, Callout, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { WORK_ORDER_STATUSES, type WorkOrderItem, type WorkOrderStatus } from '@decisio/domain';
import { Alert, isApiError, pageCount, Pager, useCurrentUser, useLocale, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { supportApi } from '../api';
import { useSupportT } from '../i18n';
import { CreateTicketDialog, ReplyDialog } from './TicketDialogs';

const PAGE_SIZE = 20;

/**
 * `/support`: the caller's tickets with their answers; administrators (`support:write`) switch
 * to every ticket of the tenant and answer them.
 */
export function TicketsPanel(_props: PanelProps) {
  const { t } = useSupportT();
  const locale = useLocale();
  const notify = useNotify();
  const user = useCurrentUser();
  const canAnswer = !!user.data?.permissions?.some((p) => p === '*' || p === 'support:write');
  const [scope, setScope] = useState<'mine' | 'all'>('mine');
  const [status, setStatus] = useState<WorkOrderStatus | ''>('');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [answering, setAnswering] = useState<WorkOrderItem | null>(null);
  const [deleting, setDeleting] = useState<WorkOrderItem | null>(null);
  const list = supportApi.endpoints['support/list'].useQuery({ page, pageSize: PAGE_SIZE, scope, status: status || undefined });
  const [remove] = supportApi.endpoints['support/delete'].useMutation();
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

  const confirmDelete = async () => {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    try {
      await remove({ id: target.id }).unwrap();
      notify({ message: t('tickets.deleted'), intent: 'success', icon: 'trash' });
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) ? err.message : t('form.failed'), intent: 'danger', icon: 'error' });
    }
  };
  const data = list.data;
  const pages = data ? pageCount(data.total, PAGE_SIZE) : 1;

  return (
    <div className="dc-panel" style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }} data-testid="tickets-panel">
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        {canAnswer && (
          <ButtonGroup>
            <Button active={scope === 'mine'} onClick={() => (setScope('mine'), setPage(1))} data-testid="tickets-mine">
              {t('tickets.mine')}
            </Button>
            <Button active={scope === 'all'} onClick={() => (setScope('all'), setPage(1))} data-testid="tickets-all">
              {t('tickets.all')}
            </Button>
          </ButtonGroup>
        )}
        <HTMLSelect value={status} onChange={(e) => (setStatus(e.target.value as WorkOrderStatus | ''), setPage(1))} aria-label={t('tickets.columns.status')}>
          <option value="">{t('tickets.status.all')}</option>
          {WORK_ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`tickets.status.${s}`)}
            </option>
          ))}
        </HTMLSelect>
        <span style={{ flex: 1 }} />
        <Button icon="refresh" onClick={() => void list.refetch()} aria-label={t('tickets.refresh')} title={t('tickets.refresh')} />
        <Button icon="add" intent="primary" onClick={() => setCreating(true)} data-testid="tickets-create">
          {t('tickets.create')}
        </Button>
      </div>
      {list.isLoading && <NonIdealState icon={<Spinner size={32} />} title={t('tickets.loading')} />}
      {list.error && (
        <Callout intent="danger" icon="error" title={t('tickets.loadFailed')}>
          {isApiError(list.error) ? list.error.message : null}{' '}
          <Button variant="minimal" size="small" onClick={() => void list.refetch()}>
            {t('tickets.retry')}
          </Button>
        </Callout>
      )}
      {data && data.total === 0 && (
        <NonIdealState
          icon="help"
          title={status ? t('tickets.empty.noMatch') : t('tickets.empty.title')}
          description={status ? undefined : t('tickets.empty.description')}
          action={
            status ? undefined : (
              <Button icon="add" intent="primary" onClick={() => setCreating(true)}>
                {t('tickets.create')}
              </Button>
            )
          }
        />
      )}
      {data && data.total > 0 && (
        <>
          <HTMLTable striped compact style={{ width: '100%' }} data-testid="tickets-table">
            <thead>
              <tr>
                <th>{t('tickets.columns.type')}</th>
                <th>{t('tickets.columns.description')}</th>
                <th>{t('tickets.columns.status')}</th>
                <th>{t('tickets.columns.submitted')}</th>
                {scope === 'all' && <th>{t('tickets.columns.user')}</th>}
                <th>{t('tickets.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <tr key={r.id} data-testid="ticket-row" data-status={r.status}>
                  <td>{t(`tickets.types.${r.type}`)}</td>
                  <td style={{ maxWidth: 480 }}>
                    <div style={{ whiteSpace: 'pre-wrap' }}>{r.description}</div>
                    <div className={r.reply ? undefined : 'bp6-text-muted'} style={{ marginTop: 4 }} data-testid="ticket-answer">
                      {r.reply ? t('tickets.answer', { text: r.reply }) : t('tickets.noAnswer')}
                    </div>
                  </td>
                  <td>
                    <Tag intent={r.status === 'replied' ? 'success' : 'none'} minimal>
                      {t(`tickets.status.${r.status}`)}
                    </Tag>
                  </td>
                  <td>{date.format(new Date(r.createdAt))}</td>
                  {scope === 'all' && <td>{r.username}</td>}
                  <td>
                    {scope === 'all' && r.status === 'submitted' && (
                      <Button size="small" icon="comment" onClick={() => setAnswering(r)} data-testid="ticket-reply">
                        {t('tickets.reply')}
                      </Button>
                    )}
                    {scope === 'mine' && (
                      <Button size="small" variant="minimal" icon="trash" aria-label={t('tickets.delete')} title={t('tickets.delete')} onClick={() => setDeleting(r)} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager page={page} pages={pages} onPage={setPage} prevLabel={t('tickets.prev')} nextLabel={t('tickets.next')}>
            {t('tickets.pageOf', { page, pages, total: data.total })}
          </Pager>
        </>
      )}
      <CreateTicketDialog isOpen={creating} onClose={() => setCreating(false)} />
      <ReplyDialog ticket={answering} onClose={() => setAnswering(null)} />
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('tickets.delete')}
        cancelButtonText={t('form.cancel')}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
        canEscapeKeyCancel
      >
        {t('tickets.deleteConfirm')}
      </Alert>
    </div>
  );
}
