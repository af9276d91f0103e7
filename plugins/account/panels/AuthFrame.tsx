import type { ReactNode } from 'react';
import { Card, Icon } from '@blueprintjs/core';
import { LanguageSelect, ThemeToggle, useNavigate } from '@decisio/sdk-plugin';
import { useAccountT } from '../i18n';

/** The frame of the account pages: product pitch on the left, the form card on the right. */
export function AuthFrame(props: { children: ReactNode; wide?: boolean; testId?: string }) {
  const { t } = useAccountT();
  const navigate = useNavigate();
  return (
    <div className="dc-auth" data-testid={props.testId}>
      <aside className="dc-auth-aside">
        <a
          className="dc-auth-brand"
          href="/sdk"
          onClick={(e) => {
            e.preventDefault();
            navigate('/sdk');
          }}
        >
          <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
            <rect width="32" height="32" rx="7" fill="#fff" fillOpacity="0.18" />
            <circle cx="16" cy="8" r="3.2" fill="#fff" />
            <circle cx="8.5" cy="23" r="3.2" fill="#fff" />
            <circle cx="23.5" cy="23" r="3.2" fill="#9fe2bf" />
            <path d="M16 11v4M16 15l-7.5 5M16 15l7.5 5" stroke="#fff" strokeWidth="2" strokeLinecap="round" fill="none" />
          </svg>
          <span>Decisio</span>
        </a>
        <h2 className="dc-auth-headline">{t('frame.headline')}</h2>
        <ul className="dc-auth-points">
          <li>
            <Icon icon="data-lineage" /> {t('frame.point1')}
          </li>
          <li>
            <Icon icon="predictive-analysis" /> {t('frame.point2')}
          </li>
          <li>
            <Icon icon="cloud-upload" /> {t('frame.point3')}
          </li>
        </ul>
      </aside>
      <section className="dc-auth-main">
        <div className="dc-auth-toolbar">
          <LanguageSelect />
          <ThemeToggle />
        </div>
        <Card className={`dc-auth-card${props.wide ? ' dc-auth-card-wide' : ''}`} elevation={1}>
          {props.children}
        </Card>
      </section>
    </div>
  );
}
