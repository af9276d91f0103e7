import { useEffect, useState } from 'react';
import { Button, ButtonGroup, Callout, DialogBody, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, ProgressBar, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { MODELLING_LIMITS, SCHEME_AGGREGATIONS, SCHEME_DERIVED_OPS, SCHEME_PERIODS, SCHEME_TYPE_KINDS, type CorrelationTable, type SchemeDerivedOp } from '@decisio/domain';
import { Dialog, CrudForm, isApiError, useNotify, useProjectEditRight, type PanelProps } from '@decisio/sdk-plugin';
import { schemeApi } from '../api';
import { useSchemeT } from '../i18n';
import { DIMENSIONS, rangeMissesData, schemeData, schemeForm, validateSchemeForm, type Dimension, type FieldChoice, type GraphNodes, type SchemeForm } from '../model/scheme-form';
import { DeleteConfirm, Field, ListStates, NoSolution, serverErrors, StateTag, trainingsApi, useAct, useProjectId, useSolutionId, type FormErrors, type SchemeRow } from '@decisio/sdk-plugin/trainings';

const OP_NAMES: Record<SchemeDerivedOp, 'add' | 'sub' | 'mul' | 'div' | 'and'> = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '&': 'and' };
/** `2026-01-01T00:00:00.000Z` -> `2026-01-01 00:00` (UTC, as the processing reads the range). */
const utc = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** The editor of one scheme: loads the data it starts from, then the form. `refused`: why the user may not save (view right, locked project). */
function SchemeDialog({ solutionId, scheme, refused, onClose }: { solutionId: string; scheme: SchemeRow | null; refused: string | undefined; onClose: () => void }) {
  const { t } = useSchemeT();
  const table = schemeApi.endpoints['scheme/table'].useQuery({ solutionId }, { refetchOnMountOrArgChange: true });
  const pattern = trainingsApi.endpoints['trainings/pattern'].useQuery({ solutionId }, { skip: scheme !== null });
  const ready = !table.isLoading && (scheme !== null || !pattern.isLoading);
  // The SDK's Dialog registers its opener as it first renders; the form's CrudForm, shown once the
  // data is in, leaves that to it (and gets the focus on its first field when it arrives).
  return (
    <Dialog isOpen onClose={onClose} title={scheme ? scheme.name : t('scheme.new')} style={{ width: 920 }} canEscapeKeyClose>
      {ready ? (
        <SchemeEditor solutionId={solutionId} scheme={scheme} refused={refused} table={table.data?.table ?? null} timeField={(table.data?.correlation as { datetimeField?: string } | null | undefined)?.datetimeField ?? null} tableError={table.error} graph={(pattern.data?.graph as GraphNodes | null | undefined) ?? null} onClose={onClose} />
      ) : (
        <DialogBody>
          <NonIdealState icon={<Spinner size={24} />} title={t('scheme.loadingData')} />
        </DialogBody>
      )}
    </Dialog>
  );
}

