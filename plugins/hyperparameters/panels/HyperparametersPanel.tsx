import { useState } from 'react';
import { Button, ButtonGroup, Callout, Dialog, DialogBody, HTMLSelect, HTMLTable, InputGroup } from '@blueprintjs/core';
import { isApiError, useLocale, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { hyperparametersApi } from '../api';
import { useHyperparametersT } from '../i18n';
import { ALGORITHMS, DeleteConfirm, Field, formatTime, ListStates, serverErrors, FormDialogFooter, trainingsApi, type FormErrors, type HyperparameterRow } from '@decisio/sdk-plugin/trainings';

type TrainType = HyperparameterRow['trainType'];
const TRAIN_TYPES: TrainType[] = ['environment', 'policy', 'parameter'];
interface ParamRow {
  name: string;
  type: string;
  default: string;
  searchMode: string;
  searchValues: string;
}

const show = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));

/** Parses the rows; a row whose default or search values are not JSON is an error (spec: parsing errors rejected). */
export function parseParams(rows: ParamRow[]): { params: { name: string; type?: string; default?: unknown; searchMode?: string; searchValues?: unknown[] }[]; error: { row: number; what: string } | null } {
  const params = [];
  for (const [i, r] of rows.entries()) {
    if (!r.name.trim()) return { params: [], error: { row: i + 1, what: 'name' } };
    const p: { name: string; type?: string; default?: unknown; searchMode?: string; searchValues?: unknown[] } = { name: r.name.trim() };
    if (r.type) p.type = r.type;
    if (r.default.trim()) {
      try {
        p.default = JSON.parse(r.default);
      } catch {
        return { params: [], error: { row: i + 1, what: 'default' } };
      }
    }
    if (r.searchMode) p.searchMode = r.searchMode;
    if (r.searchValues.trim()) {
      try {
        const v: unknown = JSON.parse(r.searchValues);
        if (!Array.isArray(v)) throw new Error('not an array');
        p.searchValues = v;
      } catch {
        return { params: [], error: { row: i + 1, what: 'searchValues' } };
      }
    }
    params.push(p);
  }
  return { params, error: null };
}

