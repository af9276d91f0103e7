import { useState, type FormEvent } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FileInput, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Switch, Tab, Tabs, TextArea } from '@blueprintjs/core';
import { SDK_EDITIONS, type SdkEdition, type SdkVersionItem } from '@decisio/domain';
import { Alert, Dialog, BusyButton, isApiError, useCurrentUser, useLocale, useNotify, useSession, type PanelProps } from '@decisio/sdk-plugin';
import { licenceApi } from '../api';
import { useLicenceT } from '../i18n';
import { QueryState, StatusTag } from './common';

type Reviewing = { what: 'licence' | 'service'; id: string; approve: boolean } | null;

/** `/admin/licences` (`licences:write`): review licences and authorisation applications; SDK versions. */
export function AdminLicencesPanel(_props: PanelProps) {
  const { t } = useLicenceT();
  const user = useCurrentUser();
  const allowed = !!user.data?.permissions?.some((p) => p === '*' || p === 'licences:write');
  const [tab, setTab] = useState<string>('licences');
  if (user.data && !allowed) return <NonIdealState icon="lock" title={t('admin.noPermission')} />;
  return (
    <div className="dc-panel" style={{ padding: 16, height: '100%', overflow: 'auto' }} data-testid="admin-licences-panel">
      <Tabs id="admin-licences" selectedTabId={tab} onChange={(id) => setTab(String(id))}>
        <Tab id="licences" title={t('admin.licencesTab')} panel={<LicenceReviews />} />
        <Tab id="services" title={t('admin.servicesTab')} panel={<ServiceReviews />} />
        <Tab id="versions" title={t('admin.versionsTab')} panel={<Versions />} />
      </Tabs>
    </div>
  );
}

function ReviewDialog(props: { reviewing: Reviewing; onClose: () => void }) {
  const { t } = useLicenceT();
  const notify = useNotify();
  const [opinion, setOpinion] = useState('');
  const [reviewLicence, a] = licenceApi.endpoints['sdk-licence/review'].useMutation();
  const [reviewService, b] = licenceApi.endpoints['sdk-licence/reviewService'].useMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = props.reviewing;
    if (!r) return;
    try {
      const body = { id: r.id, approve: r.approve, opinion };
      await (r.what === 'licence' ? reviewLicence(body) : reviewService(body)).unwrap();
      notify({ message: t('admin.reviewed'), intent: 'success', icon: 'tick-circle' });
      setOpinion('');
      props.onClose();
    } catch (err) {
      if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) ? err.message : t('apply.failed'), intent: 'danger', icon: 'error' });
    }
  };
  return (
    <Dialog isOpen={props.reviewing !== null} onClose={props.onClose} title={t('admin.reviewTitle')}>
      <form onSubmit={submit}>
        <DialogBody>
          <FormGroup label={t('admin.opinion')} labelFor="review-opinion">
            <TextArea id="review-opinion" value={opinion} maxLength={500} fill autoFocus onChange={(e) => setOpinion(e.target.value)} data-testid="review-opinion" />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={props.onClose}>{t('apply.cancel')}</Button>
              <BusyButton type="submit" intent={props.reviewing?.approve ? 'success' : 'danger'} loading={a.isLoading || b.isLoading} data-testid="review-confirm">
                {props.reviewing?.approve ? t('admin.approve') : t('admin.refuse')}
              </BusyButton>
            </>
          }
        />
      </form>
    </Dialog>
  );
}

