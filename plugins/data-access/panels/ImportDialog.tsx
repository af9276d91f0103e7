import { useEffect, useRef, useState } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, ProgressBar, Radio, RadioGroup, Spinner, TextArea } from '@blueprintjs/core';
import { DATASET_TYPES, LIMITS, type DatasetType, type ImportStatus } from '@decisio/domain';
import { Dialog, BusyButton, useNotify } from '@decisio/sdk-plugin';
import { dataAccessApi } from '../api';
import { failureMessage } from '../format';
import { useDataT } from '../i18n';
import { ImportColumns } from './ImportColumns';

/** How often the import's status is asked for while it runs. */
export const IMPORT_POLL_MS = 1000;

const isRunning = (s: ImportStatus) => s.state === 'waiting' || s.state === 'copying';

/**
 * "Import from database": a data connection (`jobJdbcDatasource/all`), one of its tables
 * (`metadata/getTables`) or a SELECT query, a name and a type; `metadata/startImport`, then
 * `metadata/getCopyStatusByTableId` every second with the rows copied, until the dataset exists
 * or the import failed (nothing partial is left on failure). A running import can be cancelled
 * (`metadata/stopImport`): the copy job stops and no dataset is made. Before importing, the
 * columns the table or the query gives can be looked at (`ImportColumns`).
 */
