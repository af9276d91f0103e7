import { useMemo, useState } from 'react';
import { Button, ButtonGroup, Callout, FormGroup, HTMLSelect, HTMLTable, InputGroup, Switch, TextArea } from '@blueprintjs/core';
import { algorithmHyperparameters, hyperparameterSetIssueMessage, hyperparameterSetIssues, hyperparameterTakes, HYPERPARAMETER_SEARCH_MODES, TRAINING_ALGORITHMS, type HyperparameterSearchMode, type HyperparameterSetParam, type HyperparameterSpec } from '@decisio/domain';
import { CrudFormDialog, isApiError, useLocale, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { hyperparametersApi } from '../api';
import { useHyperparametersT } from '../i18n';
import { formParams, formRows, parseParamsJson, type HyperRow } from '../model/hyper-form';
import { AlgorithmOptions, DeleteConfirm, Field, formatTime, ListStates, serverErrors, trainingsApi, useAct, type FormErrors, type HyperparameterRow } from '@decisio/sdk-plugin/trainings';

type TrainType = HyperparameterRow['trainType'];
const TRAIN_TYPES: TrainType[] = ['environment', 'policy', 'parameter'];

/** One hyperparameter's inputs: the default as the schema takes it, the search mode and values. */
function HyperRowInputs(props: { spec: HyperparameterSpec; row: HyperRow; error: string | undefined; onChange: (patch: Partial<HyperRow>) => void }) {
  const { t } = useHyperparametersT();
  const locale = useLocale();
  const { spec, row } = props;
  const label = t(`hyper.fields.${spec.name}` as Parameters<typeof t>[0]);
  const takes = hyperparameterTakes(spec, locale);
  const aria = (what: string) => `${what}: ${spec.name}`;
  const input = (what: string, value: string, onChange: (v: string) => void, placeholder?: string) => (
    <InputGroup small aria-label={aria(what)} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} intent={props.error ? 'danger' : 'none'} />
  );
  const select = (what: string, value: string, options: readonly string[], onChange: (v: string) => void) => (
    <HTMLSelect aria-label={aria(what)} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{t('hyper.unset')}</option>
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </HTMLSelect>
  );
  return (
    <tr data-testid="hyper-row">
      <td>
        <code>{spec.name}</code>
        <div className="bp6-text-muted bp6-text-small">{label === `hyper.fields.${spec.name}` ? takes : `${label} · ${takes}`}</div>
      </td>
      <td>
        {spec.input === 'bool'
          ? select(t('hyper.paramDefault'), row.default, ['true', 'false'], (v) => props.onChange({ default: v }))
          : spec.input === 'choice'
            ? select(t('hyper.paramDefault'), row.default, spec.options ?? [], (v) => props.onChange({ default: v }))
            : input(t('hyper.paramDefault'), row.default, (v) => props.onChange({ default: v }), spec.input === 'intList' ? '64, 64' : undefined)}
      </td>
      <td>
        <HTMLSelect aria-label={aria(t('hyper.searchMode'))} value={row.searchMode} disabled={!spec.searchable && row.searchMode === 'fixed'} title={spec.searchable ? undefined : t('hyper.notSearchable')} onChange={(e) => props.onChange({ searchMode: e.target.value as HyperparameterSearchMode })}>
          {HYPERPARAMETER_SEARCH_MODES.map((m) => (
            <option key={m} value={m}>
              {t(`hyper.searchModes.${m}`)}
            </option>
          ))}
        </HTMLSelect>
      </td>
      <td>
        {row.searchMode === 'continuous' && (
          <ButtonGroup>
            {input(t('hyper.min'), row.min, (v) => props.onChange({ min: v }), t('hyper.min'))}
            {input(t('hyper.max'), row.max, (v) => props.onChange({ max: v }), t('hyper.max'))}
          </ButtonGroup>
        )}
        {(row.searchMode === 'grid' || row.searchMode === 'choice') && input(t('hyper.searchValues'), row.values, (v) => props.onChange({ values: v }), spec.input === 'intList' ? '32, 32; 64, 64' : '1, 2, 3')}
        {props.error && (
          <FormGroup intent="danger" helperText={props.error} style={{ margin: 0 }} />
        )}
      </td>
    </tr>
  );
}

/** Errors of the params by hyperparameter name (form) and as a list (JSON), from the check or the server. */
function paramErrors(params: readonly HyperparameterSetParam[], errors: FormErrors): { byName: Record<string, string>; list: string[]; rest: FormErrors } {
  const byName: Record<string, string> = {};
  const list: string[] = [];
  const rest: FormErrors = {};
  for (const [place, message] of Object.entries(errors)) {
    if (message === undefined) continue;
    const m = /^params\.(\d+)\./.exec(place);
    if (!m) {
      rest[place] = message;
      continue;
    }
    const name = params[Number(m[1])]?.name ?? place;
    byName[name] ??= message;
    list.push(message);
  }
  return { byName, list, rest };
}