function HyperDialog({ set, onClose }: { set: HyperparameterRow | null; onClose: () => void }) {
  const { t } = useHyperparametersT();
  const notify = useNotify();
  const [name, setName] = useState(set?.name ?? '');
  const [description, setDescription] = useState(set?.description ?? '');
  const [trainType, setTrainType] = useState<TrainType>(set?.trainType ?? 'environment');
  const [algorithm, setAlgorithm] = useState(set?.algorithm ?? ALGORITHMS.environment[0]!);
  const [rows, setRows] = useState<ParamRow[]>(() => (set?.params ?? []).map((p) => ({ name: p.name, type: p.type ?? 'float', default: show(p.default), searchMode: p.searchMode ?? 'fixed', searchValues: show(p.searchValues) })));
  const [errors, setErrors] = useState<FormErrors>({});
  const [create, c] = hyperparametersApi.endpoints['hyperparameters/create'].useMutation();
  const [edit, e2] = hyperparametersApi.endpoints['hyperparameters/edit'].useMutation();
  const upd = (i: number, k: keyof ParamRow, v: string) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, [k]: v } : r)));
  const submit = async () => {
    const e: FormErrors = {};
    if (!name.trim()) e.name = 'errors.required';
    const parsed = parseParams(rows);
    if (parsed.error) e.params = t('hyper.parseError', { row: parsed.error.row, what: parsed.error.what });
    setErrors(e);
    if (Object.keys(e).length) return;
    const body = { name: name.trim(), description, trainType, algorithm, params: parsed.params };
    try {
      if (set) await edit({ ...body, id: set.id }).unwrap();
      else await create(body).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick' });
      onClose();
    } catch (err) {
      setErrors(serverErrors(err));
    }
  };
  return (
    <Dialog isOpen onClose={onClose} title={set ? set.name : t('hyper.new')} style={{ width: 860 }} canEscapeKeyClose>
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
            <Field label={t('common.name')} id="hyper-name" name="name" errors={errors}>
              <InputGroup id="hyper-name" autoFocus value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
            <Field label={t('common.description')} id="hyper-desc" name="description" errors={errors}>
              <InputGroup id="hyper-desc" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
            </Field>
            <Field label={t('hyper.trainType')} id="hyper-type" name="trainType" errors={errors}>
              <HTMLSelect
                id="hyper-type"
                fill
                value={trainType}
                onChange={(e) => {
                  const tt = e.target.value as TrainType;
                  setTrainType(tt);
                  setAlgorithm(ALGORITHMS[tt][0]!);
                }}
              >
                {TRAIN_TYPES.map((x) => (
                  <option key={x} value={x}>
                    {t(`hyper.trainTypes.${x}`)}
                  </option>
                ))}
              </HTMLSelect>
            </Field>
            <Field label={t('common.algorithm')} id="hyper-algo" name="algorithm" errors={errors}>
              <HTMLSelect id="hyper-algo" fill value={algorithm} onChange={(e) => setAlgorithm(e.target.value)}>
                {ALGORITHMS[trainType].map((a) => (
                  <option key={a} value={a}>
                    {t(`algorithms.${a}` as Parameters<typeof t>[0])}
                  </option>
                ))}
              </HTMLSelect>
            </Field>
          </div>
          <Field label={t('hyper.params')} id="hyper-params" name="params" errors={errors}>
            <HTMLTable compact id="hyper-params" style={{ width: '100%' }}>
              <thead>
                <tr>
                  <th>{t('hyper.paramName')}</th>
                  <th>{t('hyper.paramType')}</th>
                  <th>{t('hyper.paramDefault')}</th>
                  <th>{t('hyper.searchMode')}</th>
                  <th>{t('hyper.searchValues')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={i}>
                    <td>
                      <InputGroup aria-label={t('hyper.paramName')} value={r.name} onChange={(e) => upd(i, 'name', e.target.value)} />
                    </td>
                    <td>
                      <HTMLSelect aria-label={t('hyper.paramType')} value={r.type} onChange={(e) => upd(i, 'type', e.target.value)}>
                        {['int', 'float', 'bool', 'string'].map((x) => (
                          <option key={x}>{x}</option>
                        ))}
                      </HTMLSelect>
                    </td>
                    <td>
                      <InputGroup aria-label={t('hyper.paramDefault')} value={r.default} onChange={(e) => upd(i, 'default', e.target.value)} />
                    </td>
                    <td>
                      <HTMLSelect aria-label={t('hyper.searchMode')} value={r.searchMode} onChange={(e) => upd(i, 'searchMode', e.target.value)}>
                        {['fixed', 'grid', 'choice', 'continuous'].map((x) => (
                          <option key={x}>{x}</option>
                        ))}
                      </HTMLSelect>
                    </td>
                    <td>
                      <InputGroup aria-label={t('hyper.searchValues')} value={r.searchValues} onChange={(e) => upd(i, 'searchValues', e.target.value)} />
                    </td>
                    <td>
                      <Button small minimal icon="cross" aria-label={t('common.delete')} onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </Field>
          <Button icon="add" onClick={() => setRows((rs) => [...rs, { name: '', type: 'float', default: '', searchMode: 'fixed', searchValues: '' }])}>
            {t('hyper.addParam')}
          </Button>
        </DialogBody>
        <FormDialogFooter onClose={onClose} loading={c.isLoading || e2.isLoading} submitLabel={t('common.save')} />
      </form>
    </Dialog>
  );
}

/** `/hyperparameter` and `/hyperparameter/custom-model`: the user's hyperparameter sets. */
export function HyperparametersPanel(_props: PanelProps) {
  const { t } = useHyperparametersT();
  const locale = useLocale();
  const notify = useNotify();
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
          void remove({ id: d.id })
            .unwrap()
            .then(
              () => notify({ message: t('common.deleted'), intent: 'success', icon: 'trash' }),
              (err: unknown) => {
                if (!isApiError(err) || !err.handled) notify({ message: t('common.failed', { message: isApiError(err) ? err.message : String(err) }), intent: 'danger', icon: 'error' });
              },
            );
        }}
      />
    </div>
  );
}