function LicenceReviews() {
  const { t } = useLicenceT();
  const locale = useLocale();
  const [onlyAudit, setOnlyAudit] = useState(true);
  const [reviewing, setReviewing] = useState<Reviewing>(null);
  const list = licenceApi.endpoints['sdk-licence/licences'].useQuery({ page: 1, pageSize: 100, scope: 'all', status: onlyAudit ? 'audit' : undefined });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const rows = list.data?.rows ?? [];
  return (
    <div data-testid="admin-licence-reviews">
      <Switch checked={onlyAudit} label={t('admin.onlyAudit')} onChange={(e) => setOnlyAudit(e.currentTarget.checked)} />
      <QueryState isLoading={list.isLoading} error={list.error} retry={() => void list.refetch()} />
      {list.data && rows.length === 0 && <NonIdealState icon="endorsed" title={t('licences.empty.title')} />}
      {rows.length > 0 && (
        <HTMLTable striped compact style={{ width: '100%' }}>
          <thead>
            <tr>
              <th>{t('licences.columns.user')}</th>
              <th>{t('licences.columns.type')}</th>
              <th>{t('licences.columns.edition')}</th>
              <th>{t('licences.columns.device')}</th>
              <th>{t('licences.columns.status')}</th>
              <th>{t('licences.columns.applied')}</th>
              <th>{t('licences.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((l) => (
              <tr key={l.id} data-testid="admin-licence-row">
                <td>
                  {l.username}
                  <div className="bp6-text-muted bp6-text-small">{l.contactTarget}</div>
                </td>
                <td>{t(`types.${l.type}`)}</td>
                <td>{t(`editions.${l.edition}`)}</td>
                <td>{l.deviceFileName ?? '—'}</td>
                <td>
                  <StatusTag status={l.status} />
                </td>
                <td>{date.format(new Date(l.createdAt))}</td>
                <td>
                  {l.status === 'audit' && (
                    <>
                      <Button size="small" intent="success" icon="tick" onClick={() => setReviewing({ what: 'licence', id: l.id, approve: true })} data-testid="admin-licence-approve">
                        {t('admin.approve')}
                      </Button>{' '}
                      <Button size="small" intent="danger" variant="outlined" icon="cross" onClick={() => setReviewing({ what: 'licence', id: l.id, approve: false })}>
                        {t('admin.refuse')}
                      </Button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <ReviewDialog reviewing={reviewing} onClose={() => setReviewing(null)} />
    </div>
  );
}

function ServiceReviews() {
  const { t } = useLicenceT();
  const locale = useLocale();
  const [reviewing, setReviewing] = useState<Reviewing>(null);
  const list = licenceApi.endpoints['sdk-licence/services'].useQuery({ page: 1, pageSize: 100, scope: 'all' });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const rows = list.data?.rows ?? [];
  return (
    <div>
      <QueryState isLoading={list.isLoading} error={list.error} retry={() => void list.refetch()} />
      {list.data && rows.length === 0 && <NonIdealState icon="shield" title={t('service.empty')} />}
      {rows.length > 0 && (
        <HTMLTable striped compact style={{ width: '100%' }}>
          <thead>
            <tr>
              <th>{t('service.columns.user')}</th>
              <th>{t('service.columns.type')}</th>
              <th>{t('service.columns.company')}</th>
              <th>{t('service.description')}</th>
              <th>{t('service.columns.status')}</th>
              <th>{t('service.columns.applied')}</th>
              <th>{t('service.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{r.username}</td>
                <td>{t(`serviceTypes.${r.type}`)}</td>
                <td>{r.company}</td>
                <td>{r.description}</td>
                <td>
                  <StatusTag status={r.status} />
                </td>
                <td>{date.format(new Date(r.createdAt))}</td>
                <td>
                  {r.status === 'audit' && (
                    <>
                      <Button size="small" intent="success" icon="tick" onClick={() => setReviewing({ what: 'service', id: r.id, approve: true })}>
                        {t('admin.approve')}
                      </Button>{' '}
                      <Button size="small" intent="danger" variant="outlined" icon="cross" onClick={() => setReviewing({ what: 'service', id: r.id, approve: false })}>
                        {t('admin.refuse')}
                      </Button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <ReviewDialog reviewing={reviewing} onClose={() => setReviewing(null)} />
    </div>
  );
}

function Versions() {
  const { t } = useLicenceT();
  const notify = useNotify();
  const session = useSession();
  const list = licenceApi.endpoints['sdk-licence/versions'].useQuery({});
  const [create, creating] = licenceApi.endpoints['sdk-licence/createVersion'].useMutation();
  const [remove] = licenceApi.endpoints['sdk-licence/deleteVersion'].useMutation();
  const [form, setForm] = useState<{ version: string; edition: SdkEdition; notes: string }>({ version: '', edition: 'pro', notes: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState<SdkVersionItem | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const fail = (err: unknown, fallback: string) => {
    if (isApiError(err)) {
      setErrors(err.errors ?? {});
      if (!err.handled) notify({ message: err.message, intent: 'danger', icon: 'error' });
    } else notify({ message: fallback, intent: 'danger', icon: 'error' });
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await create(form).unwrap();
      notify({ message: t('admin.saved'), intent: 'success', icon: 'tick-circle' });
      setForm({ version: '', edition: form.edition, notes: '' });
      setErrors({});
    } catch (err) {
      fail(err, t('apply.failed'));
    }
  };
  const upload = async (v: SdkVersionItem, file: File) => {
    setUploading(v.id);
    try {
      const res = await fetch(`/api/sdkVersion/uploadSdkPackage?id=${v.id}&name=${encodeURIComponent(file.name)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream', ...(session.token ? { Authorization: session.token } : {}) },
        body: file,
      });
      const body = (await res.json()) as { code: number; message: string };
      if (body.code !== 0) throw new Error(body.message);
      notify({ message: t('admin.uploaded'), intent: 'success', icon: 'cloud-upload' });
      void list.refetch();
    } catch (err) {
      notify({ message: `${t('admin.uploadFailed')}: ${(err as Error).message}`, intent: 'danger', icon: 'error' });
    } finally {
      setUploading(null);
    }
  };
  const confirmDelete = async () => {
    const v = deleting;
    setDeleting(null);
    if (!v) return;
    try {
      await remove({ id: v.id }).unwrap();
      notify({ message: t('admin.deleted'), intent: 'success', icon: 'trash' });
    } catch (err) {
      fail(err, t('apply.failed'));
    }
  };
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <form onSubmit={submit} style={{ display: 'flex', gap: 8, alignItems: 'flex-end', flexWrap: 'wrap' }}>
        <FormGroup label={t('admin.version')} labelFor="version-version" intent={errors.version ? 'danger' : 'none'} helperText={errors.version}>
          <InputGroup id="version-version" value={form.version} placeholder="1.2.0" maxLength={40} onChange={(e) => setForm({ ...form, version: e.target.value })} data-testid="version-version" />
        </FormGroup>
        <FormGroup label={t('apply.edition')} labelFor="version-edition">
          <HTMLSelect id="version-edition" value={form.edition} onChange={(e) => setForm({ ...form, edition: e.target.value as SdkEdition })}>
            {SDK_EDITIONS.map((ed) => (
              <option key={ed} value={ed}>
                {t(`editions.${ed}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('admin.notes')} labelFor="version-notes" style={{ flex: 1, minWidth: 240 }}>
          <TextArea id="version-notes" value={form.notes} maxLength={4000} fill onChange={(e) => setForm({ ...form, notes: e.target.value })} />
        </FormGroup>
        <FormGroup>
          <BusyButton type="submit" intent="primary" icon="add" loading={creating.isLoading} disabled={!form.version.trim()} data-testid="version-add">
            {t('admin.addVersion')}
          </BusyButton>
        </FormGroup>
      </form>
      <QueryState isLoading={list.isLoading} error={list.error} retry={() => void list.refetch()} />
      {list.data && list.data.total === 0 && <NonIdealState icon="box" title={t('versions.empty')} />}
      {list.data && list.data.total > 0 && (
        <HTMLTable striped compact style={{ width: '100%' }}>
          <thead>
            <tr>
              <th>{t('admin.version')}</th>
              <th>{t('apply.edition')}</th>
              <th>{t('admin.notes')}</th>
              <th>{t('admin.package')}</th>
              <th>{t('licences.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.rows.map((v) => (
              <tr key={v.id}>
                <td>{v.version}</td>
                <td>{t(`editions.${v.edition}`)}</td>
                <td style={{ whiteSpace: 'pre-wrap' }}>{v.notes}</td>
                <td>
                  {v.fileName ?? <span className="bp6-text-muted">{t('versions.notUploaded')}</span>}
                  <FileInput
                    small
                    text={t('admin.upload')}
                    buttonText={t('browse')}
                    disabled={uploading === v.id}
                    inputProps={{ 'aria-label': t('admin.upload') } as never}
                    onInputChange={(e) => {
                      const f = e.currentTarget.files?.[0];
                      if (f) void upload(v, f);
                    }}
                  />
                </td>
                <td>
                  <Button size="small" variant="minimal" icon="trash" aria-label={t('admin.deleteVersion')} title={t('admin.deleteVersion')} onClick={() => setDeleting(v)} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {errors._ && <Callout intent="danger">{errors._}</Callout>}
      <Alert isOpen={deleting !== null} intent="danger" icon="trash" confirmButtonText={t('admin.deleteVersion')} cancelButtonText={t('apply.cancel')} onConfirm={() => void confirmDelete()} onCancel={() => setDeleting(null)} canEscapeKeyCancel>
        {t('admin.deleteConfirm')}
      </Alert>
    </div>
  );
}