export function ImportDialog(props: { isOpen: boolean; projectId?: string; onClose(): void; onImported(datasetId: string): void }) {
  const { t } = useDataT();
  const notify = useNotify();
  const [connectionId, setConnectionId] = useState('');
  const [mode, setMode] = useState<'table' | 'query'>('table');
  const [table, setTable] = useState('');
  const [sql, setSql] = useState('');
  const [name, setName] = useState('');
  const [type, setType] = useState<DatasetType>('business');
  const [status, setStatus] = useState<ImportStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);

  const connections = dataAccessApi.endpoints['data-access/connections'].useQuery(undefined, { skip: !props.isOpen });
  const tables = dataAccessApi.endpoints['data-access/remoteTables'].useQuery({ id: connectionId }, { skip: !props.isOpen || !connectionId || mode !== 'table' });
  // the chosen connection's tables only: the previous connection's are never offered while these load
  const remoteTables = tables.currentData;
  const [startImport, starting] = dataAccessApi.endpoints['data-access/startImport'].useMutation();
  const [poll] = dataAccessApi.endpoints['data-access/importStatus'].useMutation();
  const [stop, stopping] = dataAccessApi.endpoints['data-access/stopImport'].useMutation();

  const running = status !== null && isRunning(status);
  const importId = running ? status.tableId : null;

  // Cancel (while it runs) and Close share one button, so the focus stays on it when one turns
  // into the other. The busy Import and the busy Cancel are disabled and the browser drops their
  // focus: it goes to that button, in the dialog, where Escape and Tab work.
  const actionRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (running || document.activeElement === document.body) actionRef.current?.focus();
  }, [running]);

  /** Shows the import's latest status; once it made the dataset, says so and hands it over. */
  const follow = (s: ImportStatus) => {
    setStatus(s);
    if (s.state === 'successful' && s.datasetId) {
      notify({ message: t('import.done', { name: s.name }), intent: 'success', icon: 'tick' });
      props.onImported(s.datasetId);
    }
  };

  useEffect(() => {
    if (!importId) return;
    let stopped = false;
    const tick = async () => {
      try {
        const s = await poll({ tableId: importId }).unwrap();
        if (stopped) return;
        follow(s);
      } catch (err) {
        if (!stopped) setError(failureMessage(err, t('import.states.failed')));
      }
    };
    const id = setInterval(() => void tick(), IMPORT_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(id);
    };
  }, [importId]);

  const selected = remoteTables?.find((x) => `${x.schema}.${x.name}` === table);
  const errors = {
    connectionId: !connectionId ? t('import.required') : null,
    source: mode === 'table' ? (!table ? t('import.required') : null) : !sql.trim() ? t('import.required') : null,
    name: !name.trim() ? t('import.required') : name.trim().length > LIMITS.datasetNameMax ? t('import.tooLong') : null,
  };
  const invalid = Object.values(errors).some(Boolean);

  const submit = async () => {
    setTouched(true);
    if (invalid) return;
    setError(null);
    try {
      const s = await startImport({
        connectionId,
        ...(mode === 'table' ? { table: selected?.name ?? table, ...(selected?.schema ? { schema: selected.schema } : {}) } : { sql: sql.trim() }),
        name: name.trim(),
        type,
        ...(props.projectId ? { projectId: props.projectId } : {}),
      }).unwrap();
      setStatus(s);
    } catch (err) {
      setError(failureMessage(err, t('import.states.failed')));
    }
  };

  const cancel = async () => {
    if (!status) return;
    try {
      const after = await stop({ tableId: status.tableId }).unwrap();
      if (after.state === 'stopped') notify({ message: t('import.cancelled', { name: after.name }), intent: 'warning', icon: 'disable' });
      else if (after.state !== 'successful') notify({ message: t(`import.states.${after.state}`), intent: 'primary', icon: 'info-sign' });
      follow(after);
    } catch (err) {
      const m = failureMessage(err, t('import.cancelFailed'));
      if (m) notify({ message: m, intent: 'danger', icon: 'error' });
    }
  };

  const shown = (k: keyof typeof errors) => (touched ? errors[k] : null);
  const progress = status && status.rowsExpected ? Math.min(1, status.rowsCopied / Math.max(1, status.rowsExpected)) : undefined;
  const noConnections = connections.data && connections.data.length === 0;

  return (
    <Dialog isOpen={props.isOpen} onClose={running ? undefined : props.onClose} title={t('import.title')} icon="database" style={{ width: 640, maxWidth: '95vw' }}>
      <DialogBody>
        {connections.isLoading && <Spinner size={20} />}
        {noConnections && (
          <Callout intent="primary" data-testid="import-no-connections">
            {t('import.noConnections')}
          </Callout>
        )}
        <FormGroup label={t('import.connection')} labelFor="import-connection" helperText={shown('connectionId')} intent={shown('connectionId') ? 'danger' : 'none'}>
          <HTMLSelect
            id="import-connection"
            fill
            value={connectionId}
            disabled={running}
            onChange={(e) => {
              setConnectionId(e.target.value);
              setTable('');
            }}
            data-testid="import-connection"
          >
            <option value="">{t('import.chooseConnection')}</option>
            {connections.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.type})
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <RadioGroup label={t('import.source')} inline selectedValue={mode} onChange={(e) => setMode(e.currentTarget.value as 'table' | 'query')} disabled={running}>
          <Radio value="table" label={t('import.fromTable')} data-testid="import-mode-table" />
          <Radio value="query" label={t('import.fromQuery')} data-testid="import-mode-query" />
        </RadioGroup>
        {mode === 'table' ? (
          <FormGroup label={t('import.table')} labelFor="import-table" helperText={shown('source') ?? (tables.isFetching ? t('import.loadingTables') : undefined)} intent={shown('source') ? 'danger' : 'none'}>
            <HTMLSelect
              id="import-table"
              fill
              value={table}
              disabled={running || !connectionId}
              onChange={(e) => {
                setTable(e.target.value);
                const t2 = remoteTables?.find((x) => `${x.schema}.${x.name}` === e.target.value);
                if (t2 && !name) setName(t2.name.slice(0, LIMITS.datasetNameMax));
              }}
              data-testid="import-table"
            >
              <option value="">{t('import.chooseTable')}</option>
              {remoteTables?.map((x) => (
                <option key={`${x.schema}.${x.name}`} value={`${x.schema}.${x.name}`}>
                  {x.schema ? `${x.schema}.` : ''}
                  {x.name}
                  {x.estimatedRows != null ? ` (~${x.estimatedRows})` : ''}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        ) : (
          <FormGroup label={t('import.sql')} labelFor="import-sql" helperText={shown('source')} intent={shown('source') ? 'danger' : 'none'}>
            <TextArea id="import-sql" fill rows={4} value={sql} disabled={running} onChange={(e) => setSql(e.target.value)} data-testid="import-sql" />
          </FormGroup>
        )}
        {connectionId && (mode === 'table' ? table !== '' : sql.trim() !== '') && (
          <ImportColumns
            key={`${connectionId}|${mode}|${mode === 'table' ? table : sql.trim()}`}
            source={mode === 'table' ? { id: connectionId, table: selected?.name ?? table, ...(selected?.schema ? { schema: selected.schema } : {}) } : { id: connectionId, sql: sql.trim() }}
            disabled={running}
          />
        )}
        <div style={{ display: 'flex', gap: 16 }}>
          <FormGroup label={t('import.name')} labelFor="import-name" helperText={shown('name')} intent={shown('name') ? 'danger' : 'none'} style={{ flex: 1 }}>
            <InputGroup id="import-name" value={name} disabled={running} onChange={(e) => setName(e.target.value)} data-testid="import-name" />
          </FormGroup>
          <FormGroup label={t('import.type')} labelFor="import-type">
            <HTMLSelect id="import-type" value={type} disabled={running} onChange={(e) => setType(e.target.value as DatasetType)} data-testid="import-type">
              {DATASET_TYPES.map((x) => (
                <option key={x} value={x}>
                  {t(`types.${x}`)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        </div>
        {status && (
          <div data-testid="import-status" data-state={status.state}>
            <p>
              <strong>{t(`import.states.${status.state}`)}</strong>{' '}
              {status.rowsExpected ? t('import.progressOf', { rows: status.rowsCopied, expected: status.rowsExpected }) : t('import.progress', { rows: status.rowsCopied })}
            </p>
            {running && <ProgressBar value={progress} intent="primary" animate stripes data-testid="import-progress" />}
            {status.state === 'failed' && (
              <Callout intent="danger" icon="error" data-testid="import-failed">
                {status.error ?? t('import.states.failed')}
              </Callout>
            )}
          </div>
        )}
        {error && (
          <Callout intent="danger" icon="error" data-testid="import-error">
            {error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {running ? (
              <BusyButton ref={actionRef} intent="danger" icon="disable" text={t('import.cancel')} loading={stopping.isLoading} onClick={() => void cancel()} data-testid="import-cancel" />
            ) : (
              <Button ref={actionRef} text={t('import.close')} onClick={props.onClose} />
            )}
            {/* eslint-disable-next-line no-restricted-syntax -- not a BusyButton: the effect on `running` above gives the focus to Cancel, then Close */}
            <Button intent="primary" icon="import" text={t('import.start')} loading={starting.isLoading || running} onClick={() => void submit()} data-testid="import-start" />
          </>
        }
      />
    </Dialog>
  );
}
