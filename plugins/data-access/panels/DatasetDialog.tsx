import { useEffect, useRef, useState } from 'react';
import { Button, Callout, Checkbox, DialogBody, DialogFooter, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { FIELD_DATA_TYPES, FIELD_KINDS, type FieldDataType } from '@decisio/domain';
import { Dialog, BusyButton, useFocusBackWhenDone, useNotify } from '@decisio/sdk-plugin';
import { dataAccessApi } from '../api';
import { cellText, failureMessage } from '../format';
import { useDataT } from '../i18n';
import { draftOf, toFieldSettings, validateFields, type FieldDraft, type FieldErrorKey } from '../model/fields';
import { PreviewTable } from './PreviewTable';

/** Most distinct values asked for when a category field is filled from the data. */
const VALUES_MAX = 1000;

/**
 * A dataset's server-side preview (`file/previewCSV`: first rows and statistics over all rows)
 * and its field settings (`table/setFields`); a category field's values can be filled from the
 * column's distinct values (`metadata/getColumnsValue`).
 */
export function DatasetDialog(props: { tableId: string | null; onClose(): void }) {
  const { t } = useDataT();
  const notify = useNotify();
  const skip = !props.tableId;
  const dataset = dataAccessApi.endpoints['data-access/get'].useQuery({ tableId: props.tableId ?? '' }, { skip });
  const preview = dataAccessApi.endpoints['data-access/preview'].useQuery({ tableId: props.tableId ?? '', rows: 20 }, { skip });
  const [save, saving] = dataAccessApi.endpoints['data-access/setFields'].useMutation();
  const [columnValues] = dataAccessApi.endpoints['data-access/columnValues'].useMutation();
  const [filling, setFilling] = useState<string | null>(null);
  const [rows, setRows] = useState<FieldDraft[]>([]);
  const [errors, setErrors] = useState<Record<string, FieldErrorKey>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (dataset.data) setRows(dataset.data.columns.map(draftOf));
    setErrors({});
    setServerErrors({});
  }, [dataset.data]);

  // A field's busy Fill drops the focus to the page: it comes back to the filled values (Save is a
  // BusyButton, which takes it back itself).
  const valuesRefs = useRef(new Map<string, HTMLInputElement>());
  useFocusBackWhenDone(filling, (column) => valuesRefs.current.get(column));

  const edit = (i: number, patch: Partial<FieldDraft>) => setRows((rs) => rs.map((r, k) => (k === i ? { ...r, ...patch } : r)));

  /** Fills a category field's values with the column's distinct numbers, ascending. */
  const fillValues = async (i: number, column: string) => {
    if (!props.tableId) return;
    setFilling(column);
    try {
      const { values } = await columnValues({ tableId: props.tableId, column, limit: VALUES_MAX }).unwrap();
      const numbers = [...new Set(values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)))].sort((a, b) => a - b);
      if (numbers.length === 0) {
        notify({ message: t('fields.fillNone', { column }), intent: 'warning', icon: 'warning-sign' });
        return;
      }
      edit(i, { values: numbers.join(', ') });
      if (numbers.length < values.length) notify({ message: t('fields.fillSkipped', { column, count: values.length - numbers.length }), intent: 'warning', icon: 'warning-sign' });
      else if (values.length >= VALUES_MAX) notify({ message: t('fields.fillCut', { column, count: VALUES_MAX }), intent: 'warning', icon: 'warning-sign' });
    } catch (err) {
      const m = failureMessage(err, t('fields.fillFailed'));
      if (m) notify({ message: m, intent: 'danger', icon: 'error' });
    } finally {
      setFilling(null);
    }
  };

  const submit = async () => {
    const e = validateFields(rows);
    setErrors(e);
    setServerErrors({});
    if (Object.keys(e).length > 0 || !props.tableId) return;
    try {
      await save({ tableId: props.tableId, fields: toFieldSettings(rows) }).unwrap();
      notify({ message: t('fields.saved'), intent: 'success', icon: 'tick' });
    } catch (err) {
      const m = failureMessage(err, t('upload.failed'));
      const fieldErrors = (err as { errors?: Record<string, string> }).errors;
      if (fieldErrors) setServerErrors(fieldErrors);
      else if (m) setServerErrors({ form: m });
    }
  };

  const p = preview.data;
  return (
    <Dialog isOpen={!!props.tableId} onClose={props.onClose} title={t('fields.title', { name: dataset.data?.name ?? '' })} icon="th" style={{ width: 1100, maxWidth: '96vw' }}>
      <DialogBody>
        {(dataset.isLoading || preview.isLoading) && (
          <NonIdealState icon={<Spinner />} title={t('fields.loading')} />
        )}
        {(dataset.isError || preview.isError) && <Callout intent="danger">{t('loadFailed')}</Callout>}
        {p && (
          <div style={{ maxHeight: 260, overflow: 'auto' }}>
            <h4 className="bp6-heading">{t('fields.previewTitle', { total: p.total })}</h4>
            <PreviewTable columns={p.columns} rows={p.rows} data-testid="dataset-preview" />
          </div>
        )}
        {rows.length > 0 && (
          <div style={{ marginTop: 12, maxHeight: 320, overflow: 'auto' }}>
            <h4 className="bp6-heading">{t('fields.settingsTitle')}</h4>
            {(errors.form || serverErrors.form) && (
              <Callout intent="danger" data-testid="fields-error">
                {errors.form ? t(`fields.errors.${errors.form}`) : serverErrors.form}
              </Callout>
            )}
            <HTMLTable compact data-testid="fields-table">
              <thead>
                <tr>
                  <th>{t('fields.select')}</th>
                  <th>{t('fields.column')}</th>
                  <th>{t('fields.kind')}</th>
                  <th>{t('fields.dataType')}</th>
                  <th>{t('fields.min')}</th>
                  <th>{t('fields.max')}</th>
                  <th>{t('fields.discreteNumber')}</th>
                  <th>{t('fields.values')}</th>
                  <th>{t('fields.hidden')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => {
                  const stats = p?.stats?.find((s) => s.name === r.name);
                  const err = errors[i] ? t(`fields.errors.${errors[i]}`) : (Object.entries(serverErrors).find(([k]) => k.startsWith(`fields.${i}`))?.[1] ?? null);
                  return (
                    <tr key={r.name} data-testid={`field-row-${r.name}`}>
                      <td>
                        <Checkbox checked={r.selected} onChange={(e) => edit(i, { selected: e.currentTarget.checked })} aria-label={r.name} />
                      </td>
                      <td>
                        {r.name}
                        {err && (
                          <div className="bp6-text-small" style={{ color: 'var(--bp-intent-danger-text, #cd4246)' }} data-testid={`field-error-${r.name}`}>
                            {err}
                          </div>
                        )}
                      </td>
                      <td>
                        <HTMLSelect value={r.kind} onChange={(e) => edit(i, { kind: e.target.value as FieldDraft['kind'] })} aria-label={t('fields.kind')}>
                          {FIELD_KINDS.map((k) => (
                            <option key={k} value={k}>
                              {t(`fields.kinds.${k}`)}
                            </option>
                          ))}
                        </HTMLSelect>
                      </td>
                      <td>
                        <HTMLSelect value={r.dataType} onChange={(e) => edit(i, { dataType: e.target.value as FieldDataType })} aria-label={t('fields.dataType')} data-testid={`field-datatype-${r.name}`}>
                          {FIELD_DATA_TYPES.map((k) => (
                            <option key={k} value={k}>
                              {t(`fields.dataTypes.${k}`)}
                            </option>
                          ))}
                        </HTMLSelect>
                      </td>
                      <td>
                        <InputGroup small value={r.min} placeholder={stats?.min != null ? cellText(stats.min) : ''} onChange={(e) => edit(i, { min: e.target.value })} aria-label={t('fields.min')} data-testid={`field-min-${r.name}`} style={{ width: 90 }} />
                      </td>
                      <td>
                        <InputGroup small value={r.max} placeholder={stats?.max != null ? cellText(stats.max) : ''} onChange={(e) => edit(i, { max: e.target.value })} aria-label={t('fields.max')} data-testid={`field-max-${r.name}`} style={{ width: 90 }} />
                      </td>
                      <td>
                        <InputGroup small value={r.discreteNumber} disabled={r.dataType !== 'discrete'} onChange={(e) => edit(i, { discreteNumber: e.target.value })} aria-label={t('fields.discreteNumber')} style={{ width: 70 }} />
                      </td>
                      <td>
                        <InputGroup
                          small
                          value={r.values}
                          disabled={r.dataType !== 'category'}
                          placeholder={t('fields.valuesHelp')}
                          onChange={(e) => edit(i, { values: e.target.value })}
                          inputRef={(el) => {
                            if (el) valuesRefs.current.set(r.name, el);
                            else valuesRefs.current.delete(r.name);
                          }}
                          aria-label={t('fields.values')}
                          data-testid={`field-values-${r.name}`}
                          rightElement={
                            r.dataType === 'category' ? (
                              // eslint-disable-next-line no-restricted-syntax -- not a BusyButton: the hook useFocusBackWhenDone above gives the focus to the field's values input when done
                              <Button
                                variant="minimal"
                                size="small"
                                icon="th-derived"
                                loading={filling === r.name}
                                title={t('fields.fillFromData')}
                                aria-label={t('fields.fillFromData')}
                                onClick={() => void fillValues(i, r.name)}
                                data-testid={`field-fill-${r.name}`}
                              />
                            ) : undefined
                          }
                        />
                      </td>
                      <td>
                        <Switch checked={r.hidden} onChange={(e) => edit(i, { hidden: e.currentTarget.checked })} aria-label={t('fields.hidden')} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </HTMLTable>
          </div>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('fields.close')} onClick={props.onClose} />
            <BusyButton intent="primary" text={t('fields.save')} disabled={rows.length === 0} loading={saving.isLoading} onClick={() => void submit()} data-testid="fields-save" />
          </>
        }
      />
    </Dialog>
  );
}
