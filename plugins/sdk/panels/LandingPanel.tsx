import { AnchorButton, Card, Icon, Tag } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { LanguageSelect, ThemeToggle, useNavigate, useSession } from '@decisio/sdk-plugin';
import { useSdkT } from '../i18n';

type FeatureKey = 1 | 2 | 3 | 4;
const FEATURES: { n: FeatureKey; icon: IconName }[] = [
  { n: 1, icon: 'data-lineage' },
  { n: 2, icon: 'predictive-analysis' },
  { n: 3, icon: 'cloud-upload' },
  { n: 4, icon: 'key' },
];

/** The public landing page (`/sdk`, `/web`). */
export function LandingPanel() {
  const { t } = useSdkT();
  const navigate = useNavigate();
  const session = useSession();
  const go = (to: string) => (e: React.MouseEvent) => {
    e.preventDefault();
    navigate(to);
  };
  return (
    <div className="dc-landing" data-testid="sdk-landing">
      <header className="dc-landing-bar">
        <span className="dc-landing-brand">
          <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
            <rect width="32" height="32" rx="7" fill="#2d72d2" />
            <circle cx="16" cy="8" r="3.2" fill="#fff" />
            <circle cx="8.5" cy="23" r="3.2" fill="#fff" />
            <circle cx="23.5" cy="23" r="3.2" fill="#9fe2bf" />
            <path d="M16 11v4M16 15l-7.5 5M16 15l7.5 5" stroke="#fff" strokeWidth="2" strokeLinecap="round" fill="none" />
          </svg>
          Decisio
        </span>
        <span className="dc-landing-actions">
          <LanguageSelect />
          <ThemeToggle />
          {session.token ? null : (
            <AnchorButton variant="minimal" href="/sign-in" onClick={go('/sign-in')} data-testid="landing-sign-in-top">
              {t('landing.signIn')}
            </AnchorButton>
          )}
        </span>
      </header>
      <section className="dc-landing-hero">
        <Tag minimal round intent="primary" large>
          {t('landing.badge')}
        </Tag>
        <h1>{t('landing.headline')}</h1>
        <p className="dc-landing-lead">{t('landing.lead')}</p>
        <div className="dc-landing-cta">
          {session.token ? (
            <AnchorButton intent="primary" large href="/dashboard" onClick={go('/dashboard')} icon="dashboard" data-testid="landing-console">
              {t('landing.console')}
            </AnchorButton>
          ) : (
            <>
              <AnchorButton intent="primary" large href="/sign-up" onClick={go('/sign-up')} icon="new-person" data-testid="landing-sign-up">
                {t('landing.signUp')}
              </AnchorButton>
              <AnchorButton large href="/sign-in" onClick={go('/sign-in')} icon="log-in" data-testid="landing-sign-in">
                {t('landing.signIn')}
              </AnchorButton>
            </>
          )}
        </div>
      </section>
      <section className="dc-landing-features" aria-label={t('landing.featuresTitle')}>
        {FEATURES.map((f) => (
          <Card key={f.n} className="dc-feature">
            <Icon icon={f.icon} size={24} intent="primary" />
            <h3>{t(`landing.feature${f.n}Title`)}</h3>
            <p className="dc-muted">{t(`landing.feature${f.n}`)}</p>
          </Card>
        ))}
      </section>
      <footer className="dc-landing-footer dc-muted">{t('landing.footer')}</footer>
    </div>
  );
}
