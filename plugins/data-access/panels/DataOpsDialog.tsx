import { useRef, useState } from 'react';
import { Button, Callout, DialogBody, FormGroup, HTMLSelect, InputGroup, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { FILTER_OPS, type Dataset, type FilterCondition, type FilterOp } from '@decisio/domain';
import { Dialog, BusyButton, useFocusBackWhenDone, useNotify } from '@decisio/sdk-plugin';
import { dataAccessApi } from '../api';
import { failureMessage } from '../format';
import { useDataT } from '../i18n';
import { PreviewTable } from './PreviewTable';

type Mode = 'filter' | 'append' | 'copy' | 'key';

/** The value a condition row's text becomes: a list for `in`, nothing for the null checks, a number where it reads as one. */
function valueOf(op: FilterOp, text: string): FilterCondition['value'] {
  if (op === 'isNull' || op === 'notNull') return undefined;
  const cell = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s);
  if (op === 'in') return text.split(',').map((s) => cell(s.trim()));
  return op === 'contains' ? text : cell(text);
}

/**
 * What can be done with a dataset's data besides its field settings: rows by conditions
 * (`table/filter`), more rows or a new file with the same columns (`table/append`,
 * `table/updateTableFileUrl`), a copy on a data connection's database
 * (`table/copyTableToDataSource`) and a read key for a script (`table/getAccessKey`).
 */
export function DataOpsDialog(props: { dataset: Dataset | null; onClose(): void }) {
  const { t } = useDataT();
  const [mode, setMode] = useState<Mode>('filter');
  const d = props.dataset;
  return (
    <Dialog isOpen={!!d} onClose={props.onClose} title={t('ops.title', { name: d?.name ?? '' })} icon="th-filtered" style={{ width: 960, maxWidth: '96vw' }}>
      <DialogBody>
        {d && (
          <Tabs id="dataset-ops" selectedTabId={mode} onChange={(id) => setMode(id as Mode)} renderActiveTabPanelOnly>
            <Tab id="filter" title={t('ops.filter')} panel={<FilterTab dataset={d} />} />
            <Tab id="append" title={t('ops.append')} panel={<FileTab dataset={d} />} />
            <Tab id="copy" title={t('ops.copy')} panel={<CopyTab dataset={d} />} />
            <Tab id="key" title={t('ops.key')} panel={<KeyTab dataset={d} />} />
          </Tabs>
        )}
      </DialogBody>
    </Dialog>
  );
}

function FilterTab({ dataset }: { dataset: Dataset }) {
  const { t } = useDataT();
  const [field, setField] = useState(dataset.columns[0]?.name ?? '');
  const [op, setOp] = useState<FilterOp>('eq');
  const [text, setText] = useState('');
  const [conditions, setConditions] = useState<FilterCondition[]>([]);
  const [offset, setOffset] = useState(0);
  const rows = dataAccessApi.endpoints['data-access/filter'].useQuery({ tableId: dataset.tableId, conditions, offset, limit: 50 });
  const add = () => {
    const value = valueOf(op, text);
    setConditions((cs) => [...cs, value === undefined ? { field, op } : { field, op, value }]);
    setText('');
    setOffset(0);
  };
  const error = rows.isError ? failureMessage(rows.error, t('ops.failed')) : null;
  return (
    <div>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <FormGroup label={t('ops.field')} labelFor="ops-field">
          <HTMLSelect id="ops-field" value={field} onChange={(e) => setField(e.target.value)} options={dataset.columns.map((c) => c.name)} />
        </FormGroup>
        <FormGroup label={t('ops.op')} labelFor="ops-op">
          <HTMLSelect id="ops-op" value={op} onChange={(e) => setOp(e.target.value as FilterOp)} options={FILTER_OPS.map((o) => ({ value: o, label: t(`ops.ops.${o}`) }))} />
        </FormGroup>
        {op !== 'isNull' && op !== 'notNull' && (
          <FormGroup label={t('ops.value')} labelFor="ops-value" helperText={op === 'in' ? t('ops.inHelp') : undefined}>
            <InputGroup id="ops-value" value={text} onValueChange={setText} onKeyDown={(e) => e.key === 'Enter' && add()} />
          </FormGroup>
        )}
        <FormGroup>
          <Button icon="add" text={t('ops.addCondition')} onClick={add} disabled={!field || (op !== 'isNull' && op !== 'notNull' && text.trim() === '')} data-testid="ops-add" />
        </FormGroup>
      </div>
      {conditions.length > 0 && (
        <p data-testid="ops-conditions">
          {conditions.map((c, i) => (
            <Button key={i} small minimal rightIcon="cross" text={`${c.field} ${t(`ops.ops.${c.op}`)} ${c.value === undefined ? '' : Array.isArray(c.value) ? c.value.join(', ') : String(c.value)}`} onClick={() => setConditions((cs) => cs.filter((_, k) => k !== i))} />
          ))}
        </p>
      )}
      {error && <Callout intent="danger">{error}</Callout>}
      {rows.isFetching && !rows.currentData && <Spinner size={20} />}
      {rows.currentData && (
        <>
          <p className="bp6-text-muted" data-testid="ops-total">
            {t('ops.matched', { total: rows.currentData.total, from: rows.currentData.total === 0 ? 0 : offset + 1, to: offset + rows.currentData.rows.length })}
          </p>
          <div style={{ maxHeight: 320, overflow: 'auto' }}>
            <PreviewTable columns={rows.currentData.columns} rows={rows.currentData.rows} data-testid="ops-rows" />
          </div>
          <div style={{ display: 'flex', gap: 8, marginTop: 8 }}>
            <Button icon="chevron-left" text={t('ops.prev')} disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - 50))} />
            <Button rightIcon="chevron-right" text={t('ops.next')} disabled={offset + 50 >= rows.currentData.total} onClick={() => setOffset(offset + 50)} />
          </div>
        </>
      )}
    </div>
  );
}

