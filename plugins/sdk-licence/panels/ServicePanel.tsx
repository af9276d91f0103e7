import { useState, type FormEvent } from 'react';
import { Button, Callout, Card, DialogBody, DialogFooter, FormGroup, H4, HTMLSelect, HTMLTable, InputGroup, NonIdealState, TextArea } from '@blueprintjs/core';
import { SERVICE_TYPES, type CreateUserKeyResponse, type ServiceType } from '@decisio/domain';
import { Dialog, BusyButton, isApiError, useCurrentUser, useLocale, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { licenceApi } from '../api';
import { useLicenceT } from '../i18n';
import { QueryState, StatusTag } from './common';

/** `/user-center/service`: the user key (shown once) and the authorisation applications. */
export function ServicePanel(_props: PanelProps) {
  const { t } = useLicenceT();
  const locale = useLocale();
  const notify = useNotify();
  const list = licenceApi.endpoints['sdk-licence/services'].useQuery({ page: 1, pageSize: 100 });
  const [createKey, creatingKey] = licenceApi.endpoints['sdk-licence/createKey'].useMutation();
  const [create, creating] = licenceApi.endpoints['sdk-licence/createService'].useMutation();
  const [shown, setShown] = useState<CreateUserKeyResponse | null>(null);
  const [applying, setApplying] = useState(false);
  const [form, setForm] = useState<{ type: ServiceType; company: string; description: string }>({ type: 'common', company: '', description: '' });
  const [failure, setFailure] = useState<string | null>(null);
  // A student authorisation needs a valid student certification (the server checks it too).
  const me = useCurrentUser().data;
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const fail = (err: unknown) => {
    if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) ? err.message : t('apply.failed'), intent: 'danger', icon: 'error' });
  };
  const newKey = async () => {
    try {
      setShown(await createKey().unwrap());
    } catch (err) {
      fail(err);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown!.key);
      notify({ message: t('service.copied'), intent: 'success', icon: 'clipboard' });
    } catch {
      notify({ message: t('service.copyFailed'), intent: 'warning', icon: 'clipboard' });
    }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    try {
      await create(form).unwrap();
      notify({ message: t('service.submitted'), intent: 'success', icon: 'tick-circle' });
      setApplying(false);
    } catch (err) {
      setFailure(isApiError(err) ? err.message : t('apply.failed'));
    }
  };
  const key = list.data?.userKey ?? null;
  const rows = list.data?.rows ?? [];
  return (
    <div className="dc-panel" style={{ padding: 16, height: '100%', overflow: 'auto', display: 'grid', gap: 16, alignContent: 'start' }} data-testid="service-panel">
      <QueryState isLoading={list.isLoading} error={list.error} retry={() => void list.refetch()} />
      <Card>
        <H4>{t('service.keyHeading')}</H4>
        <p className="bp6-text-muted">{t('service.keyHelp')}</p>
        {list.data && !key && <p data-testid="user-key-none">{t('service.noKey')}</p>}
        {key && !key.expired && <p data-testid="user-key-info">{t('service.keyInfo', { prefix: key.prefix, created: date.format(new Date(key.createdAt)), expires: date.format(new Date(key.expiresAt)) })}</p>}
        {key?.expired && (
          <Callout intent="warning" icon="time">
            {t('service.keyExpired', { prefix: key.prefix, expires: date.format(new Date(key.expiresAt)) })}
          </Callout>
        )}
        {list.data && (!key || key.expired) && (
          <BusyButton intent="primary" icon="key" loading={creatingKey.isLoading} onClick={() => void newKey()} data-testid="user-key-create">
            {t('service.createKey')}
          </BusyButton>
        )}
      </Card>
      <section>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <H4 style={{ margin: 0, flex: 1 }}>{t('service.applicationsHeading')}</H4>
          <Button icon="add" intent="primary" onClick={() => setApplying(true)} data-testid="service-apply">
            {t('service.apply')}
          </Button>
        </div>
        {list.data && rows.length === 0 && <NonIdealState icon="shield" title={t('service.empty')} />}
        {rows.length > 0 && (
          <HTMLTable striped compact style={{ width: '100%', marginTop: 8 }}>
            <thead>
              <tr>
                <th>{t('service.columns.type')}</th>
                <th>{t('service.columns.company')}</th>
                <th>{t('service.columns.status')}</th>
                <th>{t('service.columns.valid')}</th>
                <th>{t('service.columns.opinion')}</th>
                <th>{t('service.columns.applied')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-testid="service-row">
                  <td>{t(`serviceTypes.${r.type}`)}</td>
                  <td>{r.company}</td>
                  <td>
                    <StatusTag status={r.status} />
                  </td>
                  <td>{r.endAt ? date.format(new Date(r.endAt)) : '—'}</td>
                  <td>{r.reviewOpinion ?? ''}</td>
                  <td>{date.format(new Date(r.createdAt))}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </section>
      <Dialog isOpen={shown !== null} onClose={() => setShown(null)} title={t('service.keyHeading')} canEscapeKeyClose={false} canOutsideClickClose={false}>
        <DialogBody>
          <Callout intent="warning" icon="warning-sign" style={{ marginBottom: 12 }}>
            {t('service.keyShownOnce')}
          </Callout>
          <InputGroup readOnly value={shown?.key ?? ''} onFocus={(e) => e.currentTarget.select()} data-testid="user-key-value" rightElement={<Button variant="minimal" icon="clipboard" onClick={() => void copy()}>{t('service.copy')}</Button>} />
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" onClick={() => setShown(null)} data-testid="user-key-close">{t('service.close')}</Button>} />
      </Dialog>
      <Dialog isOpen={applying} onClose={() => setApplying(false)} title={t('service.apply')}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            {failure && <Callout intent="danger" icon="error" style={{ marginBottom: 12 }}>{failure}</Callout>}
            <FormGroup label={t('service.type')} labelFor="service-type">
              <HTMLSelect id="service-type" value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value as ServiceType })}>
                {SERVICE_TYPES.map((ty) => (
                  <option key={ty} value={ty} disabled={ty === 'student' && !me?.isStudent}>
                    {t(`serviceTypes.${ty}`)}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
            <p className="bp6-text-muted bp6-text-small" data-testid="service-student-note">
              {me?.isStudent && me.studentUntil
                ? t('service.studentNote', { date: new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(me.studentUntil)) })
                : t('service.studentOnly')}
            </p>
            <FormGroup label={t('service.company')} labelFor="service-company">
              <InputGroup id="service-company" value={form.company} maxLength={100} onChange={(e) => setForm({ ...form, company: e.target.value })} />
            </FormGroup>
            <FormGroup label={t('service.description')} labelFor="service-description">
              <TextArea id="service-description" value={form.description} maxLength={500} fill rows={4} onChange={(e) => setForm({ ...form, description: e.target.value })} data-testid="service-description" />
            </FormGroup>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button onClick={() => setApplying(false)}>{t('apply.cancel')}</Button>
                <BusyButton type="submit" intent="primary" loading={creating.isLoading} disabled={!form.description.trim()} data-testid="service-submit">
                  {t('service.submit')}
                </BusyButton>
              </>
            }
          />
        </form>
      </Dialog>
    </div>
  );
}