function SchemeEditor(props: { solutionId: string; scheme: SchemeRow | null; refused: string | undefined; table: CorrelationTable | null; timeField: string | null; tableError: unknown; graph: GraphNodes | null; onClose: () => void }) {
  const { solutionId, scheme, table, onClose } = props;
  const { t } = useSchemeT();
  const notify = useNotify();
  const [f, setF] = useState<SchemeForm>(() => schemeForm(scheme, table, props.graph));
  const [errors, setErrors] = useState<FormErrors>({});
  const [create, c] = schemeApi.endpoints['scheme/create'].useMutation();
  const [setScheme, s] = schemeApi.endpoints['scheme/set'].useMutation();
  const up = (k: 'name' | 'description' | 'period' | 'startTime' | 'endTime' | 'filter' | 'partialOrder') => (e: { target: { value: string } }) => setF((o) => ({ ...o, [k]: e.target.value }));
  const choose = (i: number, patch: Partial<FieldChoice>) => setF((o) => ({ ...o, fields: o.fields.map((x, j) => (j === i ? { ...x, choice: { ...x.choice, ...patch } } : x)) }));
  const derive = (i: number, patch: Partial<SchemeForm['derived'][number]>) => setF((o) => ({ ...o, derived: o.derived.map((x, j) => (j === i ? { ...x, ...patch } : x)) }));
  const tr = (key: string | undefined) => (key === undefined ? undefined : key.startsWith('scheme.') ? t(key as Parameters<typeof t>[0]) : key);
  const range = table?.dateRange ?? null;
  const misses = rangeMissesData(f, table);
  const fieldNames = [...f.fields.filter((x) => !x.missing).map((x) => x.name)];
  const submit = async () => {
    const e = validateSchemeForm(f);
    const shown: FormErrors = {};
    for (const [k, v] of Object.entries(e)) shown[k] = tr(v)!;
    setErrors(shown);
    if (Object.keys(e).length) return;
    const body = { solutionId, name: f.name.trim(), description: f.description, period: f.period, startTime: f.startTime, endTime: f.endTime, data: schemeData(f) };
    try {
      if (scheme) await setScheme({ ...body, id: scheme.id }).unwrap();
      else await create(body).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      onClose();
    } catch (err) {
      setErrors(serverErrors(err));
    }
  };
  const dimensionSelect = (value: Dimension, label: string, onChange: (d: Dimension) => void) => (
    <HTMLSelect aria-label={label} value={value} onChange={(e) => onChange(e.target.value as Dimension)}>
      <option value="">{t('scheme.dims.none')}</option>
      {DIMENSIONS.map((d) => (
        <option key={d} value={d}>
          {t(`scheme.dims.${d}`)}
        </option>
      ))}
    </HTMLSelect>
  );
  const fieldSelect = (value: string, label: string, onChange: (v: string) => void) => (
    <HTMLSelect aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{t('scheme.choose')}</option>
      {fieldNames.map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </HTMLSelect>
  );
  const serverPlace = (k: string) => errors[k] && <Callout intent="danger" compact>{errors[k]}</Callout>;
  return (
    <CrudForm
      formId="scheme-form"
      noValidate
      onClose={onClose}
      onSubmit={() => void submit()}
      saving={c.isLoading || s.isLoading}
      saveDisabled={props.refused !== undefined}
      saveTitle={props.refused}
      saveTestId="scheme-submit"
      labels={{ cancel: t('common.cancel'), save: t('common.save') }}
      formError={errors._form}
    >
      <Callout intent={props.tableError || !table ? 'warning' : 'primary'} icon="database" title={t('scheme.data')} data-testid="scheme-data" style={{ marginBottom: 12 }}>
        {props.tableError ? (
          <p>{t('scheme.tableFailed', { message: isApiError(props.tableError) ? props.tableError.message : String(props.tableError) })}</p>
        ) : !table ? (
          <p>{t('scheme.noCorrelation')}</p>
        ) : (
          <>
            <p>{t('scheme.dataSummary', { table: table.primary, rows: table.rows, fields: table.fields.length })}</p>
            {range ? (
              <p data-testid="scheme-date-range">
                {t('scheme.dateRange', { field: range.field, min: utc(range.min), max: utc(range.max) })}{' '}
                <Button small icon="calendar" onClick={() => setF((o) => ({ ...o, startTime: range.min.slice(0, 10), endTime: range.max.slice(0, 10) }))} data-testid="scheme-use-range">
                  {t('scheme.useDataRange')}
                </Button>
              </p>
            ) : (
              <p>{props.timeField ? t('scheme.noTimes', { field: props.timeField }) : t('scheme.noDateRange')}</p>
            )}
          </>
        )}
      </Callout>
      <div className="modelling-form-grid">
        <Field label={t('common.name')} id="scheme-name" name="name" errors={errors}>
          <InputGroup id="scheme-name" autoFocus value={f.name} onChange={up('name')} />
        </Field>
        <Field label={t('common.description')} id="scheme-description" name="description" errors={errors}>
          <InputGroup id="scheme-description" value={f.description} maxLength={MODELLING_LIMITS.description} onChange={up('description')} />
        </Field>
        <Field label={t('scheme.period')} id="scheme-period" name="period" errors={errors}>
          <HTMLSelect id="scheme-period" fill value={f.period} onChange={up('period')}>
            {!f.period && <option value="">{t('scheme.choose')}</option>}
            {SCHEME_PERIODS.map((p) => (
              <option key={p} value={p}>
                {t(`scheme.periods.${p}`)}
              </option>
            ))}
          </HTMLSelect>
        </Field>
        <Field label={t('scheme.startTime')} id="scheme-start" name="startTime" errors={errors}>
          <InputGroup id="scheme-start" type="date" value={f.startTime} min={range?.min.slice(0, 10)} max={range?.max.slice(0, 10)} onChange={up('startTime')} />
        </Field>
        <Field label={t('scheme.endTime')} id="scheme-end" name="endTime" errors={errors} hint={misses && range ? t('scheme.rangeMisses', { min: utc(range.min), max: utc(range.max) }) : undefined}>
          <InputGroup id="scheme-end" type="date" value={f.endTime} min={range?.min.slice(0, 10)} max={range?.max.slice(0, 10)} onChange={up('endTime')} intent={misses ? 'warning' : 'none'} />
        </Field>
      </div>
      <h5 className="bp6-heading">{t('scheme.fields')}</h5>
      {serverPlace('dimensions')}
      {serverPlace('types')}
      {serverPlace('aggregation')}
      <HTMLTable compact striped style={{ width: '100%' }} data-testid="scheme-fields">
        <thead>
          <tr>
            <th>{t('scheme.field')}</th>
            <th>{t('scheme.dimension')}</th>
            <th>{t('scheme.type')}</th>
            <th>{t('scheme.range')}</th>
            <th>{t('scheme.aggregation')}</th>
          </tr>
        </thead>
        <tbody>
          {f.fields.map(({ name, missing, choice }, i) => {
            const meta = table?.fields.find((x) => x.name === name);
            const err = errors[`field.${name}`];
            return (
              <tr key={name} data-testid="scheme-field">
                <td>
                  <strong>{name}</strong>{' '}
                  {meta && (
                    <Tag minimal title={t('scheme.fieldOf', { table: meta.table })}>
                      {meta.kind ?? meta.type}
                    </Tag>
                  )}
                  {missing && (
                    <Tag minimal intent="warning">
                      {t('scheme.missing')}
                    </Tag>
                  )}
                </td>
                <td>{dimensionSelect(choice.dimension, `${t('scheme.dimension')}: ${name}`, (d) => choose(i, { dimension: d }))}</td>
                <td>
                  <HTMLSelect aria-label={`${t('scheme.type')}: ${name}`} value={choice.type} onChange={(e) => choose(i, { type: e.target.value as FieldChoice['type'] })}>
                    <option value="">{t('scheme.typeKinds.none')}</option>
                    {SCHEME_TYPE_KINDS.map((k) => (
                      <option key={k} value={k}>
                        {t(`scheme.typeKinds.${k}`)}
                      </option>
                    ))}
                  </HTMLSelect>
                </td>
                <td>
                  {choice.type === 'continuous' && (
                    <ButtonGroup>
                      <InputGroup small aria-label={`${t('scheme.min')}: ${name}`} placeholder={meta?.min != null ? String(meta.min) : t('scheme.min')} value={choice.min} onChange={(e) => choose(i, { min: e.target.value })} style={{ width: 80 }} intent={err ? 'danger' : 'none'} />
                      <InputGroup small aria-label={`${t('scheme.max')}: ${name}`} placeholder={meta?.max != null ? String(meta.max) : t('scheme.max')} value={choice.max} onChange={(e) => choose(i, { max: e.target.value })} style={{ width: 80 }} intent={err ? 'danger' : 'none'} />
                    </ButtonGroup>
                  )}
                  {choice.type === 'discrete' && (
                    <InputGroup small aria-label={`${t('scheme.values')}: ${name}`} placeholder={t('scheme.values')} value={choice.values} onChange={(e) => choose(i, { values: e.target.value })} intent={err ? 'danger' : 'none'} />
                  )}
                  {err && (
                    <FormGroup intent="danger" helperText={err} style={{ margin: 0 }} />
                  )}
                </td>
                <td>
                  <HTMLSelect aria-label={`${t('scheme.aggregation')}: ${name}`} value={choice.aggregation} onChange={(e) => choose(i, { aggregation: e.target.value as FieldChoice['aggregation'] })}>
                    <option value="">{t('scheme.aggs.none')}</option>
                    {SCHEME_AGGREGATIONS.map((a) => (
                      <option key={a} value={a}>
                        {t(`scheme.aggs.${a}`)}
                      </option>
                    ))}
                  </HTMLSelect>
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
      <FormGroup label={t('scheme.derived')} helperText={t('scheme.derivedHint')}>
        {f.derived.map((d, i) => (
          <div key={i} className="modelling-toolbar" data-testid="scheme-derived">
            <InputGroup aria-label={`${t('scheme.derivedName')} ${i + 1}`} placeholder={t('scheme.derivedName')} value={d.name} onChange={(e) => derive(i, { name: e.target.value })} />
            {fieldSelect(d.left, `${t('scheme.left')} ${i + 1}`, (v) => derive(i, { left: v }))}
            <HTMLSelect aria-label={`${t('scheme.op')} ${i + 1}`} value={d.op} onChange={(e) => derive(i, { op: e.target.value as SchemeDerivedOp })}>
              {SCHEME_DERIVED_OPS.map((op) => (
                <option key={op} value={op}>
                  {t(`scheme.ops.${OP_NAMES[op]}`)}
                </option>
              ))}
            </HTMLSelect>
            {fieldSelect(d.right, `${t('scheme.right')} ${i + 1}`, (v) => derive(i, { right: v }))}
            {dimensionSelect(d.dimension, `${t('scheme.dimension')}: ${t('scheme.derivedName')} ${i + 1}`, (v) => derive(i, { dimension: v }))}
            <Button minimal icon="cross" aria-label={`${t('scheme.removeDerived')} ${i + 1}`} onClick={() => setF((o) => ({ ...o, derived: o.derived.filter((_, j) => j !== i) }))} />
            {errors[`derived.${i}`] && (
              <FormGroup intent="danger" helperText={errors[`derived.${i}`]} style={{ margin: 0 }} />
            )}
          </div>
        ))}
        <Button icon="add" small onClick={() => setF((o) => ({ ...o, derived: [...o.derived, { name: '', left: '', op: '+', right: '', dimension: '' }] }))} data-testid="scheme-add-derived">
          {t('scheme.addDerived')}
        </Button>
      </FormGroup>
      <Field label={t('scheme.filter')} id="scheme-filter" name="filter" errors={errors} hint={t('scheme.filterHint')}>
        <InputGroup id="scheme-filter" value={f.filter} onChange={up('filter')} className="modelling-code" />
      </Field>
      <Field label={t('scheme.partialOrder')} id="scheme-partialOrder" name="partialOrder" errors={errors}>
        <TextArea id="scheme-partialOrder" fill value={f.partialOrder} onChange={up('partialOrder')} className="modelling-code" style={{ minHeight: 64 }} />
      </Field>
    </CrudForm>
  );
}

/**
 * Schemes of the solution with their data processing; one list per solution: another starts
 * with no editor or dialog of this one's open.
 */
export function SchemesPanel(_props: PanelProps) {
  return <Schemes key={useSolutionId() ?? ''} />;
}

function Schemes() {
  const { t } = useSchemeT();
  const act = useAct();
  const solutionId = useSolutionId();
  // A user who may not change the project (view right, locked) may look at the schemes, not change them;
  // refused only once known (not while the project is read, nor without a project in the link: the server decides).
  const refused = useProjectEditRight(useProjectId()).reason;
  const [editing, setEditing] = useState<{ scheme: SchemeRow | null } | null>(null);
  const [deleting, setDeleting] = useState<SchemeRow | null>(null);
  const [poll, setPoll] = useState(0);
  const q = trainingsApi.endpoints['trainings/schemes'].useQuery({ solutionId: solutionId ?? '' }, { skip: !solutionId, pollingInterval: poll });
  useEffect(() => setPoll(q.data?.rows.some((s) => s.processState === 'processing') ? 5000 : 0), [q.data]);
  const [process] = schemeApi.endpoints['scheme/process'].useMutation();
  const [remove] = schemeApi.endpoints['scheme/delete'].useMutation();
  if (!solutionId) return <NoSolution />;
  const full = (q.data?.total ?? 0) >= MODELLING_LIMITS.schemesPerSolution;
  const newButton = (
    <Button icon="add" intent="primary" disabled={full || refused !== undefined} title={refused ?? (full ? t('scheme.limit') : undefined)} onClick={() => setEditing({ scheme: null })} data-testid="modelling-new">
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
                <td>{(SCHEME_PERIODS as readonly string[]).includes(s.period) ? t(`scheme.periods.${s.period as (typeof SCHEME_PERIODS)[number]}`) : s.period}</td>
                <td>{s.startTime?.slice(0, 10)}</td>
                <td>{s.endTime?.slice(0, 10)}</td>
                <td>
                  <StateTag state={s.processState} />
                  {s.processState === 'processing' && <ProgressBar intent="primary" stripes animate />}
                </td>
                <td>{s.rows ?? t('common.none')}</td>
                <td>
                  <ButtonGroup minimal>
                    <Button small icon="play" disabled={s.processState === 'processing' || refused !== undefined} title={refused} data-testid="scheme-process" onClick={() => void act(() => process({ id: s.id }).unwrap(), t('scheme.process'))}>
                      {t('scheme.process')}
                    </Button>
                    <Button small icon="edit" disabled={s.processState === 'processing'} onClick={() => setEditing({ scheme: s })}>
                      {t('common.detail')}
                    </Button>
                    <Button small icon="trash" intent="danger" disabled={refused !== undefined} title={refused} onClick={() => setDeleting(s)}>
                      {t('common.delete')}
                    </Button>
                  </ButtonGroup>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ListStates>
      {editing && <SchemeDialog solutionId={solutionId} scheme={editing.scheme} refused={refused} onClose={() => setEditing(null)} />}
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
