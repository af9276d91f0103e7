import { useEffect, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, Card, Classes, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { MessageItem } from '@decisio/domain';
import { Alert, isApiError, pageCount, Pager, useLocale, useNavigate, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { messagesApi } from '../api';
import { useMessagesT } from '../i18n';
import { wordingOf } from '../model/wording';

const PAGE_SIZE = 20;

/** `/user-center/message`: the user's messages, newest first; read, open, delete. */
export function MessagesPanel(_props: PanelProps) {
  const { t } = useMessagesT();
  const locale = useLocale();
  const notify = useNotify();
  const navigate = useNavigate();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<MessageItem | 'all' | null>(null);
  const list = messagesApi.endpoints['messages/list'].useQuery({ page, pageSize: PAGE_SIZE, unread: unreadOnly || undefined });
  const [read] = messagesApi.endpoints['messages/read'].useMutation();
  const [remove] = messagesApi.endpoints['messages/delete'].useMutation();
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  // After a delete, the focus (left on the page by the removed row's button) goes to the next
  // row, else the previous one, else the empty state (or the list), once the list shows the
  // deletion; unless the user put it somewhere meanwhile.
  const afterDelete = useRef<{ gone: string[]; candidates: string[] } | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const emptyRef = useRef<HTMLDivElement>(null);

  const fail = (err: unknown) => {
    if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) ? err.message : t('failed'), intent: 'danger', icon: 'error' });
  };
  const markRead = (body: { ids: string[] } | { all: true }) => read(body).unwrap().catch(fail);
  const open = async (m: MessageItem) => {
    if (!m.readAt) await markRead({ ids: [m.id] });
    const to = wordingOf(m).to;
    if (to) navigate(to);
  };
  const confirmDelete = async () => {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    const rows = list.data?.rows ?? [];
    if (target === 'all') afterDelete.current = { gone: rows.map((r) => r.id), candidates: [] };
    else {
      const at = rows.findIndex((r) => r.id === target.id);
      afterDelete.current = { gone: [target.id], candidates: [rows[at + 1]?.id, rows[at - 1]?.id].filter((id): id is string => !!id) };
    }
    try {
      await remove(target === 'all' ? { all: true } : { ids: [target.id] }).unwrap();
      notify({ message: t('deleted'), intent: 'success', icon: 'trash' });
    } catch (err) {
      afterDelete.current = null;
      fail(err);
    }
  };
  const data = list.data;
  /** Where the focus goes after the delete `pending`: the next row, else the previous one, else the empty state (or the list). */
  const focusAfter = (pending: { candidates: string[] }): HTMLElement | null => {
    const rows = [...(listRef.current?.querySelectorAll<HTMLElement>('[data-message-id]') ?? [])];
    const row = pending.candidates.map((id) => rows.find((r) => r.dataset['messageId'] === id)).find(Boolean);
    return row ?? emptyRef.current ?? listRef.current;
  };
  // The confirmation gives the focus back to the delete button once it has faded: when the list
  // showed the deletion before that, the button is gone (Delete all disabled), and the SDK Alert
  // gives the focus to this instead.
  const focusBackFallback = () => {
    const pending = afterDelete.current;
    afterDelete.current = null;
    return pending ? focusAfter(pending) : null;
  };
  useEffect(() => {
    const pending = afterDelete.current;
    if (!pending || !data || data.rows.some((r) => pending.gone.includes(r.id))) return;
    const active = document.activeElement;
    // Still in the confirmation, fading: its focus return goes to focusBackFallback.
    if (active?.closest(`.${Classes.OVERLAY}:not(.${Classes.OVERLAY_OPEN})`)) return;
    afterDelete.current = null;
    // Shown after the confirmation had gone: the focus it gave back went with the removed row.
    if (!active || active === document.body || !active.isConnected) focusAfter(pending)?.focus();
  }, [data]);
  const pages = data ? pageCount(data.total, PAGE_SIZE) : 1;

  return (
    <div className="dc-panel" style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }} data-testid="messages-panel">
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <ButtonGroup>
          <Button active={!unreadOnly} onClick={() => (setUnreadOnly(false), setPage(1))} data-testid="messages-filter-all">
            {t('filter.all')}
          </Button>
          <Button active={unreadOnly} onClick={() => (setUnreadOnly(true), setPage(1))} data-testid="messages-filter-unread">
            {t('filter.unread')}
          </Button>
        </ButtonGroup>
        <span style={{ flex: 1 }} />
        <Button icon="refresh" onClick={() => void list.refetch()} aria-label={t('refresh')} title={t('refresh')} />
        <Button icon="tick" onClick={() => void markRead({ all: true })} disabled={!data || data.total === 0} data-testid="messages-read-all">
          {t('markAllRead')}
        </Button>
        <Button icon="trash" intent="danger" variant="outlined" onClick={() => setDeleting('all')} disabled={!data || data.total === 0}>
          {t('deleteAll')}
        </Button>
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
        <div ref={emptyRef} tabIndex={-1} data-testid="messages-empty">
          <NonIdealState icon="notifications" title={unreadOnly ? t('empty.unread') : t('empty.title')} description={unreadOnly ? undefined : t('empty.description')} />
        </div>
      )}
      {data && data.total > 0 && (
        <>
          <ul ref={listRef} tabIndex={-1} style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8 }} data-testid="messages-list">
            {data.rows.map((m) => {
              const w = wordingOf(m);
              return (
                <li key={m.id} tabIndex={-1} data-message-id={m.id}>
                  <Card compact style={{ display: 'flex', gap: 12, alignItems: 'center' }} data-testid="message-row" data-kind={m.kind} data-read={m.readAt ? 'true' : 'false'}>
                    {!m.readAt && (
                      <Tag intent="primary" minimal>
                        {t('unreadTag')}
                      </Tag>
                    )}
                    <div style={{ flex: 1, minWidth: 0 }}>
                      <div style={{ fontWeight: m.readAt ? 400 : 600 }}>{t(w.key as 'kinds.unknown', w.params)}</div>
                      <div className="bp6-text-muted bp6-text-small">{date.format(new Date(m.createdAt))}</div>
                    </div>
                    {w.to && (
                      <Button size="small" icon="arrow-right" onClick={() => void open(m)} data-testid="message-open">
                        {t('open')}
                      </Button>
                    )}
                    {!m.readAt && (
                      <Button size="small" variant="minimal" icon="tick" aria-label={t('markRead')} title={t('markRead')} onClick={() => void markRead({ ids: [m.id] })} data-testid="message-read" />
                    )}
                    <Button size="small" variant="minimal" icon="trash" aria-label={t('delete')} title={t('delete')} onClick={() => setDeleting(m)} />
                  </Card>
                </li>
              );
            })}
          </ul>
          <Pager page={page} pages={pages} onPage={setPage} prevLabel={t('prev')} nextLabel={t('next')}>
            {t('pageOf', { page, pages, total: data.total })}
          </Pager>
        </>
      )}
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('delete')}
        cancelButtonText={t('cancel')}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
        focusBackFallback={focusBackFallback}
        canEscapeKeyCancel
      >
        {deleting === 'all' ? t('deleteAllConfirm') : t('deleteConfirm')}
      </Alert>
    </div>
  );
}
