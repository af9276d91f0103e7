import { useState } from 'react';
import { Callout, HTMLTable, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { pageCount, Pager, useLocale, type PanelProps } from '@decisio/sdk-plugin';
import { userCentreApi } from '../api';
import { useUserCentreT } from '../i18n';
import { Page, QueryState } from './shared';

const PAGE_SIZE = 20;
const STATUS_INTENT = { pending: 'none', sent: 'success', failed: 'danger', logged: 'warning' } as const;

/** `/user-center/outbox` (administrators): every e-mail and SMS sent, newest first. */
export function OutboxPanel(_props: PanelProps) {
  const { t } = useUserCentreT();
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const [recipient, setRecipient] = useState('');
  const list = userCentreApi.endpoints['user-centre/outbox'].useQuery({ page, pageSize: PAGE_SIZE, recipient: recipient.trim() || undefined }, { pollingInterval: 5000 });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
  const data = list.data;
  return (
    <Page testId="user-centre-outbox">
      <Callout icon="envelope">
        <p>{t('outbox.intro')}</p>
        {data && <p data-testid="outbox-transports">{t('outbox.transports', { email: data.transports.email ?? t('outbox.none'), sms: data.transports.sms ?? t('outbox.none') })}</p>}
      </Callout>
      <InputGroup leftIcon="search" placeholder={t('outbox.filter')} value={recipient} onValueChange={(v) => (setRecipient(v), setPage(1))} style={{ maxWidth: 320 }} data-testid="outbox-filter" />
      {!data ? (
        <QueryState loading={list.isLoading} error={list.error} retry={() => void list.refetch()} />
      ) : data.rows.length === 0 ? (
        <NonIdealState icon="inbox" title={t('outbox.empty')} />
      ) : (
        <>
          <HTMLTable compact striped style={{ width: '100%' }} data-testid="outbox-table">
            <thead>
              <tr>
                <th>{t('outbox.time')}</th>
                <th>{t('outbox.recipient')}</th>
                <th>{t('outbox.channel')}</th>
                <th>{t('outbox.status')}</th>
                <th>{t('outbox.message')}</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((m) => (
                <tr key={m.id} data-testid="outbox-row">
                  <td style={{ whiteSpace: 'nowrap' }}>{date.format(new Date(m.createdAt))}</td>
                  <td>{m.recipient}</td>
                  <td>{t(m.channel === 'email' ? 'outbox.channels.email' : 'outbox.channels.sms')}</td>
                  <td>
                    <Tag intent={STATUS_INTENT[m.status]} minimal title={m.error ?? undefined}>
                      {t(`outbox.statuses.${m.status}`)}
                    </Tag>
                  </td>
                  <td>{m.body}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager page={page} pages={pageCount(data.total, PAGE_SIZE)} onPage={setPage} prevLabel={t('outbox.prev')} nextLabel={t('outbox.next')} />
        </>
      )}
    </Page>
  );
}
