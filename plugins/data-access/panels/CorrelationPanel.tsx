import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Callout, Card, FormGroup, HTMLSelect, NonIdealState, Spinner } from '@blueprintjs/core';
import { BusyButton, useNotify, useProjectEditRight, useProjectLink, type PanelProps } from '@decisio/sdk-plugin';
import { dataAccessApi } from '../api';
import { failureMessage } from '../format';
import { useDataT } from '../i18n';
import { fromCorrelation, toCorrelation, validateCorrelation, type CorrelationDraft, type CorrelationErrors, type RelationDraft } from '../model/correlation';

const FIELDS = [
  ['trajectoryField', 'trajectory'],
  ['sequenceField', 'sequence'],
  ['datetimeField', 'datetime'],
] as const;

/**
 * The workflow's data-access step: the primary table and its trajectory, sequence and datetime
 * fields, the other tables and the keys connecting them; checked here with the spec's messages
 * and saved with `solution/setTableCorrelation` (the server's refusals are shown).
 */
export function CorrelationPanel(_props: PanelProps) {
  const { t } = useDataT();
  const notify = useNotify();
  const link = useProjectLink();
  const { projectId, solutionId } = link.params;
  // The tables offered are what `solution/setTableCorrelation` accepts: the project's datasets
  // (any member's, by name, for whoever may view the project) and the caller's own datasets
  // (uploaded under Datasets, or in another project of theirs), the project's first.
  const projectTables = dataAccessApi.endpoints['data-access/list'].useQuery({ page: 1, pageSize: 100, projectId: projectId ?? '' }, { skip: !projectId });
  const ownTables = dataAccessApi.endpoints['data-access/list'].useQuery({ page: 1, pageSize: 100 }, { skip: !projectId });
  const rows = useMemo(() => {
    if (!projectTables.data || !ownTables.data) return undefined;
    const all = [...projectTables.data.rows];
    const seen = new Set(all.map((d) => d.tableId));
    for (const d of ownTables.data.rows) if (!seen.has(d.tableId)) all.push(d);
    return { rows: all };
  }, [projectTables.data, ownTables.data]);
  const failed = projectTables.isError ? projectTables : ownTables.isError ? ownTables : undefined;
  const datasets = {
    data: rows,
    isLoading: projectTables.isLoading || ownTables.isLoading,
    isError: failed !== undefined,
    error: failed?.error,
    refetch: () => (void projectTables.refetch(), void ownTables.refetch()),
  };
  // A collaborator who may only view the project (or a locked project) sees the step, changes nothing.
  const right = useProjectEditRight(projectId);
  const saved = dataAccessApi.endpoints['data-access/getCorrelation'].useQuery({ solutionId: solutionId ?? '' }, { skip: !solutionId });
  const [save, saving] = dataAccessApi.endpoints['data-access/setCorrelation'].useMutation();
  const [draft, setDraft] = useState<CorrelationDraft | null>(null);
  const [errors, setErrors] = useState<CorrelationErrors>({});
  const [checked, setChecked] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  // The draft is this solution's stored relation, or none while it loads: `data` would still hold
  // the previous solution's, and saving that draft would write it into this solution.
  useEffect(() => {
    setDraft(saved.currentData ? fromCorrelation(saved.currentData.correlation) : null);
  }, [saved.currentData]);

  const byId = useMemo(() => new Map((datasets.data?.rows ?? []).map((d) => [d.tableId, d])), [datasets.data]);
  const columns = useMemo(() => new Map([...byId].map(([id, d]) => [id, d.columns.map((c) => c.name)])), [byId]);

  useEffect(() => {
    if (checked && draft) setErrors(validateCorrelation(draft, columns));
  }, [checked, draft, columns]);

  if (!solutionId || !projectId) return (
      <div data-testid="correlation-no-solution">
        <NonIdealState icon="flows" title={t('correlation.noSolution')} />
      </div>
    );
  if (saved.isLoading || datasets.isLoading || !draft) {
    if (saved.isError || datasets.isError)
      return (
        <NonIdealState
          icon="error"
          title={saved.isError ? t('correlation.loadFailed') : t('loadFailed')}
          description={failureMessage(saved.isError ? saved.error : datasets.error, '') ?? undefined}
          action={<Button text={t('retry')} onClick={() => (void saved.refetch(), datasets.refetch())} />}
        />
      );
    return <NonIdealState icon={<Spinner />} title={t('correlation.loading')} />;
  }

  const update = (patch: Partial<CorrelationDraft>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const setTable = (i: number, id: string) => {
    const tables = draft.tables.map((x, k) => (k === i ? id : x));
    update(i === 0 ? { tables, trajectoryField: '', sequenceField: '', datetimeField: '' } : { tables });
  };
  const setRelation = (i: number, patch: Partial<RelationDraft>) => update({ relations: draft.relations.map((r, k) => (k === i ? { ...r, ...patch } : r)) });
  const err = (place: string): string | undefined => (errors[place] ? t(`correlation.errors.${errors[place]}`) : undefined);
  // A saved table that is neither the project's nor the caller's (another member's made elsewhere, or deleted) is named as such.
  const nameOf = (id: string) => byId.get(id)?.name ?? t('correlation.outside');
  const chosen = draft.tables.filter(Boolean);
  const fieldOptions = (tableId: string, current: string): ReactNode => {
    const cols = columns.get(tableId) ?? [];
    return (
      <>
        <option value="">{t('correlation.chooseField')}</option>
        {current && !cols.includes(current) && <option value={current}>{current}</option>}
        {cols.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </>
    );
  };
  const tableOptions = (current: string): ReactNode => (
    <>
      <option value="">{t('correlation.choose')}</option>
      {current && !byId.has(current) && (
        <option value={current} title={current}>
          {t('correlation.outside')}
        </option>
      )}
      {(datasets.data?.rows ?? []).map((d) => (
        <option key={d.tableId} value={d.tableId}>
          {d.name}
        </option>
      ))}
    </>
  );

  const submit = async () => {
    setChecked(true);
    setServerError(null);
    const e = validateCorrelation(draft, columns);
    setErrors(e);
    if (Object.keys(e).length > 0) {
      notify({ message: t('correlation.invalid'), intent: 'warning', icon: 'warning-sign' });
      return;
    }
    try {
      await save({ solutionId, correlation: toCorrelation(draft) }).unwrap();
      notify({ message: t('correlation.saved'), intent: 'success', icon: 'tick' });
    } catch (error) {
      const fieldErrors = (error as { errors?: Record<string, string> }).errors;
      const m = failureMessage(error, t('loadFailed'));
      setServerError([m, ...Object.values(fieldErrors ?? {})].filter(Boolean).join(' — ') || null);
    }
  };

  const primary = draft.tables[0] ?? '';
  return (
    <div data-testid="correlation-panel" style={{ padding: 12, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', overflow: 'auto' }}>
      <Callout icon="info-sign">{t('correlation.intro')}</Callout>
      {datasets.data && datasets.data.rows.length === 0 && (
        <Callout intent="warning" data-testid="correlation-no-datasets">
          {t('correlation.noDatasets')} <Button small text={t('correlation.openDatasets')} onClick={() => link.go('/dataset-manage')} />
        </Callout>
      )}
      <Card>
        {draft.tables.map((id, i) => {
          const place = i === 0 ? 'primary' : `table.${i}`;
          const label = i === 0 ? t('correlation.primary') : t('correlation.table', { n: i + 1 });
          return (
            <div key={i} style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
              <FormGroup label={label} labelFor={`corr-table-${i}`} helperText={err(place)} intent={err(place) ? 'danger' : 'none'} style={{ flex: 1 }}>
                <HTMLSelect id={`corr-table-${i}`} fill value={id} onChange={(e) => setTable(i, e.target.value)} data-testid={`corr-table-${i}`}>
                  {tableOptions(id)}
                </HTMLSelect>
              </FormGroup>
              {i > 0 && (
                <Button
                  icon="cross"
                  minimal
                  aria-label={t('correlation.removeTable')}
                  title={t('correlation.removeTable')}
                  style={{ marginTop: 22 }}
                  onClick={() => update({ tables: draft.tables.filter((_, k) => k !== i), relations: draft.relations.filter((r) => r.from !== id && r.to !== id) })}
                />
              )}
            </div>
          );
        })}
        <Button icon="add" text={t('correlation.addTable')} disabled={!right.canEdit} title={right.reason} onClick={() => update({ tables: [...draft.tables, ''] })} data-testid="corr-add-table" />
      </Card>
      <Card>
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
          {FIELDS.map(([key, label]) => (
            <FormGroup key={key} label={t(`correlation.${label}`)} labelFor={`corr-${label}`} labelInfo={key === 'datetimeField' ? undefined : '*'} helperText={err(key)} intent={err(key) ? 'danger' : 'none'} style={{ minWidth: 200 }}>
              <HTMLSelect id={`corr-${label}`} fill value={draft[key]} disabled={!primary} onChange={(e) => update({ [key]: e.target.value })} data-testid={`corr-${label}`}>
                {fieldOptions(primary, draft[key])}
              </HTMLSelect>
            </FormGroup>
          ))}
        </div>
      </Card>
      <Card>
        <h4 className="bp6-heading">{t('correlation.relations')}</h4>
        {draft.relations.length === 0 && <p className="bp6-text-muted">{t('correlation.noRelations')}</p>}
        {draft.relations.map((r, i) => (
          <div key={i} style={{ display: 'flex', gap: 8, alignItems: 'flex-start', flexWrap: 'wrap' }} data-testid={`corr-relation-${i}`}>
            {(
              [
                ['from', 'fromField'],
                ['to', 'toField'],
              ] as const
            ).map(([tk, fk]) => (
              <div key={tk} style={{ display: 'flex', gap: 8 }}>
                <FormGroup label={t(`correlation.${tk}`)} labelFor={`corr-rel-${i}-${tk}`} helperText={tk === 'from' ? err(`relation.${i}`) : undefined} intent={tk === 'from' && err(`relation.${i}`) ? 'danger' : 'none'}>
                  <HTMLSelect id={`corr-rel-${i}-${tk}`} value={r[tk]} onChange={(e) => setRelation(i, { [tk]: e.target.value, [fk]: '' })} data-testid={`corr-rel-${i}-${tk}`}>
                    <option value="">{t('correlation.choose')}</option>
                    {chosen.map((id) => (
                      <option key={id} value={id}>
                        {nameOf(id)}
                      </option>
                    ))}
                  </HTMLSelect>
                </FormGroup>
                <FormGroup label={t(`correlation.${fk}`)} labelFor={`corr-rel-${i}-${fk}`} helperText={err(`relation.${i}.${fk}`)} intent={err(`relation.${i}.${fk}`) ? 'danger' : 'none'}>
                  <HTMLSelect id={`corr-rel-${i}-${fk}`} value={r[fk]} disabled={!r[tk]} onChange={(e) => setRelation(i, { [fk]: e.target.value })} data-testid={`corr-rel-${i}-${fk}`}>
                    {fieldOptions(r[tk], r[fk])}
                  </HTMLSelect>
                </FormGroup>
              </div>
            ))}
            <Button
              icon="cross"
              minimal
              aria-label={t('correlation.removeRelation')}
              title={t('correlation.removeRelation')}
              style={{ marginTop: 22 }}
              onClick={() => update({ relations: draft.relations.filter((_, k) => k !== i) })}
            />
          </div>
        ))}
        <Button icon="add" text={t('correlation.addRelation')} disabled={!right.canEdit} title={right.reason} onClick={() => update({ relations: [...draft.relations, { from: primary, fromField: '', to: '', toField: '' }] })} data-testid="corr-add-relation" />
      </Card>
      {serverError && (
        <Callout intent="danger" icon="error" data-testid="corr-server-error">
          {serverError}
        </Callout>
      )}
      <div>
        <BusyButton intent="primary" icon="floppy-disk" text={t('correlation.save')} disabled={!right.canEdit} title={right.reason} loading={saving.isLoading} onClick={() => void submit()} data-testid="corr-save" />
      </div>
    </div>
  );
}
