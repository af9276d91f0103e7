import { useEffect, useRef, useState } from 'react';
import { AnchorButton, Button, ButtonGroup, Callout, Card, Checkbox, Classes, FormGroup, H5, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Pre, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import type { DecisionResult, ModelServiceDetail, ModelServiceField, ModelServiceWithToken, MonitorUnit } from '@decisio/domain';
import { MONITOR_UNITS } from '@decisio/domain';
import { Alert, BusyButton, Pager, failureMessage, pageCount, useAppLocation, useNavigate, useNotify, useProjectEditRight, useProjectLink, useFailureNotice, DataTable, ListBody, PanelPage, RowForm } from '@decisio/sdk-plugin';
import { deployApi } from '../api';
import { useDeployT } from '../i18n';
import { StatusTag, TokenDialog, TRANSIENT } from './common';
import { KeepPayloadsSwitch, RecordPayload, RecordsDatasetButton, outcomeExample } from './Feedback';
import { MonitorChart } from './MonitorChart';
import { PolicyUpdates } from './PolicyUpdates';
import { TryDecision } from './TryDecision';
import { NEVER, TokenExpiry, TokenValidityField, expiryOf, type Validity } from './TokenValidity';

const RECORDS_PAGE = 20;

function exampleValue(f: ModelServiceField): number | number[] {
  const v = f.dataType === 'category' ? (f.values?.[0] ?? 0) : Number(((f.min + f.max) / 2).toPrecision(4));
  return f.frames > 1 ? Array.from({ length: f.frames }, () => v) : v;
}

/** The curl call of the README, filled with this service's address and fields. */
function curlExample(s: ModelServiceDetail): string {
  const row = Object.fromEntries((s.inputs ?? []).map((f) => [f.name, exampleValue(f)]));
  return `curl -s ${s.accessAddress} \\\n  -H 'Authorization: Bearer <access token>' \\\n  -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(row)}'`;
}

function FieldsTable({ fields, caption }: { fields: ModelServiceField[]; caption: string }) {
  const { t } = useDeployT();
  return (
    <HTMLTable compact striped style={{ width: '100%' }}>
      <caption style={{ textAlign: 'left', fontWeight: 600, padding: '4px 0' }}>{caption}</caption>
      <thead>
        <tr>
          <th>{t('detail.field')}</th>
          <th>{t('detail.node')}</th>
          <th>{t('detail.type')}</th>
          <th>{t('detail.range')}</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => (
          <tr key={f.name}>
            <td>
              <code>{f.name}</code>
            </td>
            <td>{f.node}</td>
            <td>{t(`dataType.${f.dataType}`)}</td>
            <td>{f.dataType === 'category' ? (f.values ?? []).join(', ') : `${f.min} – ${f.max}`}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

function Monitor({ id }: { id: string }) {
  const { t, locale } = useDeployT();
  const [unit, setUnit] = useState<MonitorUnit>('day');
  const m = deployApi.endpoints['deploy/monitor'].useQuery({ id, unit });
  const total = m.data?.buckets.reduce((s, b) => s + b.calls, 0) ?? 0;
  return (
    <Card>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <H5>{t('monitor.title')}</H5>
        <ButtonGroup>
          {MONITOR_UNITS.map((u) => (
            <Button key={u} active={u === unit} text={t(`monitor.${u}`)} onClick={() => setUnit(u)} />
          ))}
        </ButtonGroup>
      </div>
      {m.isLoading ? (
        <Spinner size={24} />
      ) : m.isError || !m.data ? (
        <Callout intent="danger">{t('monitor.loadFailed')}</Callout>
      ) : total === 0 ? (
        <NonIdealState icon="timeline-line-chart" title={t('monitor.noCalls')} />
      ) : (
        <MonitorChart monitor={m.data} callsLabel={t('monitor.calls')} latencyLabel={t('monitor.avgMs')} locale={locale} />
      )}
    </Card>
  );
}

function Records({ service }: { service: ModelServiceDetail }) {
  const id = service.id;
  const { t, locale } = useDeployT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<DecisionResult | ''>('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const list = deployApi.endpoints['deploy/records'].useQuery({ id, page, pageSize: RECORDS_PAGE, result: result || undefined });
  const [remove, { isLoading }] = deployApi.endpoints['deploy/deleteRecords'].useMutation();
  const refused = useProjectEditRight(service.projectId).reason;
  const rows = list.data?.rows ?? [];
  const pages = pageCount(list.data?.total ?? 0, RECORDS_PAGE);
  const toggle = (rid: string) => {
    const next = new Set(selected);
    if (next.has(rid)) next.delete(rid);
    else next.add(rid);
    setSelected(next);
  };
  const doDelete = async () => {
    try {
      const r = await remove({ id, recordIds: [...selected] }).unwrap();
      setSelected(new Set());
      notify({ message: t('records.deleted', { n: r.deleted }), intent: 'success' });
    } catch (err) {
      fail(err, t('list.actionFailed'));
    }
  };
  const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString(locale) : '—');
  // "Open call records" (command palette) links here with `section=records`: scroll to them.
  const location = useAppLocation();
  const ref = useRef<HTMLDivElement>(null);
  const toRecords = location.search.section === 'records';
  useEffect(() => {
    if (toRecords) ref.current?.scrollIntoView?.({ block: 'start' });
  }, [toRecords, id]);
  return (
    <Card ref={ref} data-testid="deploy-records-section">
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
        <H5>{t('records.title')}</H5>
        <div style={{ display: 'flex', gap: 8 }}>
          <HTMLSelect
            aria-label={t('records.result')}
            value={result}
            onChange={(e) => {
              setResult(e.target.value as DecisionResult | '');
              setPage(1);
            }}
            options={[
              { value: '', label: t('records.all') },
              { value: 'success', label: t('records.success') },
              { value: 'failure', label: t('records.failure') },
              { value: 'running', label: t('records.running') },
            ]}
          />
          <RecordsDatasetButton service={service} />
          <BusyButton icon="trash" intent="danger" disabled={selected.size === 0 || refused !== undefined} title={refused} loading={isLoading} text={t('records.deleteSelected')} onClick={() => void doDelete()} />
        </div>
      </div>
      <ListBody query={list} failed={t('records.loadFailed')} retry={t('list.retry')} spinnerSize={24} empty={rows.length === 0 && <NonIdealState icon="history" title={t('records.empty')} />}>
        <DataTable
          testId="deploy-records"
          columns={['', t('records.decisionId'), t('records.start'), t('records.end'), t('records.duration'), t('records.ip'), t('records.rows'), t('records.result'), t('feedback.payload')]}
        >
          {rows.map((r) => (
            <tr key={r.decisionId}>
              <td>
                <Checkbox aria-label={t('records.select')} checked={selected.has(r.decisionId)} onChange={() => toggle(r.decisionId)} style={{ margin: 0 }} />
              </td>
              <td>
                <code>{r.decisionId}</code>
              </td>
              <td>{time(r.startTime)}</td>
              <td>{time(r.endTime)}</td>
              <td>{r.durationMs ?? '—'}</td>
              <td>{r.requestIp ?? '—'}</td>
              <td>{r.rows}</td>
              <td>
                <Tag minimal intent={r.result === 'success' ? 'success' : r.result === 'failure' ? 'danger' : 'primary'}>
                  {t(`records.${r.result}`)}
                </Tag>
              </td>
              <td>
                <RecordPayload record={r} />
              </td>
            </tr>
          ))}
        </DataTable>
      </ListBody>
      {pages > 1 && (
        <Pager withText page={page} pages={pages} onPage={setPage} prevLabel={t('list.prev')} nextLabel={t('list.next')} style={{ marginTop: 8 }}>
          {t('list.pageOf', { page, pages })}
        </Pager>
      )}
    </Card>
  );
}

function Batches({ id, projectId, running }: { id: string; projectId: string; running: boolean }) {
  const { t, locale } = useDeployT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const [fileId, setFileId] = useState('');
  const [delimiter, setDelimiter] = useState<',' | ';'>(',');
  const [polling, setPolling] = useState(false);
  const list = deployApi.endpoints['deploy/batches'].useQuery({ id, page: 1, pageSize: 10 }, { pollingInterval: polling ? 1000 : 0 });
  const [create, { isLoading }] = deployApi.endpoints['deploy/createBatch'].useMutation();
  const refused = useProjectEditRight(projectId).reason;
  const rows = list.data?.rows ?? [];
  const busy = rows.some((b) => b.state === 'running');
  if (busy !== polling) setPolling(busy);
  const start = async () => {
    try {
      await create({ id, fileId: fileId.trim(), delimiter }).unwrap();
      setFileId('');
      notify({ message: t('batch.started'), intent: 'success' });
    } catch (err) {
      fail(err, t('list.actionFailed'));
    }
  };
  return (
    <Card>
      <H5>{t('batch.title')}</H5>
      <RowForm gap={8} align="flex-end" onSubmit={() => void start()}>
        <FormGroup label={t('batch.fileId')} labelFor="deploy-batch-file" helperText={t('batch.hint')} style={{ flex: 1, minWidth: 260, margin: 0 }}>
          <InputGroup id="deploy-batch-file" value={fileId} onChange={(e) => setFileId(e.target.value)} />
        </FormGroup>
        <FormGroup label={t('batch.delimiter')} labelFor="deploy-batch-delimiter" style={{ margin: 0 }}>
          <HTMLSelect
            id="deploy-batch-delimiter"
            value={delimiter}
            onChange={(e) => setDelimiter(e.target.value as ',' | ';')}
            options={[
              { value: ',', label: t('batch.comma') },
              { value: ';', label: t('batch.semicolon') },
            ]}
          />
        </FormGroup>
        <BusyButton type="submit" intent="primary" icon="play" disabled={!running || fileId.trim() === '' || refused !== undefined} title={refused} loading={isLoading} text={t('batch.start')} />
      </RowForm>
      {list.isError ? (
        <Callout intent="danger" style={{ marginTop: 8 }}>
          {t('batch.loadFailed')}
        </Callout>
      ) : rows.length === 0 ? (
        <p style={{ marginTop: 8 }}>{t('batch.empty')}</p>
      ) : (
        <DataTable testId="deploy-batches" style={{ marginTop: 8 }} columns={[t('batch.file'), t('records.start'), t('batch.state'), t('batch.progress'), t('batch.rows'), '']}>
          {rows.map((b) => (
            <tr key={b.batchId}>
              <td>{b.fileName}</td>
              <td>{new Date(b.createdAt).toLocaleString(locale)}</td>
              <td>
                <Tag minimal intent={b.state === 'success' ? 'success' : b.state === 'failure' ? 'danger' : 'primary'} title={b.error ?? undefined}>
                  {t(`batch.${b.state}`)}
                </Tag>
                {b.error && <div className={Classes.TEXT_MUTED}>{b.error}</div>}
              </td>
              <td style={{ minWidth: 120 }}>
                <ProgressBar value={b.progress} stripes={b.state === 'running'} intent={b.state === 'failure' ? 'danger' : 'primary'} />
              </td>
              <td>
                {b.rows} ({b.failedRows})
              </td>
              <td>{b.downloadUrl && <AnchorButton variant="minimal" icon="download" href={b.downloadUrl} text={t('batch.download')} />}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Card>
  );
}

/**
 * One model service (`/project/deploy-detail?serviceId=`): status and actions, the access
 * address with a call example, token rotation (the new token shown once), the input and output
 * fields, a trial decision, the monitor and the call records.
 */
export function DeployDetailPanel() {
  const { t } = useDeployT();
  const notify = useNotify();
  const fail = useFailureNotice();
  const location = useAppLocation();
  const navigate = useNavigate();
  const link = useProjectLink();
  const id = location.search.serviceId;
  const [rotating, setRotating] = useState(false);
  const [validity, setValidity] = useState<Validity>(NEVER);
  const [validityError, setValidityError] = useState<string | undefined>(undefined);
  const [shown, setShown] = useState<ModelServiceWithToken | null>(null);
  const [polling, setPolling] = useState(false);
  const detail = deployApi.endpoints['deploy/detail'].useQuery({ id: id ?? '' }, { skip: !id, pollingInterval: polling ? 1000 : 0 });
  const [start] = deployApi.endpoints['deploy/start'].useMutation();
  const [stop] = deployApi.endpoints['deploy/stop'].useMutation();
  const [rotate] = deployApi.endpoints['deploy/rotateToken'].useMutation();
  // A user who may not change the project (view right, locked) may look, not start, stop or renew the token.
  const refused = useProjectEditRight(detail.currentData?.projectId).reason;
  // This service's answer only: `data` shows the previous service while another's loads.
  const s = detail.currentData;
  const transient = s ? TRANSIENT.includes(s.status) : false;
  if (transient !== polling) setPolling(transient);

  if (!id) return <NonIdealState icon="dashboard" title={t('detail.missing')} description={t('detail.missingDescription')} />;
  if (!s && !detail.isError) return <Spinner size={32} />;
  if (detail.isError || !s)
    return (
      <Callout intent="danger" title={t('detail.loadFailed')} style={{ margin: 12 }}>
        {failureMessage(detail.error, '')}
      </Callout>
    );

  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      fail(err, t('list.actionFailed'));
    }
  };

  return (
    <PanelPage>
      <Card>
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
          <H5 style={{ margin: 0 }}>
            {s.serviceName} <StatusTag status={s.status} />
          </H5>
          <ButtonGroup>
            <Button icon="arrow-left" text={t('detail.back')} onClick={() => navigate('/project/deploy', { search: link.search() })} />
            {s.status === 'waiting' || s.status === 'failure' ? (
              <Button icon="play" intent="success" text={t('list.start')} disabled={refused !== undefined} title={refused} onClick={() => void act(() => start({ id: s.id }).unwrap())} />
            ) : (
              <Button icon="stop" text={t('list.stop')} disabled={s.status === 'deploying' || refused !== undefined} title={refused} onClick={() => void act(() => stop({ id: s.id }).unwrap())} />
            )}
            <Button icon="key" intent={s.tokenExpired ? 'danger' : 'none'} text={t('detail.rotate')} disabled={refused !== undefined} title={refused} onClick={() => setRotating(true)} data-testid="deploy-rotate" />
          </ButtonGroup>
        </div>
        <HTMLTable compact style={{ width: '100%', marginTop: 8 }}>
          <tbody>
            <tr>
              <th>{t('detail.address')}</th>
              <td>
                <code data-testid="deploy-address">{s.accessAddress}</code>
              </td>
            </tr>
            <tr>
              <th>{t('detail.tokenHint')}</th>
              <td>
                <code>…{s.accessTokenHint}</code>
              </td>
            </tr>
            <tr>
              <th>{t('validity.expires')}</th>
              <td>
                <TokenExpiry service={s} />
              </td>
            </tr>
            <tr>
              <th>{t('detail.policy')}</th>
              <td>{s.policyName ?? s.policyId}</td>
            </tr>
            <tr>
              <th>{t('list.description')}</th>
              <td>{s.description}</td>
            </tr>
            <tr>
              <th>{t('feedback.keepLabel')}</th>
              <td>
                <KeepPayloadsSwitch service={s} />
              </td>
            </tr>
            <tr>
              <th>{t('detail.calls')}</th>
              <td>
                {s.totals.calls} ({t('detail.failures')}: {s.totals.failures})
              </td>
            </tr>
            {s.failureReason && (
              <tr>
                <th>{t('detail.failureReason')}</th>
                <td>{s.failureReason}</td>
              </tr>
            )}
          </tbody>
        </HTMLTable>
      </Card>
      <Card>
        {s.inputs && s.outputs ? (
          <>
            <FieldsTable fields={s.inputs} caption={t('detail.inputs')} />
            <FieldsTable fields={s.outputs} caption={t('detail.outputs')} />
            <H5 style={{ marginTop: 12 }}>{t('detail.example')}</H5>
            <Pre data-testid="deploy-example">{curlExample(s)}</Pre>
            <H5 style={{ marginTop: 12 }}>{t('feedback.outcomeExample')}</H5>
            <Pre data-testid="deploy-outcome-example">{outcomeExample(s)}</Pre>
          </>
        ) : (
          <Callout intent="warning">{t('detail.fieldsUnavailable')}</Callout>
        )}
      </Card>
      {/* keyed by the service: another service starts with its own inputs, page, filter and
          ticks, and never shows this one's records, batches or updates while its own load */}
      {s.inputs && s.outputs && <TryDecision key={`try-${s.id}`} service={s} />}
      <Monitor key={`monitor-${s.id}`} id={s.id} />
      <Batches key={`batches-${s.id}`} id={s.id} projectId={s.projectId} running={s.status === 'running'} />
      <Records key={`records-${s.id}`} service={s} />
      <PolicyUpdates key={`updates-${s.id}`} id={s.id} />
      <TokenDialog service={shown} onClose={() => setShown(null)} />
      <Alert
        isOpen={rotating}
        intent="warning"
        icon="key"
        confirmButtonText={t('detail.rotate')}
        cancelButtonText={t('list.cancel')}
        onCancel={() => {
          setRotating(false);
          setValidityError(undefined);
        }}
        onConfirm={() => {
          const tokenExpiresAt = expiryOf(validity, new Date());
          if (tokenExpiresAt === undefined) {
            setValidityError(t('validity.invalid'));
            return;
          }
          setRotating(false);
          setValidityError(undefined);
          void act(async () => {
            setShown(await rotate({ id: s.id, tokenExpiresAt }).unwrap());
            setValidity(NEVER);
            notify({ message: t('detail.rotated'), intent: 'success' });
          });
        }}
      >
        <p>{t('detail.confirmRotate')}</p>
        <TokenValidityField
          id="deploy-rotate-validity"
          value={validity}
          onChange={(v) => {
            setValidity(v);
            setValidityError(undefined);
          }}
          error={validityError}
        />
      </Alert>
    </PanelPage>
  );
}
