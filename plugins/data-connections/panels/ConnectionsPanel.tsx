import { useState } from 'react';
import { Button, ButtonGroup, Callout, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { CONNECTION_TYPES, type DataConnection } from '@decisio/domain';
import { Alert, BusyButton, isApiError, pageCount, Pager, useListSearch, useLocale, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { connectionsApi } from '../api';
import { useConnectionsT } from '../i18n';
import { ConnectionDialog } from './ConnectionDialog';
import { ImportsSection } from './ImportsSection';
import { TablesDialog } from './TablesDialog';

const PAGE_SIZE = 20;

/**
 * `/data-connection`: the tenant's data connections (own ones; every one for tenant admins), and
 * the caller's imports from them with their progress and a Cancel button while they run.
 */
export function ConnectionsPanel(_props: PanelProps) {
  const { t } = useConnectionsT();
  const locale = useLocale();
  const notify = useNotify();
  const [type, setType] = useState('');
  const { keyword, setKeyword, search, page, setPage } = useListSearch({ filters: [type] });
  const [dialog, setDialog] = useState<{ editing: DataConnection | null } | null>(null);
  const [browsing, setBrowsing] = useState<DataConnection | null>(null);
  const [deleting, setDeleting] = useState<DataConnection | null>(null);
  const [testing, setTesting] = useState<string | null>(null);

  const list = connectionsApi.endpoints['data-connections/page'].useQuery({ page, pageSize: PAGE_SIZE, keyword: search || undefined, type: type || undefined });
  const [remove, removal] = connectionsApi.endpoints['data-connections/delete'].useMutation();
  const [test] = connectionsApi.endpoints['data-connections/test'].useMutation();
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

  const runTest = async (c: DataConnection) => {
    setTesting(c.id);
    try {
      const r = await test({ id: c.id }).unwrap();
      notify(
        r.ok
          ? { message: t('test.ok', { ms: r.latencyMs, version: r.version ?? '' }), intent: 'success', icon: 'tick-circle' }
          : { message: t('test.failed', { error: r.error ?? '' }), intent: 'danger', icon: 'error' },
      );
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: t('test.failed', { error: isApiError(err) ? err.message : '' }), intent: 'danger', icon: 'error' });
    } finally {
      setTesting(null);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove({ id: deleting.id }).unwrap();
      notify({ message: t('deleted'), intent: 'success', icon: 'trash' });
    } catch (err) {
      notify({ message: isApiError(err) ? err.message : t('deleteFailed'), intent: 'danger', icon: 'error' });
    } finally {
      setDeleting(null);
    }
  };

  const data = list.data;
  const pages = data ? pageCount(data.total, PAGE_SIZE) : 1;

  return (
    <div className="dc-panel" style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }} data-testid="connections-panel">
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        <InputGroup
          leftIcon="search"
          placeholder={t('search')}
          aria-label={t('search')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          style={{ minWidth: 280 }}
          data-testid="connections-search"
        />
        <HTMLSelect value={type} onChange={(e) => setType(e.target.value)} aria-label={t('columns.type')}>
          <option value="">{t('allTypes')}</option>
          {CONNECTION_TYPES.map((ty) => (
            <option key={ty} value={ty}>
              {t(`types.${ty}`)}
            </option>
          ))}
        </HTMLSelect>
        <span style={{ flex: 1 }} />
        <BusyButton icon="refresh" onClick={() => void list.refetch()} loading={list.isFetching && !list.isLoading} aria-label={t('refresh')} title={t('refresh')} />
        <Button icon="add" intent="primary" onClick={() => setDialog({ editing: null })} data-testid="connections-create">
          {t('create')}
        </Button>
      </div>

      {list.isLoading && <NonIdealState icon={<Spinner size={32} />} title={t('loading')} />}
      {list.error && (
        <Callout intent="danger" icon="error" title={t('loadFailed')}>
          {isApiError(list.error) ? list.error.message : null}{' '}
          <Button minimal small onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Callout>
      )}
      {data && data.total === 0 && (
        <NonIdealState
          icon="data-connection"
          title={search || type ? t('empty.noMatch') : t('empty.title')}
          description={search || type ? undefined : t('empty.description')}
          action={
            search || type ? undefined : (
              <Button icon="add" intent="primary" onClick={() => setDialog({ editing: null })}>
                {t('create')}
              </Button>
            )
          }
        />
      )}
      {data && data.total > 0 && (
        <>
          <HTMLTable striped interactive compact style={{ width: '100%' }} data-testid="connections-table">
            <thead>
              <tr>
                <th>{t('columns.name')}</th>
                <th>{t('columns.type')}</th>
                <th>{t('columns.group')}</th>
                <th>{t('columns.url')}</th>
                <th>{t('columns.username')}</th>
                <th>{t('columns.remark')}</th>
                <th>{t('columns.creator')}</th>
                <th>{t('columns.updatedAt')}</th>
                <th>{t('columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((c) => (
                <tr key={c.id} data-testid="connection-row">
                  <td>{c.name}</td>
                  <td>
                    <Tag minimal>{t(`types.${c.type}`)}</Tag>
                  </td>
                  <td>{c.group}</td>
                  <td style={{ wordBreak: 'break-all' }}>
                    <code>{c.url}</code>
                  </td>
                  <td>{c.username}</td>
                  <td>{c.remark}</td>
                  <td>{c.creatorName ?? ''}</td>
                  <td>{date.format(new Date(c.updatedAt))}</td>
                  <td>
                    <ButtonGroup minimal>
                      <BusyButton small icon="data-connection" loading={testing === c.id} onClick={() => void runTest(c)}>
                        {t('actions.test')}
                      </BusyButton>
                      <Button small icon="th" onClick={() => setBrowsing(c)}>
                        {t('actions.browse')}
                      </Button>
                      <Button small icon="edit" onClick={() => setDialog({ editing: c })}>
                        {t('actions.edit')}
                      </Button>
                      <Button small icon="trash" intent="danger" onClick={() => setDeleting(c)}>
                        {t('actions.delete')}
                      </Button>
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

      <ImportsSection />

      {dialog && <ConnectionDialog key={dialog.editing?.id ?? 'new'} isOpen editing={dialog.editing} onClose={() => setDialog(null)} />}
      {browsing && <TablesDialog connection={browsing} onClose={() => setBrowsing(null)} />}
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