function HyperDialog({ set, onClose }: { set: HyperparameterRow | null; onClose: () => void }) {
  const { t } = useHyperparametersT();
  const locale = useLocale();
  const notify = useNotify();
  const [name, setName] = useState(set?.name ?? '');
  const [description, setDescription] = useState(set?.description ?? '');
  const [trainType, setTrainType] = useState<TrainType>(set?.trainType ?? 'environment');
  const [algorithm, setAlgorithm] = useState<string>(set?.algorithm ?? TRAINING_ALGORITHMS.environment[0]);
  const specs = useMemo(() => algorithmHyperparameters(trainType, algorithm), [trainType, algorithm]);
  const [form, setForm] = useState(() => formRows(algorithmHyperparameters(set?.trainType ?? 'environment', set?.algorithm ?? TRAINING_ALGORITHMS.environment[0]), set?.params ?? []));
  const [json, setJson] = useState<string | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [sent, setSent] = useState<HyperparameterSetParam[]>([]);
  const [create, c] = hyperparametersApi.endpoints['hyperparameters/create'].useMutation();
  const [edit, e2] = hyperparametersApi.endpoints['hyperparameters/edit'].useMutation();
  const current = () => formParams(specs, form.rows, form.extra);
  /** Another algorithm: its rows, keeping what was typed for the names it shares. */
  const switchTo = (tt: TrainType, algo: string) => {
    const params = json === null ? current() : [];
    setTrainType(tt);
    setAlgorithm(algo);
    if (json === null) setForm(formRows(algorithmHyperparameters(tt, algo), params));
  };
  /** The params of the JSON text, or an error shown under it. */
  const fromJson = (text: string): HyperparameterSetParam[] | null => {
    const r = parseParamsJson(text);
    if ('params' in r) return r.params;
    setErrors({ params: r.error === 'json' ? t('hyper.jsonInvalid', { message: r.message }) : t('hyper.jsonShape') });
    return null;
  };
  const toggleJson = (on: boolean) => {
    if (on) {
      setJson(JSON.stringify(current(), null, 2));
      setErrors({});
      return;
    }
    const params = fromJson(json ?? '[]');
    if (!params) return;
    setForm(formRows(specs, params));
    setJson(null);
    setErrors({});
  };
  const submit = async () => {
    const e: FormErrors = {};
    if (!name.trim()) e.name = 'errors.required';
    const params = json === null ? current() : fromJson(json);
    if (!params) return;
    for (const issue of hyperparameterSetIssues(trainType, algorithm, params)) e[issue.path] = hyperparameterSetIssueMessage(issue, locale);
    setSent(params);
    setErrors(e);
    if (Object.keys(e).length) return;
    const body = { name: name.trim(), description, trainType, algorithm, params };
    try {
      if (set) await edit({ ...body, id: set.id }).unwrap();
      else await create(body).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      onClose();
    } catch (err) {
      setErrors(serverErrors(err));
    }
  };
  const shown = paramErrors(sent, errors);
  const extraNames = form.extra.map((p) => p.name).join(', ');
  return (
    <CrudFormDialog
      title={set ? set.name : t('hyper.new')}
      width={900}
      formId="hyper-form-dialog"
      noValidate
      onClose={onClose}
      onSubmit={() => void submit()}
      saving={c.isLoading || e2.isLoading}
      saveTestId="hyper-submit"
      labels={{ cancel: t('common.cancel'), save: t('common.save') }}
      formError={shown.rest._form}
    >
      <div className="modelling-form-grid">
        <Field label={t('common.name')} id="hyper-name" name="name" errors={shown.rest}>
          <InputGroup id="hyper-name" autoFocus value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('common.description')} id="hyper-desc" name="description" errors={shown.rest}>
          <InputGroup id="hyper-desc" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <Field label={t('hyper.trainType')} id="hyper-type" name="trainType" errors={shown.rest}>
          <HTMLSelect id="hyper-type" fill value={trainType} onChange={(e) => switchTo(e.target.value as TrainType, TRAINING_ALGORITHMS[e.target.value as TrainType][0])}>
            {TRAIN_TYPES.map((x) => (
              <option key={x} value={x}>
                {t(`hyper.trainTypes.${x}`)}
              </option>
            ))}
          </HTMLSelect>
        </Field>
        <Field label={t('common.algorithm')} id="hyper-algo" name="algorithm" errors={shown.rest}>
          <HTMLSelect id="hyper-algo" fill value={algorithm} onChange={(e) => switchTo(trainType, e.target.value)}>
            <AlgorithmOptions kind={trainType} />
          </HTMLSelect>
        </Field>
      </div>
      <Switch checked={json !== null} label={t('hyper.rawJson')} onChange={(e) => toggleJson(e.currentTarget.checked)} data-testid="hyper-json-toggle" />
      {json !== null ? (
        <FormGroup label={t('hyper.params')} labelFor="hyper-json" helperText={t('hyper.rawJsonHint')}>
          <TextArea id="hyper-json" fill value={json} onChange={(e) => setJson(e.target.value)} className="modelling-code" style={{ minHeight: 220 }} />
          {(shown.rest.params || shown.list.length > 0) && (
            <Callout intent="danger" compact data-testid="hyper-json-errors">
              <ul className="bp6-list">
                {shown.rest.params && <li>{shown.rest.params}</li>}
                {shown.list.map((m, i) => (
                  <li key={i}>{m}</li>
                ))}
              </ul>
            </Callout>
          )}
        </FormGroup>
      ) : (
        <>
          {form.extra.length > 0 && (
            <Callout intent="warning" compact>
              {t('hyper.extra', { names: extraNames })}{' '}
              <Button small minimal onClick={() => setForm((f) => ({ ...f, extra: [] }))}>
                {t('hyper.removeExtra')}
              </Button>
              {form.extra.some((p) => shown.byName[p.name]) && (
                <ul className="bp6-list">
                  {form.extra.filter((p) => shown.byName[p.name]).map((p) => (
                    <li key={p.name}>{shown.byName[p.name]}</li>
                  ))}
                </ul>
              )}
            </Callout>
          )}
          {shown.rest.params && <Callout intent="danger">{shown.rest.params}</Callout>}
          {specs.length === 0 ? (
            <Callout>{t('hyper.noParams')}</Callout>
          ) : (
            <HTMLTable compact striped style={{ width: '100%' }} data-testid="hyper-form">
              <thead>
                <tr>
                  <th>{t('hyper.paramName')}</th>
                  <th>{t('hyper.paramDefault')}</th>
                  <th>{t('hyper.searchMode')}</th>
                  <th title={t('hyper.searchHint')}>{t('hyper.searchValues')}</th>
                </tr>
              </thead>
              <tbody>
                {specs.map((spec) => (
                  <HyperRowInputs
                    key={spec.name}
                    spec={spec}
                    row={form.rows[spec.name]!}
                    error={shown.byName[spec.name]}
                    onChange={(patch) => setForm((f) => ({ ...f, rows: { ...f.rows, [spec.name]: { ...f.rows[spec.name]!, ...patch } } }))}
                  />
                ))}
              </tbody>
            </HTMLTable>
          )}
        </>
      )}
    </CrudFormDialog>
  );
}

