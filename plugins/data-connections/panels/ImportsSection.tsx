import { useState } from 'react';
import { Callout, Classes, H5, HTMLTable, ProgressBar, Tag, type Intent } from '@blueprintjs/core';
import type { ImportState, ImportStatus } from '@decisio/domain';
import { BusyButton, isApiError, useLocale, useNotify } from '@decisio/sdk-plugin';
import { connectionsApi } from '../api';
import { useConnectionsT } from '../i18n';

/** How often the list is read again while an import waits or copies, ms. */
export const IMPORTS_POLL_MS = 1000;
const PAGE_SIZE = 10;

const INTENT: Record<ImportState, Intent> = { waiting: 'none', copying: 'primary', successful: 'success', failed: 'danger', stopped: 'warning' };
const isRunning = (s: ImportStatus) => s.state === 'waiting' || s.state === 'copying';

/**
 * The caller's latest imports from data connections (`metadata/getImportList`) with their
 * progress, read again every second while one runs; a running one can be cancelled
 * (`metadata/stopImport`: the copy job stops and no dataset is made). Hidden when there are none.
 */
export function ImportsSection() {
  const { t } = useConnectionsT();
  const locale = useLocale();
  const notify = useNotify();
  const [polling, setPolling] = useState(false);
  const list = connectionsApi.endpoints['data-connections/imports'].useQuery({ page: 1, pageSize: PAGE_SIZE }, { pollingInterval: polling ? IMPORTS_POLL_MS : 0 });
  const [stop] = connectionsApi.endpoints['data-connections/stopImport'].useMutation();
  const [stopping, setStopping] = useState<string | null>(null);
  const rows = list.data?.rows ?? [];
  const running = rows.some(isRunning);
  if (running !== polling) setPolling(running);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

  const cancel = async (s: ImportStatus) => {
    setStopping(s.tableId);
    try {
      const after = await stop({ tableId: s.tableId }).unwrap();
      notify(
        after.state === 'stopped'
          ? { message: t('imports.cancelled', { name: s.name }), intent: 'warning', icon: 'disable' }
          : { message: t(`imports.states.${after.state}`), intent: 'primary', icon: 'info-sign' },
      );
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) && err.message ? err.message : t('imports.cancelFailed'), intent: 'danger', icon: 'error' });
    } finally {
      setStopping(null);
      void list.refetch();
    }
  };

  if (list.error) {
    return (
      <Callout intent="danger" icon="error" title={t('imports.loadFailed')} data-testid="imports-error">
        {isApiError(list.error) ? list.error.message : null}
      </Callout>
    );
  }
  if (rows.length === 0) return null;

  return (
    <section data-testid="imports-section" aria-label={t('imports.title')}>
      <H5 style={{ marginTop: 8 }}>{t('imports.title')}</H5>
      <p className={Classes.TEXT_MUTED}>{t('imports.description')}</p>
      <HTMLTable striped compact style={{ width: '100%' }}>
        <thead>
          <tr>
            <th>{t('imports.columns.name')}</th>
            <th>{t('imports.columns.connection')}</th>
            <th>{t('imports.columns.source')}</th>
            <th>{t('imports.columns.state')}</th>
            <th style={{ minWidth: 200 }}>{t('imports.columns.progress')}</th>
            <th>{t('imports.columns.createdAt')}</th>
            <th>{t('imports.columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => {
            const fraction = s.rowsExpected ? Math.min(1, s.rowsCopied / Math.max(1, s.rowsExpected)) : undefined;
            return (
              <tr key={s.tableId} data-testid="import-row" data-state={s.state}>
                <td>{s.name}</td>
                <td>{s.connectionName}</td>
                <td style={{ wordBreak: 'break-all' }}>
                  {s.source.sql ? <Tag minimal>{t('imports.query')}</Tag> : <code>{s.source.schema ? `${s.source.schema}.${s.source.table}` : s.source.table}</code>}
                </td>
                <td>
                  <Tag minimal intent={INTENT[s.state]} title={s.error ?? undefined}>
                    {t(`imports.states.${s.state}`)}
                  </Tag>
                  {s.state === 'failed' && s.error && <div style={{ fontSize: 12, wordBreak: 'break-word' }}>{s.error}</div>}
                </td>
                <td>
                  <div>{s.rowsExpected ? t('imports.rowsOf', { rows: s.rowsCopied, expected: s.rowsExpected }) : t('imports.rows', { rows: s.rowsCopied })}</div>
                  {isRunning(s) && <ProgressBar value={fraction} intent="primary" animate stripes data-testid="import-progress" />}
                </td>
                <td>{date.format(new Date(s.createdAt))}</td>
                <td>
                  {isRunning(s) && (
                    <BusyButton small icon="disable" intent="danger" loading={stopping === s.tableId} onClick={() => void cancel(s)} data-testid="import-cancel">
                      {t('imports.cancel')}
                    </BusyButton>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </section>
  );
}
