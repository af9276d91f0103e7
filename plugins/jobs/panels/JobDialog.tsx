import { useState } from 'react';
import { Button, Callout, Checkbox, Classes, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Spinner, TextArea } from '@blueprintjs/core';
import { SCHEDULE_KIND_NAMES, SCHEDULE_LIMITS, type ScheduleItem, type ScheduleKind, type ScheduleSaveRequest } from '@decisio/domain';
import { NumericInput, BusyButton, Dialog, isApiError, useDebounced, useLocale, useNotify } from '@decisio/sdk-plugin';
import { jobsApi } from '../api';
import { useJobsT } from '../i18n';

/** The browser's time zone (the default of a new job). */
function localZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The dataset a `datasets.refresh` job refreshes: one of the caller's datasets imported from a data connection. */
function DatasetField({ value, onChange, error }: { value: string; onChange(id: string): void; error?: string }) {
  const { t } = useJobsT();
  const imports = jobsApi.endpoints['jobs/imports'].useQuery({ page: 1, pageSize: 100 });
  const seen = new Set<string>();
  const options = (imports.data?.rows ?? []).filter((i) => i.state === 'successful' && i.datasetId && !seen.has(i.datasetId) && seen.add(i.datasetId));
  if (imports.isLoading) return <Spinner size={16} aria-label={t('form.importsLoading')} />;
  if (imports.isError)
    return (
      <Callout intent="danger" icon="error" compact>
        {t('form.importsFailed')}
      </Callout>
    );
  if (options.length === 0 && !value)
    return (
      <Callout intent="warning" icon="info-sign" compact data-testid="job-no-dataset">
        {t('form.noImportedDataset')}
      </Callout>
    );
  return (
    <FormGroup label={t('form.dataset')} labelFor="job-dataset" intent={error ? 'danger' : 'none'} helperText={error}>
      <HTMLSelect id="job-dataset" value={value} onChange={(e) => onChange(e.target.value)} fill data-testid="job-dataset">
        <option value="">{t('form.chooseDataset')}</option>
        {value && !options.some((o) => o.datasetId === value) && <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o.datasetId!} value={o.datasetId!}>
            {`${o.name} (${o.connectionName}: ${o.source.sql ? 'SQL' : [o.source.schema, o.source.table].filter(Boolean).join('.')})`}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}

/** The model service a `policies.update` job retrains: a project of the caller, then one of its services. */
function ServiceField({ value, onChange, error }: { value: string; onChange(id: string): void; error?: string }) {
  const { t } = useJobsT();
  const [projectId, setProjectId] = useState('');
  const projects = jobsApi.endpoints['jobs/projects'].useQuery({ page: 1, pageSize: 100 });
  const services = jobsApi.endpoints['jobs/services'].useQuery({ projectId, page: 1, pageSize: 100 }, { skip: !projectId });
  if (projects.isLoading) return <Spinner size={16} aria-label={t('form.servicesLoading')} />;
  if (projects.isError || services.isError)
    return (
      <Callout intent="danger" icon="error" compact>
        {t('form.servicesFailed')}
      </Callout>
    );
  // the chosen project's own services only: another project's are never offered while these load
  const rows = services.currentData?.rows ?? [];
  return (
    <>
      <FormGroup label={t('form.project')} labelFor="job-project" intent={error && !value && rows.length === 0 ? 'danger' : 'none'} helperText={!value && rows.length === 0 ? error : undefined}>
        <HTMLSelect id="job-project" value={projectId} onChange={(e) => (setProjectId(e.target.value), onChange(''))} fill data-testid="job-project">
          <option value="">{t('form.chooseProject')}</option>
          {(projects.data?.rows ?? []).map((p) => (
            <option key={p.projectId} value={p.projectId}>
              {p.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      {projectId && services.currentData && rows.length === 0 && (
        <Callout intent="warning" icon="info-sign" compact data-testid="job-no-service">
          {t('form.noService')}
        </Callout>
      )}
      {(value || rows.length > 0) && (
        <FormGroup label={t('form.service')} labelFor="job-service" intent={error ? 'danger' : 'none'} helperText={error}>
          <HTMLSelect id="job-service" value={value} onChange={(e) => onChange(e.target.value)} fill data-testid="job-service">
            <option value="">{t('form.chooseService')}</option>
            {value && !rows.some((s) => s.id === value) && <option value={value}>{value}</option>}
            {rows.map((s) => (
              <option key={s.id} value={s.id}>
                {`${s.serviceName} (${s.status})`}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      )}
    </>
  );
}

/** Props of {@link JobDialog}. */
export interface JobDialogProps {
  editing: ScheduleItem | null;
  onClose(): void;
}

/** Create or edit a scheduled job; the expression is checked as it is typed, with the next five run times. */
export function JobDialog({ editing, onClose }: JobDialogProps) {
  const { t } = useJobsT();
  const locale = useLocale();
  const notify = useNotify();
  const [name, setName] = useState(editing?.name ?? '');
  const [kind, setKind] = useState<ScheduleKind>(editing?.kind ?? 'uploads.sweep');
  const [cron, setCron] = useState(editing?.cron ?? '0 3 * * *');
  const [timezone, setTimezone] = useState(editing?.timezone ?? localZone());
  const [description, setDescription] = useState(editing?.description ?? '');
  const [hours, setHours] = useState<number>(Number((editing?.params as { olderThanHours?: number } | undefined)?.olderThanHours ?? 168));
  const [days, setDays] = useState<number | null>(((editing?.params as { days?: number } | undefined)?.days as number | undefined) ?? null);
  const [datasetId, setDatasetId] = useState<string>(String((editing?.params as { datasetId?: string } | undefined)?.datasetId ?? ''));
  const loop = (editing?.kind === 'policies.update' ? editing.params : {}) as { serviceId?: string; windowDays?: number; withOutcomeOnly?: boolean; epochs?: number; minGain?: number };
  const [serviceId, setServiceId] = useState(String(loop.serviceId ?? ''));
  const [windowDays, setWindowDays] = useState(loop.windowDays ?? 30);
  const [withOutcomeOnly, setWithOutcomeOnly] = useState(loop.withOutcomeOnly ?? true);
  const [epochs, setEpochs] = useState(loop.epochs ?? 2);
  const [minGain, setMinGain] = useState(loop.minGain ?? 0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [save, saving] = jobsApi.endpoints['jobs/saveOrUpdate'].useMutation();

  const checked = useDebounced({ cron: cron.trim(), timezone: timezone.trim() }, 300);
  const check = jobsApi.endpoints['jobs/check'].useQuery(checked, { skip: !checked.cron || !checked.timezone });
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone: checked.timezone || undefined });
  const checkError = check.error && isApiError(check.error) ? (check.error.errors?.cron ?? check.error.errors?.timezone ?? check.error.message) : null;

  const submit = async () => {
    const params =
      kind === 'uploads.sweep'
        ? { olderThanHours: hours }
        : kind === 'logs.retention' && days
          ? { days }
          : kind === 'datasets.refresh'
            ? { datasetId }
            : kind === 'policies.update'
              ? { serviceId, windowDays, withOutcomeOnly, epochs, minGain }
              : {};
    if (kind === 'datasets.refresh' && !datasetId) return setErrors({ 'params.datasetId': t('form.required') });
    if (kind === 'policies.update' && !serviceId) return setErrors({ 'params.serviceId': t('form.required') });
    const body = { id: editing?.id, name: name.trim(), kind, cron: cron.trim(), timezone: timezone.trim(), description: description.trim(), params } as ScheduleSaveRequest;
    if (!body.name) return setErrors({ name: t('form.required') });
    try {
      await save(body).unwrap();
      notify({ message: t('form.saved'), intent: 'success', icon: 'tick' });
      onClose();
    } catch (err) {
      if (isApiError(err) && err.errors) setErrors(err.errors);
      if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) ? err.message : t('form.saveFailed'), intent: 'danger', icon: 'error' });
    }
  };

  return (
    <Dialog isOpen onClose={onClose} title={editing ? t('form.editTitle') : t('form.createTitle')} icon="time" style={{ width: 640 }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        data-testid="job-form"
      >
        <DialogBody>
          <FormGroup label={t('form.name')} labelFor="job-name" intent={errors.name ? 'danger' : 'none'} helperText={errors.name}>
            <InputGroup id="job-name" value={name} maxLength={SCHEDULE_LIMITS.name} onChange={(e) => setName(e.target.value)} autoFocus data-testid="job-name" />
          </FormGroup>
          <FormGroup label={t('form.kind')} labelFor="job-kind" helperText={t(`kindHelp.${kind}`)}>
            <HTMLSelect id="job-kind" value={kind} onChange={(e) => setKind(e.target.value as ScheduleKind)} fill data-testid="job-kind">
              {SCHEDULE_KIND_NAMES.map((k) => (
                <option key={k} value={k}>
                  {t(`kinds.${k}`)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          {kind === 'uploads.sweep' && (
            <FormGroup label={t('form.olderThanHours')} labelFor="job-hours" intent={errors['params.olderThanHours'] ? 'danger' : 'none'} helperText={errors['params.olderThanHours']}>
              <NumericInput id="job-hours" min={1} max={24 * 365} value={hours} onValueChange={(n) => setHours(Number.isFinite(n) ? Math.round(n) : 1)} />
            </FormGroup>
          )}
          {kind === 'datasets.refresh' && <DatasetField value={datasetId} onChange={setDatasetId} error={errors['params.datasetId']} />}
          {kind === 'policies.update' && (
            <>
              <ServiceField value={serviceId} onChange={setServiceId} error={errors['params.serviceId']} />
              <div style={{ display: 'flex', gap: 12 }}>
                <FormGroup label={t('form.windowDays')} labelFor="job-window" intent={errors['params.windowDays'] ? 'danger' : 'none'} helperText={errors['params.windowDays']} style={{ flex: 1 }}>
                  <NumericInput id="job-window" min={1} max={365} value={windowDays} onValueChange={(n) => setWindowDays(Number.isFinite(n) ? Math.round(n) : 1)} data-testid="job-window" />
                </FormGroup>
                <FormGroup label={t('form.epochs')} labelFor="job-epochs" intent={errors['params.epochs'] ? 'danger' : 'none'} helperText={errors['params.epochs']} style={{ flex: 1 }}>
                  <NumericInput id="job-epochs" min={1} max={1000} value={epochs} onValueChange={(n) => setEpochs(Number.isFinite(n) ? Math.round(n) : 1)} data-testid="job-epochs" />
                </FormGroup>
                <FormGroup label={t('form.minGain')} labelFor="job-min-gain" intent={errors['params.minGain'] ? 'danger' : 'none'} helperText={errors['params.minGain']} style={{ flex: 1 }}>
                  <NumericInput id="job-min-gain" value={minGain} minorStepSize={0.0001} onValueChange={(n) => setMinGain(Number.isFinite(n) ? n : 0)} data-testid="job-min-gain" />
                </FormGroup>
              </div>
              <Checkbox checked={withOutcomeOnly} onChange={(e) => setWithOutcomeOnly(e.currentTarget.checked)} label={t('form.withOutcomeOnly')} data-testid="job-outcome-only" />
            </>
          )}
          {kind === 'logs.retention' && (
            <FormGroup label={t('form.days')} labelFor="job-days" intent={errors['params.days'] ? 'danger' : 'none'} helperText={errors['params.days']}>
              <NumericInput id="job-days" min={1} max={3650} value={days ?? ''} onValueChange={(n) => setDays(Number.isFinite(n) && n > 0 ? Math.round(n) : null)} />
            </FormGroup>
          )}
          <div style={{ display: 'flex', gap: 12 }}>
            <FormGroup label={t('form.cron')} labelFor="job-cron" helperText={errors.cron ?? t('form.cronHelp')} intent={errors.cron || checkError ? 'danger' : 'none'} style={{ flex: 2 }}>
              <InputGroup id="job-cron" value={cron} maxLength={SCHEDULE_LIMITS.cron} onChange={(e) => (setCron(e.target.value), setErrors({}))} className={Classes.MONOSPACE_TEXT} data-testid="job-cron" />
            </FormGroup>
            <FormGroup label={t('form.timezone')} labelFor="job-tz" helperText={errors.timezone} intent={errors.timezone ? 'danger' : 'none'} style={{ flex: 1 }}>
              <InputGroup id="job-tz" value={timezone} maxLength={SCHEDULE_LIMITS.timezone} onChange={(e) => setTimezone(e.target.value)} data-testid="job-timezone" />
            </FormGroup>
          </div>
          <div aria-live="polite" data-testid="job-next-runs">
            {check.isFetching && <Spinner size={16} aria-label={t('form.checking')} />}
            {checkError && !check.isFetching && (
              <Callout intent="danger" icon="error" compact>
                {checkError}
              </Callout>
            )}
            {check.data && !checkError && !check.isFetching && (
              <Callout icon="calendar" compact title={t('form.nextRuns')}>
                <ol style={{ margin: 0, paddingLeft: 20 }}>
                  {check.data.next.map((n) => (
                    <li key={n}>{when.format(new Date(n))}</li>
                  ))}
                </ol>
              </Callout>
            )}
          </div>
          <FormGroup label={t('form.description')} labelFor="job-description" style={{ marginTop: 12 }}>
            <TextArea id="job-description" fill value={description} maxLength={SCHEDULE_LIMITS.description} onChange={(e) => setDescription(e.target.value)} />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose}>{t('form.cancel')}</Button>
              <BusyButton type="submit" intent="primary" loading={saving.isLoading} data-testid="job-save">
                {t('form.save')}
              </BusyButton>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
