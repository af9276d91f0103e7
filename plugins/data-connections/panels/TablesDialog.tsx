import { useState } from 'react';
import { Callout, Classes, DialogBody, HTMLTable, Menu, MenuItem, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { DataConnection, RemoteTable } from '@decisio/domain';
import { Dialog } from '@decisio/sdk-plugin';
import { connectionsApi } from '../api';
import { useConnectionsT } from '../i18n';

/** Browses the tables of a saved connection and the columns of the chosen one. */
export function TablesDialog(props: { connection: DataConnection; onClose: () => void }) {
  const { t } = useConnectionsT();
  const [picked, setPicked] = useState<RemoteTable | null>(null);
  const tables = connectionsApi.endpoints['data-connections/tables'].useQuery({ id: props.connection.id });
  const columns = connectionsApi.endpoints['data-connections/columns'].useQuery(
    { id: props.connection.id, table: picked?.name ?? '', schema: picked?.schema },
    { skip: !picked },
  );
  const errorText = (e: unknown) => (e && typeof e === 'object' && 'message' in e ? String((e as { message: string }).message) : '');
  const detail = (e: unknown) => {
    const errs = e && typeof e === 'object' && 'errors' in e ? (e as { errors?: Record<string, string> }).errors : undefined;
    return errs ? Object.values(errs).join(' ') : '';
  };

  // A table's schema is named only where the list spans several (PostgreSQL's `public` and `sales`); one schema
  // (MySQL's database, PostgreSQL's `public` alone) adds nothing to every row.
  const severalSchemas = new Set(tables.data?.map((tb) => tb.schema ?? '')).size > 1;

  return (
    <Dialog isOpen onClose={props.onClose} title={t('browse.title', { name: props.connection.name })} style={{ width: 960 }}>
      <DialogBody>
        {tables.isLoading && <NonIdealState icon={<Spinner size={32} />} title={t('browse.loading')} />}
        {tables.error && (
          <Callout intent="danger" icon="error" data-testid="tables-error">
            {errorText(tables.error)} {detail(tables.error)}
          </Callout>
        )}
        {tables.data && tables.data.length === 0 && <NonIdealState icon="th-disconnect" title={t('browse.empty')} />}
        {tables.data && tables.data.length > 0 && (
          <div style={{ display: 'flex', gap: 12, minHeight: 320 }}>
            <Menu style={{ width: 300, maxHeight: 480, overflow: 'auto' }} data-testid="tables-list">
              {tables.data.map((tb) => (
                <MenuItem
                  key={`${tb.schema}.${tb.name}`}
                  icon={tb.kind === 'view' ? 'eye-open' : 'th'}
                  text={severalSchemas && tb.schema ? `${tb.schema}.${tb.name}` : tb.name}
                  label={tb.estimatedRows != null ? t('browse.rows', { count: tb.estimatedRows }) : tb.kind === 'view' ? t('browse.view') : undefined}
                  active={picked?.name === tb.name && picked.schema === tb.schema}
                  onClick={() => setPicked(tb)}
                />
              ))}
            </Menu>
            <div style={{ flex: 1, overflow: 'auto', maxHeight: 480 }}>
              {!picked && <NonIdealState icon="column-layout" description={t('browse.pick')} />}
              {picked && columns.isFetching && <Spinner size={24} />}
              {picked && columns.error && (
                <Callout intent="danger" icon="error">
                  {errorText(columns.error)}
                </Callout>
              )}
              {/* the picked table's columns only (`currentData`): another table's load or failure never shows the previous ones */}
              {picked && columns.currentData && !columns.isFetching && (
                <HTMLTable compact striped className={Classes.FILL} data-testid="columns-table">
                  <thead>
                    <tr>
                      <th>{t('browse.column')}</th>
                      <th>{t('browse.columnType')}</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {columns.currentData.map((c) => (
                      <tr key={c.name}>
                        <td>{c.name}</td>
                        <td>
                          <code>{c.dataType}</code>
                        </td>
                        <td>
                          <Tag minimal>{t(`browse.kinds.${c.kind}`)}</Tag> {c.nullable && <Tag minimal>{t('browse.nullable')}</Tag>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              )}
            </div>
          </div>
        )}
      </DialogBody>
    </Dialog>
  );
}