function FileTab({ dataset }: { dataset: Dataset }) {
  const { t } = useDataT();
  const notify = useNotify();
  const files = dataAccessApi.endpoints['data-access/files'].useQuery({ page: 1, pageSize: 100 });
  const [fileId, setFileId] = useState('');
  const [append, appending] = dataAccessApi.endpoints['data-access/append'].useMutation();
  const [replace, replacing] = dataAccessApi.endpoints['data-access/replaceFile'].useMutation();
  const [error, setError] = useState<string | null>(null);
  const choices = (files.data?.rows ?? []).filter((f) => /\.(csv|npz|h5)$/i.test(f.name));
  const run = async (how: 'append' | 'replace') => {
    setError(null);
    try {
      const done = await (how === 'append' ? append : replace)({ tableId: dataset.tableId, fileId }).unwrap();
      notify({ message: t(how === 'append' ? 'ops.appended' : 'ops.replaced', { rows: done.amount }), intent: 'success', icon: 'tick' });
    } catch (err) {
      const m = failureMessage(err, t('ops.failed'));
      const details = (err as { errors?: Record<string, string> }).errors;
      setError([m, details ? Object.entries(details).map(([k, v]) => `${k === 'missing' || k === 'extra' || k === 'types' ? t(`ops.mismatch.${k}`) : k}: ${v}`).join('; ') : ''].filter(Boolean).join(' — '));
    }
  };
  if (files.isLoading) return <Spinner size={20} />;
  if (choices.length === 0) return <NonIdealState icon="document" title={t('ops.noFiles')} description={t('ops.noFilesHelp')} />;
  return (
    <div>
      <p>{t('ops.sameColumns', { columns: dataset.columns.map((c) => c.name).join(', ') })}</p>
      <FormGroup label={t('ops.file')} labelFor="ops-file">
        <HTMLSelect id="ops-file" value={fileId} onChange={(e) => setFileId(e.target.value)} data-testid="ops-file">
          <option value="">{t('ops.chooseFile')}</option>
          {choices.map((f) => (
            <option key={f.fileId} value={f.fileId}>
              {f.path}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      {error && (
        <Callout intent="danger" style={{ marginBottom: 8 }} data-testid="ops-error">
          {error}
        </Callout>
      )}
      <div style={{ display: 'flex', gap: 8 }}>
        <BusyButton intent="primary" icon="add-row-bottom" text={t('ops.appendRows')} disabled={!fileId} loading={appending.isLoading} onClick={() => void run('append')} data-testid="ops-append" />
        <BusyButton icon="swap-horizontal" text={t('ops.replaceData')} disabled={!fileId} loading={replacing.isLoading} onClick={() => void run('replace')} />
      </div>
    </div>
  );
}

function CopyTab({ dataset }: { dataset: Dataset }) {
  const { t } = useDataT();
  const notify = useNotify();
  const connections = dataAccessApi.endpoints['data-access/connections'].useQuery();
  const [dataSourceId, setDataSourceId] = useState('');
  const [targetTable, setTargetTable] = useState(dataset.name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^([^A-Za-z_])/, '_$1').slice(0, 64));
  const [copy, copying] = dataAccessApi.endpoints['data-access/copyOut'].useMutation();
  const [error, setError] = useState<string | null>(null);
  const valid = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(targetTable);
  const run = async () => {
    setError(null);
    try {
      const done = await copy({ tableId: dataset.tableId, dataSourceId, targetTable }).unwrap();
      notify({ message: t('ops.copied', { rows: done.rows, table: done.targetTable }), intent: 'success', icon: 'tick' });
    } catch (err) {
      const details = (err as { errors?: Record<string, string> }).errors;
      setError([failureMessage(err, t('ops.failed')), details?.reason].filter(Boolean).join(' — '));
    }
  };
  if (connections.isLoading) return <Spinner size={20} />;
  if ((connections.data ?? []).length === 0) return <NonIdealState icon="database" title={t('ops.noConnections')} />;
  return (
    <div>
      <p>{t('ops.copyHelp')}</p>
      <FormGroup label={t('ops.connection')} labelFor="ops-connection">
        <HTMLSelect id="ops-connection" value={dataSourceId} onChange={(e) => setDataSourceId(e.target.value)}>
          <option value="">{t('ops.chooseConnection')}</option>
          {(connections.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('ops.targetTable')} labelFor="ops-target" helperText={valid ? undefined : t('ops.targetInvalid')} intent={valid ? 'none' : 'danger'}>
        <InputGroup id="ops-target" value={targetTable} onValueChange={setTargetTable} intent={valid ? 'none' : 'danger'} />
      </FormGroup>
      {error && <Callout intent="danger" style={{ marginBottom: 8 }}>{error}</Callout>}
      <BusyButton intent="primary" icon="export" text={t('ops.copyNow')} disabled={!dataSourceId || !valid} loading={copying.isLoading} onClick={() => void run()} />
    </div>
  );
}

function KeyTab({ dataset }: { dataset: Dataset }) {
  const { t, locale } = useDataT();
  const [ttl, setTtl] = useState(600);
  const [make, making] = dataAccessApi.endpoints['data-access/accessKey'].useMutation();
  const [revoke, revoking] = dataAccessApi.endpoints['data-access/revokeAccessKeys'].useMutation();
  const [confirming, setConfirming] = useState(false);
  // Confirming a revoke takes its own button away: the focus comes back to Revoke when it is done.
  const revokeRef = useRef<HTMLButtonElement>(null);
  useFocusBackWhenDone(revoking.isLoading, () => revokeRef.current);
  const key = making.data;
  const absolute = (u: string) => new URL(u, window.location.origin).toString();
  return (
    <div>
      <p>{t('ops.keyHelp')}</p>
      <div style={{ display: 'flex', gap: 8, alignItems: 'flex-end' }}>
        <FormGroup label={t('ops.ttl')} labelFor="ops-ttl">
          <HTMLSelect id="ops-ttl" value={ttl} onChange={(e) => setTtl(Number(e.target.value))} options={([600, 3600, 86400] as const).map((s) => ({ value: s, label: t(`ops.ttls.${s}`) }))} />
        </FormGroup>
        <FormGroup>
          <BusyButton intent="primary" icon="key" text={t('ops.makeKey')} loading={making.isLoading} onClick={() => void make({ tableId: dataset.tableId, ttlSeconds: ttl })} data-testid="ops-make-key" />
        </FormGroup>
      </div>
      {making.isError && <Callout intent="danger">{failureMessage(making.error, t('ops.failed'))}</Callout>}
      {key && (
        <Callout intent="primary" data-testid="ops-key">
          <p>{t('ops.keyUntil', { time: new Date(key.expiresAt).toLocaleString(locale) })}</p>
          <InputGroup readOnly value={absolute(key.csvUrl)} aria-label={t('ops.csvUrl')} onFocus={(e) => e.currentTarget.select()} />
          <InputGroup readOnly value={absolute(key.url)} aria-label={t('ops.parquetUrl')} onFocus={(e) => e.currentTarget.select()} style={{ marginTop: 4 }} />
        </Callout>
      )}
      <div style={{ marginTop: 16, display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <span>{t('ops.revokeHelp')}</span>
        {confirming ? (
          <>
            {/* eslint-disable-next-line no-restricted-syntax -- not a BusyButton: the hook useFocusBackWhenDone above gives the focus to Revoke when done */}
            <Button
              intent="danger"
              icon="disable"
              text={t('ops.revokeConfirm')}
              loading={revoking.isLoading}
              data-testid="ops-revoke-confirm"
              onClick={() => {
                setConfirming(false);
                making.reset();
                void revoke({ tableId: dataset.tableId });
              }}
            />
            <Button text={t('ops.revokeCancel')} onClick={() => setConfirming(false)} />
          </>
        ) : (
          <Button ref={revokeRef} icon="disable" text={t('ops.revoke')} onClick={() => setConfirming(true)} data-testid="ops-revoke" />
        )}
      </div>
      {revoking.isError && <Callout intent="danger">{failureMessage(revoking.error, t('ops.failed'))}</Callout>}
      {revoking.isSuccess && !making.data && (
        <Callout intent="success" data-testid="ops-revoked">
          {t('ops.revoked', { time: new Date(revoking.data.revokedAt).toLocaleString(locale) })}
        </Callout>
      )}
    </div>
  );
}
