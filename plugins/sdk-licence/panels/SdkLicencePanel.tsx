import { useState } from 'react';
import { AnchorButton, Button, Callout, Card, H4, HTMLTable, NonIdealState } from '@blueprintjs/core';
import type { SdkLicenceItem } from '@decisio/domain';
import { isApiError, useLocale, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { licenceApi } from '../api';
import { useLicenceT } from '../i18n';
import { licenceNotices } from '../model/notices';
import { ApplyDialog } from './ApplyDialog';
import { QueryState, StatusTag } from './common';

/**
 * `/sdk-licence`: SDK versions to download with their release notes, the licence public key,
 * the user's licences with "expired" / "expires in N days" notices, licence files and renewal.
 */
export function SdkLicencePanel(_props: PanelProps) {
  const { t } = useLicenceT();
  const locale = useLocale();
  const notify = useNotify();
  const [applying, setApplying] = useState(false);
  const versions = licenceApi.endpoints['sdk-licence/versions'].useQuery({});
  const licences = licenceApi.endpoints['sdk-licence/licences'].useQuery({ page: 1, pageSize: 100 });
  const [renew] = licenceApi.endpoints['sdk-licence/renew'].useMutation();
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const fail = (err: unknown) => {
    if (!isApiError(err) || !err.handled) notify({ message: isApiError(err) ? err.message : t('apply.failed'), intent: 'danger', icon: 'error' });
  };
  const askRenewal = async (l: SdkLicenceItem) => {
    try {
      await renew({ id: l.id }).unwrap();
      notify({ message: t('licences.renewed'), intent: 'success', icon: 'tick-circle' });
    } catch (err) {
      fail(err);
    }
  };
  const rows = licences.data?.rows ?? [];
  const notices = licenceNotices(rows);
  const label = (l: SdkLicenceItem) => ({ edition: t(`editions.${l.edition}`), type: t(`types.${l.type}`) });

  return (
    <div className="dc-panel" style={{ padding: 16, height: '100%', overflow: 'auto', display: 'grid', gap: 16, alignContent: 'start' }} data-testid="sdk-licence-panel">
      {notices.map((n) => (
        <Callout key={n.licence.id} intent={n.kind === 'expired' ? 'danger' : 'warning'} icon="time" data-testid={`licence-notice-${n.kind}`}>
          {n.kind === 'expired' ? t('licences.expired', label(n.licence)) : t('licences.expiring', { ...label(n.licence), days: n.days })}{' '}
          <Button size="small" intent="primary" onClick={() => void askRenewal(n.licence)}>
            {t('licences.renew')}
          </Button>
        </Callout>
      ))}
      <section>
        <H4>{t('versions.heading')}</H4>
        <p className="bp6-text-muted">{t('versions.env')}</p>
        <QueryState isLoading={versions.isLoading} error={versions.error} retry={() => void versions.refetch()} />
        {versions.data && versions.data.total === 0 && <p className="bp6-text-muted" data-testid="sdk-versions-empty">{t('versions.empty')}</p>}
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 12 }}>
          {versions.data?.rows.map((v) => (
            <Card key={v.id} compact data-testid="sdk-version">
              <strong>
                {t(`editions.${v.edition}`)} {v.version}
              </strong>
              <div className="bp6-text-muted bp6-text-small">{date.format(new Date(v.createdAt))}</div>
              {v.notes && <p style={{ whiteSpace: 'pre-wrap', margin: '8px 0' }}>{v.notes}</p>}
              {v.fileName ? (
                <AnchorButton icon="download" size="small" href={`/api/sdkVersion/downloadSdkVersion?id=${v.id}`} download={v.fileName}>
                  {t('versions.download')} ({t('versions.size', { size: ((v.size ?? 0) / 1024 ** 2).toFixed(1) })})
                </AnchorButton>
              ) : (
                <span className="bp6-text-muted">{t('versions.notUploaded')}</span>
              )}
            </Card>
          ))}
        </div>
        <p style={{ marginTop: 12 }}>
          <AnchorButton icon="key" variant="outlined" size="small" href="/api/sdkLicense/downloadLicencePublicKey" download data-testid="licence-public-key">
            {t('versions.publicKey')}
          </AnchorButton>{' '}
          <span className="bp6-text-muted">{t('versions.verifierHelp')}</span>
        </p>
      </section>
      <section>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <H4 style={{ margin: 0, flex: 1 }}>{t('licences.heading')}</H4>
          <Button icon="refresh" onClick={() => void licences.refetch()} aria-label={t('licences.refresh')} title={t('licences.refresh')} />
          <Button icon="add" intent="primary" onClick={() => setApplying(true)} data-testid="licence-apply">
            {t('licences.apply')}
          </Button>
        </div>
        <QueryState isLoading={licences.isLoading} error={licences.error} retry={() => void licences.refetch()} />
        {licences.data && licences.data.total === 0 && <NonIdealState icon="key" title={t('licences.empty.title')} description={t('licences.empty.description')} />}
        {rows.length > 0 && (
          <HTMLTable striped compact style={{ width: '100%', marginTop: 8 }} data-testid="licences-table">
            <thead>
              <tr>
                <th>{t('licences.columns.type')}</th>
                <th>{t('licences.columns.edition')}</th>
                <th>{t('licences.columns.status')}</th>
                <th>{t('licences.columns.device')}</th>
                <th>{t('licences.columns.valid')}</th>
                <th>{t('licences.columns.opinion')}</th>
                <th>{t('licences.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((l) => (
                <tr key={l.id} data-testid="licence-row" data-status={l.status}>
                  <td>{t(`types.${l.type}`)}</td>
                  <td>{t(`editions.${l.edition}`)}</td>
                  <td>
                    <StatusTag status={l.status} />
                  </td>
                  <td>{l.deviceFileName ?? '—'}</td>
                  <td>
                    {l.endAt ? date.format(new Date(l.endAt)) : '—'}
                    {l.status === 'success' && l.daysLeft !== null && <div className="bp6-text-muted bp6-text-small">{t('licences.daysLeft', { days: l.daysLeft })}</div>}
                  </td>
                  <td>{l.reviewOpinion ?? ''}</td>
                  <td>
                    {l.status === 'success' && (
                      <AnchorButton size="small" icon="download" href={`/api/sdkLicense/downloadLicenceFile?id=${l.id}`} download data-testid="licence-download">
                        {t('licences.downloadFile')}
                      </AnchorButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </section>
      <ApplyDialog isOpen={applying} onClose={() => setApplying(false)} />
    </div>
  );
}
