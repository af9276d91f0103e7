import { useState } from 'react';
import { Card, H5, NonIdealState, Tag, type Intent } from '@blueprintjs/core';
import type { PolicyUpdateReport } from '@decisio/domain';
import { DataTable, ListBody, Pager, pageCount } from '@decisio/sdk-plugin';
import { deployApi } from '../api';
import { useDeployT } from '../i18n';

const PAGE_SIZE = 5;

const intentOf = (state: PolicyUpdateReport['state']): Intent => (state === 'swapped' ? 'success' : state === 'failed' ? 'danger' : state === 'running' ? 'primary' : 'none');

/**
 * The policy updates from this service's recorded calls (scheduled `policies.update` jobs),
 * newest first: when, the outcome, the calls used, the scores of the serving policy and of the
 * retrained copy in the updated environment, and why (`modeldeploy/queryPolicyUpdates`).
 */
export function PolicyUpdates({ id }: { id: string }) {
  const { t, locale } = useDeployT();
  const [page, setPage] = useState(1);
  const list = deployApi.endpoints['deploy/policyUpdates'].useQuery({ id, page, pageSize: PAGE_SIZE }, { pollingInterval: 10_000 });
  const rows = list.data?.rows ?? [];
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
  const score = (v: number | null) => (v === null ? '—' : Number(v.toPrecision(5)).toString());
  return (
    <Card data-testid="deploy-policy-updates">
      <H5>{t('policyUpdates.title')}</H5>
      <p className="bp6-text-muted">{t('policyUpdates.help')}</p>
      <ListBody query={list} failed={t('policyUpdates.loadFailed')} retry={t('list.retry')} spinnerSize={24} empty={rows.length === 0 && <NonIdealState icon="refresh" title={t('policyUpdates.empty')} />}>
        <DataTable
          testId="deploy-policy-updates-table"
          columns={[t('policyUpdates.started'), t('policyUpdates.state'), t('policyUpdates.calls'), t('policyUpdates.before'), t('policyUpdates.after'), t('policyUpdates.reason')]}
        >
          {rows.map((r) => (
            <tr key={r.id} data-testid="deploy-policy-update">
              <td style={{ whiteSpace: 'nowrap' }}>{date.format(new Date(r.createdAt))}</td>
              <td>
                <Tag minimal intent={intentOf(r.state)}>
                  {t(`policyUpdates.states.${r.state}`)}
                </Tag>
              </td>
              <td>{r.calls ?? '—'}</td>
              <td>{score(r.scoreBefore)}</td>
              <td>{score(r.scoreAfter)}</td>
              <td style={{ wordBreak: 'break-word' }}>{r.reason ?? (r.state === 'running' ? t('policyUpdates.step', { step: r.step }) : '')}</td>
            </tr>
          ))}
        </DataTable>
        {list.data && list.data.total > PAGE_SIZE && <Pager small page={page} pages={pageCount(list.data.total, PAGE_SIZE)} onPage={setPage} prevLabel={t('list.prev')} nextLabel={t('list.next')} />}
      </ListBody>
    </Card>
  );
}
