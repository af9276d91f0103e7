import { Callout, HTMLTable } from '@blueprintjs/core';
import { BusyButton } from '@decisio/sdk-plugin';
import { dataAccessApi } from '../api';
import { failureMessage } from '../format';
import { useDataT } from '../i18n';

/** What the columns are asked of: a table of the connection, or a SELECT query on it. */
export type ColumnsSource = { id: string; table: string; schema?: string } | { id: string; sql: string };

/**
 * The columns an import would bring, asked on demand: a table's (`metadata/getColumns`) or a
 * query's (`metadata/getColumnsByQuerySql`, which also says when the query does not run). The
 * parent re-mounts it (a new `key`) whenever the source changes, so an answer never outlives it.
 */
export function ImportColumns({ source, disabled }: { source: ColumnsSource; disabled?: boolean }) {
  const { t } = useDataT();
  const [tableColumns, byTable] = dataAccessApi.endpoints['data-access/remoteColumns'].useMutation();
  const [queryColumns, byQuery] = dataAccessApi.endpoints['data-access/queryColumns'].useMutation();
  const isQuery = 'sql' in source;
  const state = isQuery ? byQuery : byTable;
  const ask = () => void (isQuery ? queryColumns(source) : tableColumns(source));
  const rows = state.data;

  return (
    <div data-testid="import-columns" style={{ marginBottom: 12 }}>
      <BusyButton small icon={isQuery ? 'search-template' : 'th-list'} text={isQuery ? t('import.columns.check') : t('import.columns.show')} loading={state.isLoading} disabled={disabled} onClick={ask} data-testid="import-columns-ask" />
      {state.isError && (
        <Callout intent="danger" icon="error" style={{ marginTop: 8 }} data-testid="import-columns-error">
          {failureMessage(state.error, t('import.columns.columnsFailed')) || t('import.columns.columnsFailed')}
        </Callout>
      )}
      {rows && !state.isError && (
        <div style={{ maxHeight: 220, overflow: 'auto', marginTop: 8 }}>
          <HTMLTable compact striped style={{ width: '100%' }} data-testid="import-columns-table">
            <caption style={{ textAlign: 'left', fontWeight: 600, padding: '4px 0' }}>{t('import.columns.columnsTitle', { count: rows.length })}</caption>
            <thead>
              <tr>
                <th>{t('import.columns.column')}</th>
                <th>{t('import.columns.serverType')}</th>
                <th>{t('import.columns.kind')}</th>
                <th>{t('import.columns.nullable')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.name}>
                  <td>
                    <code>{c.name}</code>
                  </td>
                  <td>{c.dataType}</td>
                  <td>{t(`import.columns.kinds.${c.kind}`)}</td>
                  <td>{c.nullable ? t('import.columns.yes') : t('import.columns.no')}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </div>
  );
}
