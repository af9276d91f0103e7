import { useState, type FormEvent } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Tag, TextArea } from '@blueprintjs/core';
import type { ContactItem } from '@decisio/domain';
import { Dialog, BusyButton, isApiError, pageCount, Pager, useCurrentUser, useLocale, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { supportApi } from '../api';
import { useSupportT } from '../i18n';

const PAGE_SIZE = 20;
type Filter = 'open' | 'handled' | 'all';
const HANDLED: Record<Filter, boolean | undefined> = { open: false, handled: true, all: undefined };

/**
 * `/admin/contacts` (`contacts:read`): the public contact form's entries, newest first, open ones
 * by default, with a search; `contacts:write` marks an entry handled with an optional note.
 */
export function ContactsAdminPanel(_props: PanelProps) {
  const { t } = useSupportT();
  const locale = useLocale();
  const user = useCurrentUser();
  const perms = user.data?.permissions ?? [];
  const canRead = perms.some((p) => p === '*' || p === 'contacts:read');
  const canHandle = perms.some((p) => p === '*' || p === 'contacts:write');
  const [filter, setFilter] = useState<Filter>('open');
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [marking, setMarking] = useState<ContactItem | null>(null);
  const list = supportApi.endpoints['support/contacts'].useQuery(
    { page, pageSize: PAGE_SIZE, handled: HANDLED[filter], keyword: keyword || undefined },
    { skip: !canRead },
  );
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

  if (user.isLoading) return <NonIdealState icon={<Spinner size={32} />} title={t('contacts.loading')} />;
  if (!canRead) return <NonIdealState icon="lock" title={t('contacts.noPermission')} data-testid="contacts-no-permission" />;

  const search = (e: FormEvent) => {
    e.preventDefault();
    setKeyword(typed.trim());
    setPage(1);
  };
  const data = list.data;
  const pages = data ? pageCount(data.total, PAGE_SIZE) : 1;
  const filtered = filter !== 'all' || keyword !== '';

  return (
    <div className="dc-panel" style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }} data-testid="contacts-panel">
      <form onSubmit={search} style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <HTMLSelect value={filter} onChange={(e) => (setFilter(e.target.value as Filter), setPage(1))} aria-label={t('contacts.filter')} data-testid="contacts-filter">
          <option value="open">{t('contacts.filters.open')}</option>
          <option value="handled">{t('contacts.filters.handled')}</option>
          <option value="all">{t('contacts.filters.all')}</option>
        </HTMLSelect>
        <InputGroup leftIcon="search" placeholder={t('contacts.search')} aria-label={t('contacts.search')} value={typed} maxLength={100} onValueChange={setTyped} style={{ width: 320 }} data-testid="contacts-search" />
        <Button type="submit">{t('contacts.searchButton')}</Button>
        <span style={{ flex: 1 }} />
        <Button icon="refresh" onClick={() => void list.refetch()} aria-label={t('contacts.refresh')} title={t('contacts.refresh')} />
      </form>
      {list.isLoading && <NonIdealState icon={<Spinner size={32} />} title={t('contacts.loading')} />}
      {list.error && (
        <Callout intent="danger" icon="error" title={t('contacts.loadFailed')} data-testid="contacts-error">
          {isApiError(list.error) ? list.error.message : null}{' '}
          <Button variant="minimal" size="small" onClick={() => void list.refetch()}>
            {t('contacts.retry')}
          </Button>
        </Callout>
      )}
      {data && data.total === 0 && (
        <NonIdealState icon="inbox" title={filtered ? t('contacts.empty.noMatch') : t('contacts.empty.title')} description={filtered ? undefined : t('contacts.empty.description')} data-testid="contacts-empty" />
      )}
      {data && data.total > 0 && (
        <>
          <HTMLTable striped compact style={{ width: '100%' }} data-testid="contacts-table">
            <thead>
              <tr>
                <th>{t('contacts.columns.sent')}</th>
                <th>{t('contacts.columns.from')}</th>
                <th>{t('contacts.columns.reach')}</th>
                <th>{t('contacts.columns.message')}</th>
                <th>{t('contacts.columns.state')}</th>
                <th>{t('contacts.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <tr key={r.id} data-testid="contact-row" data-handled={r.handledAt ? 'yes' : 'no'}>
                  <td style={{ whiteSpace: 'nowrap' }}>{date.format(new Date(r.createdAt))}</td>
                  <td>
                    <div>{r.name}</div>
                    {r.company && <div className="bp6-text-muted bp6-text-small">{r.company}</div>}
                  </td>
                  <td>
                    {r.email && (
                      <div>
                        <a href={`mailto:${r.email}`}>{r.email}</a>
                      </div>
                    )}
                    {r.mobile && <div>{r.mobile}</div>}
                  </td>
                  <td style={{ maxWidth: 420 }}>
                    <div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{r.content}</div>
                  </td>
                  <td data-testid="contact-state">
                    {r.handledAt ? (
                      <>
                        <Tag intent="success" minimal>
                          {t('contacts.handled')}
                        </Tag>
                        <div className="bp6-text-muted bp6-text-small">{t('contacts.handledBy', { user: r.handledBy ?? '—', date: date.format(new Date(r.handledAt)) })}</div>
                        {r.handledNote && <div className="bp6-text-small" style={{ whiteSpace: 'pre-wrap' }}>{r.handledNote}</div>}
                      </>
                    ) : (
                      <Tag intent="warning" minimal>
                        {t('contacts.open')}
                      </Tag>
                    )}
                  </td>
                  <td>
                    {!r.handledAt && canHandle && (
                      <Button size="small" icon="tick" onClick={() => setMarking(r)} data-testid="contact-handle">
                        {t('contacts.markHandled')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager page={page} pages={pages} onPage={setPage} prevLabel={t('contacts.prev')} nextLabel={t('contacts.next')}>
            {t('contacts.pageOf', { page, pages, total: data.total })}
          </Pager>
        </>
      )}
      <HandleDialog entry={marking} onClose={() => setMarking(null)} />
    </div>
  );
}

/** Marks one entry handled, with an optional note. */
function HandleDialog(props: { entry: ContactItem | null; onClose: () => void }) {
  const { t } = useSupportT();
  const notify = useNotify();
  const [note, setNote] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [handle, handling] = supportApi.endpoints['support/handleContact'].useMutation();
  const close = () => (setNote(''), setFailure(null), props.onClose());
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!props.entry) return;
    setFailure(null);
    try {
      await handle({ id: props.entry.id, note: note.trim() }).unwrap();
      notify({ message: t('contacts.marked'), intent: 'success', icon: 'tick-circle' });
      close();
    } catch (err) {
      setFailure(isApiError(err) ? err.message : t('contacts.markFailed'));
    }
  };
  return (
    <Dialog isOpen={props.entry !== null} onClose={close} title={t('contacts.markTitle')}>
      <form onSubmit={submit} noValidate>
        <DialogBody>
          {failure && (
            <Callout intent="danger" icon="error" style={{ marginBottom: 12 }} data-testid="contact-handle-error">
              {failure}
            </Callout>
          )}
          <p>{t('contacts.markIntro', { name: props.entry?.name ?? '' })}</p>
          <FormGroup label={t('contacts.note')} labelFor="contact-note" helperText={t('contacts.noteHelp')}>
            <TextArea id="contact-note" fill rows={3} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} data-testid="contact-note" />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={close}>{t('form.cancel')}</Button>
              <BusyButton type="submit" intent="primary" icon="tick" loading={handling.isLoading} data-testid="contact-handle-confirm">
                {t('contacts.markHandled')}
              </BusyButton>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
