import { Button, H4 } from '@blueprintjs/core';
import { useNavigate } from '@decisio/sdk-plugin';
import { useAccountT } from '../i18n';
import { AuthFrame } from './AuthFrame';

const UPDATED = '2026-11-01';

/** Privacy policy (`/privacy`). */
export function PrivacyPanel() {
  const { t } = useAccountT();
  const navigate = useNavigate();
  return (
    <AuthFrame wide testId="privacy-page">
      <h1 className="dc-auth-title">{t('privacy.heading')}</h1>
      <p className="dc-muted">{t('legal.updated', { date: UPDATED })}</p>
      <p>{t('privacy.intro')}</p>
      <H4>{t('privacy.collectTitle')}</H4>
      <p>{t('privacy.collect')}</p>
      <H4>{t('privacy.useTitle')}</H4>
      <p>{t('privacy.use')}</p>
      <H4>{t('privacy.storageTitle')}</H4>
      <p>{t('privacy.storage')}</p>
      <H4>{t('privacy.rightsTitle')}</H4>
      <p>{t('privacy.rights')}</p>
      <Button icon="arrow-left" onClick={() => navigate('/sign-up')}>
        {t('legal.backToSignUp')}
      </Button>
    </AuthFrame>
  );
}

/** User agreement (`/agreement`). */
export function AgreementPanel() {
  const { t } = useAccountT();
  const navigate = useNavigate();
  return (
    <AuthFrame wide testId="agreement-page">
      <h1 className="dc-auth-title">{t('agreement.heading')}</h1>
      <p className="dc-muted">{t('legal.updated', { date: UPDATED })}</p>
      <p>{t('agreement.intro')}</p>
      <H4>{t('agreement.accountTitle')}</H4>
      <p>{t('agreement.account')}</p>
      <H4>{t('agreement.useTitle')}</H4>
      <p>{t('agreement.use')}</p>
      <H4>{t('agreement.dataTitle')}</H4>
      <p>{t('agreement.data')}</p>
      <H4>{t('agreement.liabilityTitle')}</H4>
      <p>{t('agreement.liability')}</p>
      <Button icon="arrow-left" onClick={() => navigate('/sign-up')}>
        {t('legal.backToSignUp')}
      </Button>
    </AuthFrame>
  );
}
