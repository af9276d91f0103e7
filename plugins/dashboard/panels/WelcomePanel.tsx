import { useState } from 'react';
import { Button, Callout, Card, Classes, H2, H5, Icon, NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { BusyButton, isApiError, useCurrentUser, useNavigate, useSetting } from '@decisio/sdk-plugin';
import { dashboardApi } from '../api';
import { useDashboardT } from '../i18n';

const STEPS: { icon: IconName; title: 'welcome.step1' | 'welcome.step2' | 'welcome.step3'; text: 'welcome.step1Text' | 'welcome.step2Text' | 'welcome.step3Text' }[] = [
  { icon: 'cloud-upload', title: 'welcome.step1', text: 'welcome.step1Text' },
  { icon: 'data-lineage', title: 'welcome.step2', text: 'welcome.step2Text' },
  { icon: 'rocket-slant', title: 'welcome.step3', text: 'welcome.step3Text' },
];

/** Where a guided first run starts: the data-access step of the new project, with the guide on. */
export const GUIDE_START = '/workflow/table-correlation';

/**
 * "Guided first run": one button per industry template; each creates a template project (its
 * data, table correlation, decision graph and reward seeded by the server) and opens its first
 * step with the step guide on.
 */
function GuidedFirstRun() {
  const { t, locale } = useDashboardT();
  const navigate = useNavigate();
  const templates = dashboardApi.endpoints['dashboard/templates'].useQuery();
  const [create, created] = dashboardApi.endpoints['dashboard/createTemplateProject'].useMutation();
  const [pending, setPending] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const start = async (templateId: string) => {
    setFailure(null);
    setPending(templateId);
    try {
      const r = await create({ templateId }).unwrap();
      navigate(GUIDE_START, { search: { projectId: r.project.projectId, solutionId: r.solutionId, guide: 'true' } });
    } catch (err) {
      setFailure(t('guided.failed', { message: isApiError(err) ? err.message : '' }));
    } finally {
      setPending(null);
    }
  };

  let body;
  if (templates.isError) {
    body = (
      <Button icon="refresh" onClick={() => void templates.refetch()} data-testid="guided-retry">
        {t('welcome.retry')}
      </Button>
    );
  } else if (!templates.data) {
    body = <div className={Classes.SKELETON} style={{ height: 96 }} aria-busy="true" aria-label={t('guided.loading')} />;
  } else {
    body = (
      <div className="dc-card-grid">
        {templates.data.map((tpl) => (
          <Card key={tpl.id} className="dc-step-card" data-testid={`guided-template-${tpl.id}`}>
            <H5>{tpl.name[locale]}</H5>
            <p className="dc-muted">{tpl.description[locale]}</p>
            <BusyButton
              intent="primary"
              icon="learning"
              loading={pending === tpl.id}
              disabled={created.isLoading && pending !== tpl.id}
              data-testid={`guided-start-${tpl.id}`}
              onClick={() => void start(tpl.id)}
            >
              {t('guided.start')}
            </BusyButton>
          </Card>
        ))}
      </div>
    );
  }
  return (
    <section aria-labelledby="dashboard-guided-title" className="dc-gap" data-testid="guided-first-run">
      <H5 id="dashboard-guided-title" className="dc-section-title">
        {t('guided.title')}
      </H5>
      <p className="dc-muted">{t('guided.description')}</p>
      {failure && (
        <Callout intent="danger" icon="error" className="dc-gap" data-testid="guided-error">
          {failure}
        </Callout>
      )}
      {body}
    </section>
  );
}

/** The "Welcome" dashboard panel: greeting with the user's name, the guided first run and the steps. */
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
      <GuidedFirstRun />
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
