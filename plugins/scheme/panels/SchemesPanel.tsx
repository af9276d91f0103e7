import { useEffect, useState } from 'react';
import { Button, ButtonGroup, Callout, Dialog, DialogBody, HTMLSelect, HTMLTable, InputGroup, ProgressBar, TextArea } from '@blueprintjs/core';
import { MODELLING_LIMITS } from '@decisio/domain';
import { isApiError, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { schemeApi } from '../api';
import { useSchemeT } from '../i18n';
import { DeleteConfirm, Field, FormDialogFooter, ListStates, NoSolution, serverErrors, StateTag, trainingsApi, useSolutionId, type FormErrors, type SchemeRow } from '@decisio/sdk-plugin/trainings';

const PERIODS = ['hour', 'day', 'week', 'month'] as const;

interface SchemeForm {
  name: string;
  description: string;
  period: string;
  startTime: string;
  endTime: string;
  agent: string;
  otherAgents: string;
  envState: string;
  types: string;
  aggregation: string;
  filter: string;
  partialOrder: string;
}

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
const pairs = (s: string) => Object.fromEntries(s.split('\n').map((l) => l.split(':').map((x) => x.trim())).filter((p) => p.length === 2 && p[0] && p[1]) as [string, string][]);
const unpairs = (o: unknown) => (o && typeof o === 'object' ? Object.entries(o as Record<string, unknown>).map(([k, v]) => `${k}: ${String(v)}`).join('\n') : '');
const arr = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

function toForm(s: SchemeRow | null): SchemeForm {
  const d = (s?.data ?? {}) as Record<string, unknown>;
  const dims = (d.dimensions ?? {}) as Record<string, unknown>;
  return {
    name: s?.name ?? '',
    description: s?.description ?? '',
    period: s?.period ?? 'day',
    startTime: s?.startTime?.slice(0, 10) ?? '',
    endTime: s?.endTime?.slice(0, 10) ?? '',
    agent: arr(dims.agent).join(', '),
    otherAgents: arr(dims.otherAgents).join(', '),
    envState: arr(dims.environment).join(', '),
    types: unpairs(d.types),
    aggregation: unpairs(d.aggregation),
    filter: typeof d.filter === 'string' ? d.filter : '',
    partialOrder: arr(d.partialOrder).join('\n'),
  };
}

/** Scheme checks (spec workflow §5 "Scheme"). */
export function validateScheme(f: SchemeForm): FormErrors {
  const e: FormErrors = {};
  if (!f.name.trim()) e.name = 'errors.required';
  else if (f.name.trim().length > 50) e.name = 'errors.nameTooLong';
  if (!f.period) e.period = 'errors.required';
  const okDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
  if (!okDate(f.startTime)) e.startTime = 'errors.required';
  if (!okDate(f.endTime)) e.endTime = 'errors.required';
  if (!e.startTime && !e.endTime && f.startTime >= f.endTime) e.endTime = 'scheme.timeOrder';
  return e;
}

function SchemeDialog({ solutionId, scheme, onClose }: { solutionId: string; scheme: SchemeRow | null; onClose: () => void }) {
  const { t } = useSchemeT();
  const notify = useNotify();
  const [f, setF] = useState(() => toForm(scheme));
  const [errors, setErrors] = useState<FormErrors>({});
  const [create, c] = schemeApi.endpoints['scheme/create'].useMutation();
  const [setScheme, s] = schemeApi.endpoints['scheme/set'].useMutation();
  const up = (k: keyof SchemeForm) => (e: { target: { value: string } }) => setF((o) => ({ ...o, [k]: e.target.value }));
  const submit = async () => {
    const e = validateScheme(f);
    if (e.endTime === 'scheme.timeOrder') e.endTime = t('scheme.timeOrder');
    setErrors(e);
    if (Object.keys(e).length) return;
    const body = {
      solutionId,
      name: f.name.trim(),
      description: f.description,
      period: f.period,
      startTime: f.startTime,
      endTime: f.endTime,
      data: {
        dimensions: { agent: list(f.agent), otherAgents: list(f.otherAgents), environment: list(f.envState) },
        types: pairs(f.types),
        aggregation: pairs(f.aggregation),
        filter: f.filter,
        partialOrder: f.partialOrder.split('\n').map((x) => x.trim()).filter(Boolean),
      },
    };
    try {
      if (scheme) await setScheme({ ...body, id: scheme.id }).unwrap();
      else await create(body).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      onClose();
    } catch (err) {
      setErrors(serverErrors(err));
    }
  };
  const text = (k: keyof SchemeForm, label: string, area = false) => (
    <Field label={label} id={`scheme-${k}`} name={k} errors={errors}>
      {area ? <TextArea id={`scheme-${k}`} fill value={f[k]} onChange={up(k)} className="modelling-code" style={{ minHeight: 64 }} /> : <InputGroup id={`scheme-${k}`} value={f[k]} onChange={up(k)} placeholder={k === 'agent' || k === 'otherAgents' || k === 'envState' ? t('scheme.fieldsHint') : undefined} />}
    </Field>
  );
  return (
    <Dialog isOpen onClose={onClose} title={scheme ? scheme.name : t('scheme.new')} style={{ width: 720 }} canEscapeKeyClose>
      <form
        noValidate
        onSubmit={(ev) => {
          ev.preventDefault();
          void submit();
        }}
      >
        <DialogBody>
          {errors._form && <Callout intent="danger">{errors._form}</Callout>}
          <div className="modelling-form-grid">
            {text('name', t('common.name'))}
            {text('description', t('common.description'))}
            <Field label={t('scheme.period')} id="scheme-period" name="period" errors={errors}>
              <HTMLSelect id="scheme-period" fill value={f.period} onChange={up('period')}>
                {PERIODS.map((p) => (
                  <option key={p} value={p}>
                    {t(`scheme.periods.${p}`)}
                  </option>
                ))}
              </HTMLSelect>
            </Field>
            <Field label={t('scheme.startTime')} id="scheme-start" name="startTime" errors={errors}>
              <InputGroup id="scheme-start" type="date" value={f.startTime} onChange={up('startTime')} />
            </Field>
            <Field label={t('scheme.endTime')} id="scheme-end" name="endTime" errors={errors}>
              <InputGroup id="scheme-end" type="date" value={f.endTime} onChange={up('endTime')} />
            </Field>
          </div>
          <h5 className="bp6-heading">{t('scheme.dimensions')}</h5>
          <div className="modelling-form-grid">
            {text('agent', t('scheme.agent'))}
            {text('otherAgents', t('scheme.otherAgents'))}
            {text('envState', t('scheme.envState'))}
          </div>
          {text('types', t('scheme.types'), true)}
          {text('aggregation', t('scheme.aggregation'), true)}
          {text('filter', t('scheme.filter'))}
          {text('partialOrder', t('scheme.partialOrder'), true)}
        </DialogBody>
        <FormDialogFooter onClose={onClose} loading={c.isLoading || s.isLoading} submitLabel={t('common.save')} testId="scheme-submit" />
      </form>
    </Dialog>
  );
}

/** Schemes of the solution with their data processing. */
export function SchemesPanel(_props: PanelProps) {
  const { t } = useSchemeT();
  const notify = useNotify();
  const solutionId = useSolutionId();
  const [editing, setEditing] = useState<{ scheme: SchemeRow | null } | null>(null);
  const [deleting, setDeleting] = useState<SchemeRow | null>(null);
  const [poll, setPoll] = useState(0);
  const q = trainingsApi.endpoints['trainings/schemes'].useQuery({ solutionId: solutionId ?? '' }, { skip: !solutionId, pollingInterval: poll });
  useEffect(() => setPoll(q.data?.rows.some((s) => s.processState === 'processing') ? 5000 : 0), [q.data]);
  const [process] = schemeApi.endpoints['scheme/process'].useMutation();
  const [remove] = schemeApi.endpoints['scheme/delete'].useMutation();
  if (!solutionId) return <NoSolution />;
  const full = (q.data?.total ?? 0) >= MODELLING_LIMITS.schemesPerSolution;
  const act = async (fn: () => Promise<unknown>, ok: string) => {
    try {
      await fn();
      notify({ message: ok, intent: 'success', icon: 'tick' });
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: t('common.failed', { message: isApiError(err) ? err.message : String(err) }), intent: 'danger', icon: 'error' });
    }
  };
  const newButton = (
    <Button icon="add" intent="primary" disabled={full} title={full ? t('scheme.limit') : undefined} onClick={() => setEditing({ scheme: null })} data-testid="modelling-new">
      {t('scheme.new')}
    </Button>
  );
  return (
    <div className="modelling-panel" data-testid="modelling-scheme">
      <div className="modelling-toolbar">
        <span className="spacer" />
        {newButton}
      </div>
      <ListStates query={q} emptyTitle={t('empty.scheme')} emptyHint={t('empty.schemeHint')} emptyIcon="layout-grid" action={newButton}>
        <HTMLTable compact striped style={{ width: '100%' }}>
          <thead>
            <tr>
              <th>{t('common.name')}</th>
              <th>{t('scheme.period')}</th>
              <th>{t('scheme.startTime')}</th>
              <th>{t('scheme.endTime')}</th>
              <th>{t('scheme.processState')}</th>
              <th>{t('scheme.rows')}</th>
              <th>{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {(q.data?.rows ?? []).map((s) => (
              <tr key={s.id} data-testid="scheme-row">
                <td>{s.name}</td>
                <td>{PERIODS.includes(s.period as never) ? t(`scheme.periods.${s.period as (typeof PERIODS)[number]}`) : s.period}</td>
                <td>{s.startTime?.slice(0, 10)}</td>
                <td>{s.endTime?.slice(0, 10)}</td>
                <td>
                  <StateTag state={s.processState} />
                  {s.processState === 'processing' && <ProgressBar intent="primary" stripes animate />}
                </td>
                <td>{s.rows ?? t('common.none')}</td>
                <td>
                  <ButtonGroup minimal>
                    <Button small icon="play" disabled={s.processState === 'processing'} data-testid="scheme-process" onClick={() => void act(() => process({ id: s.id }).unwrap(), t('scheme.process'))}>
                      {t('scheme.process')}
                    </Button>
                    <Button small icon="edit" disabled={s.processState === 'processing'} onClick={() => setEditing({ scheme: s })}>
                      {t('common.detail')}
                    </Button>
                    <Button small icon="trash" intent="danger" onClick={() => setDeleting(s)}>
                      {t('common.delete')}
                    </Button>
                  </ButtonGroup>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ListStates>
      {editing && <SchemeDialog solutionId={solutionId} scheme={editing.scheme} onClose={() => setEditing(null)} />}
      <DeleteConfirm
        name={deleting?.name ?? null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const d = deleting!;
          setDeleting(null);
          void act(() => remove({ id: d.id }).unwrap(), t('common.deleted'));
        }}
      />
    </div>
  );
}
