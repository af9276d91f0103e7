import { Button, Card, Classes, H2, H5, Icon, NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useCurrentUser, useSetting } from '@decisio/sdk-plugin';
import { useDashboardT } from '../i18n';

const STEPS: { icon: IconName; title: 'welcome.step1' | 'welcome.step2' | 'welcome.step3'; text: 'welcome.step1Text' | 'welcome.step2Text' | 'welcome.step3Text' }[] = [
  { icon: 'cloud-upload', title: 'welcome.step1', text: 'welcome.step1Text' },
  { icon: 'data-lineage', title: 'welcome.step2', text: 'welcome.step2Text' },
  { icon: 'rocket-slant', title: 'welcome.step3', text: 'welcome.step3Text' },
];

/** The "Welcome" dashboard panel: greeting with the user's name and the empty project state. */
export function WelcomePanel() {
  const { t } = useDashboardT();
  const user = useCurrentUser();
  const showSteps = useSetting<boolean>('dashboard.showSteps');
  if (user.isError) {
    return (
      <NonIdealState
        icon="error"
        title={t('welcome.loadFailed')}
        action={
          <Button icon="refresh" onClick={() => void user.refetch()}>
            {t('welcome.retry')}
          </Button>
        }
      />
    );
  }
  const loading = user.isLoading || user.isUninitialized;
  const name = user.data?.nickname || user.data?.username;
  return (
    <div className="dc-page" data-testid="welcome-panel">
      <header className="dc-page-header">
        <H2 className={loading ? Classes.SKELETON : undefined} data-testid="welcome-greeting">
          {name ? t('welcome.greeting', { name }) : t('welcome.greetingAnonymous')}
        </H2>
        <p className="dc-muted">{t('welcome.subtitle')}</p>
      </header>
      <Card className="dc-empty-card">
        <NonIdealState icon="projects" title={t('welcome.emptyTitle')} description={t('welcome.emptyDescription')} data-testid="welcome-empty" />
      </Card>
      {showSteps && (
        <>
          <H5 className="dc-section-title">{t('welcome.stepsTitle')}</H5>
          <div className="dc-card-grid" data-testid="welcome-steps">
            {STEPS.map((s, i) => (
              <Card key={s.title} className="dc-step-card">
                <div className="dc-step-card-head">
                  <span className="dc-step-number">{i + 1}</span>
                  <Icon icon={s.icon} size={20} />
                </div>
                <H5>{t(s.title)}</H5>
                <p className="dc-muted">{t(s.text)}</p>
              </Card>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