/** `/hyperparameter` and `/hyperparameter/custom-model`: the user's hyperparameter sets. */
export function HyperparametersPanel(_props: PanelProps) {
  const { t } = useHyperparametersT();
  const locale = useLocale();
  const act = useAct();
  const [filter, setFilter] = useState<TrainType | ''>('');
  const [editing, setEditing] = useState<{ set: HyperparameterRow | null } | null>(null);
  const [deleting, setDeleting] = useState<HyperparameterRow | null>(null);
  const q = trainingsApi.endpoints['trainings/hypers'].useQuery(filter ? { trainType: filter } : {});
  const [remove] = hyperparametersApi.endpoints['hyperparameters/delete'].useMutation();
  const newButton = (
    <Button icon="add" intent="primary" onClick={() => setEditing({ set: null })} data-testid="modelling-new">
      {t('hyper.new')}
    </Button>
  );
  return (
    <div className="modelling-panel" data-testid="modelling-hyper">
      <div className="modelling-toolbar">
        <HTMLSelect aria-label={t('hyper.trainType')} value={filter} onChange={(e) => setFilter(e.target.value as TrainType | '')}>
          <option value="">{t('hyper.trainType')}</option>
          {TRAIN_TYPES.map((x) => (
            <option key={x} value={x}>
              {t(`hyper.trainTypes.${x}`)}
            </option>
          ))}
        </HTMLSelect>
        <span className="spacer" />
        {newButton}
      </div>
      <ListStates query={q} emptyTitle={t('empty.hyper')} emptyHint={t('empty.hyperHint')} emptyIcon="properties" action={newButton}>
        <HTMLTable compact striped style={{ width: '100%' }}>
          <thead>
            <tr>
              <th>{t('common.name')}</th>
              <th>{t('hyper.trainType')}</th>
              <th>{t('common.algorithm')}</th>
              <th>{t('hyper.params')}</th>
              <th>{t('common.createdAt')}</th>
              <th>{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {(q.data?.rows ?? []).map((h) => (
              <tr key={h.id}>
                <td>{h.name}</td>
                <td>{t(`hyper.trainTypes.${h.trainType}`)}</td>
                <td>{h.algorithm}</td>
                <td>{(h.params ?? []).length}</td>
                <td>{formatTime(h.updatedAt ?? h.createdAt, locale)}</td>
                <td>
                  <ButtonGroup minimal>
                    <Button small icon="edit" onClick={() => setEditing({ set: h })}>
                      {t('common.detail')}
                    </Button>
                    <Button small icon="trash" intent="danger" onClick={() => setDeleting(h)}>
                      {t('common.delete')}
                    </Button>
                  </ButtonGroup>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </ListStates>
      {editing && <HyperDialog set={editing.set} onClose={() => setEditing(null)} />}
      <DeleteConfirm
        name={deleting?.name ?? null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const d = deleting!;
          setDeleting(null);
          void act(() => remove({ id: d.id }).unwrap(), t('common.deleted'), 'trash');
        }}
      />
    </div>
  );
}
