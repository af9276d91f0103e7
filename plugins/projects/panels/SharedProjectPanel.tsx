import { useState } from 'react';
import { Callout, Card, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core';
import type { ShareModule } from '@decisio/domain';
import { useAppLocation } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';
import { TAG_COLOUR_HEX } from '../model/colours';
import { SharedModule } from './SharedModule';
import './projects.css';

/** A share link (`/shared-project?token=...`): a read-only view of the project and its chosen modules, one tab each. */
export function SharedProjectPanel() {
  const { t } = useProjectsT();
  const token = useAppLocation().search.token ?? '';
  if (!token) return <NonIdealState icon="link" title={t('shared.missingToken')} />;
  // Keyed by the token: another link loads afresh (never the previous link's project while it
  // loads) and opens on its first tab.
  return <SharedProject key={token} token={token} />;
}

function SharedProject({ token }: { token: string }) {
  const { t, locale } = useProjectsT();
  const shared = projectsApi.endpoints['projects/shared'].useQuery({ token });
  const [chosen, setChosen] = useState<ShareModule | null>(null);
  if (shared.isLoading) return <Spinner className="dc-gap-top" />;
  if (shared.isError || !shared.data) return <NonIdealState icon="error" title={t('shared.loadFailed')} description={(shared.error as { message?: string } | undefined)?.message} />;
  const { project, modules, solutions } = shared.data;
  const module = chosen && modules.includes(chosen) ? chosen : (modules[0] ?? null);
  return (
    <div className="dc-page" data-testid="shared-project">
      <div className="dc-page-header">
        <h2>
          <span className="dc-projects-swatch" style={{ background: TAG_COLOUR_HEX[project.colour] }} aria-hidden />
          {project.name}
        </h2>
        {project.info && <p className="dc-muted">{project.info}</p>}
      </div>
      <Callout icon="eye-open" className="dc-gap">
        {t('shared.readOnly', { name: project.ownerName })}
      </Callout>
      <h4 className="dc-section-title">{t('shared.modules')}</h4>
      <Tabs id="shared-modules" selectedTabId={module ?? undefined} onChange={(id) => setChosen(id as ShareModule)}>
        {modules.map((m) => (
          <Tab key={m} id={m} title={t(`module.${m}`)} />
        ))}
      </Tabs>
      {module && <SharedModule token={token} module={module} />}
      <h4 className="dc-section-title">{t('shared.solutions')}</h4>
      {solutions.length === 0 ? (
        <p className="dc-muted">{t('shared.none')}</p>
      ) : (
        <ul className="dc-projects-rows">
          {solutions.map((s) => (
            <li key={s.solutionId}>
              <Card className="dc-projects-row">
                <div className="dc-projects-row-main">
                  <strong>{s.name}</strong>
                  <div className="dc-projects-row-meta">
                    <span>{t(`solutionType.${s.dataType}`)}</span>
                    <span>{t(`solutionType.${s.goalType}`)}</span>
                    <span>{new Date(s.createdAt).toLocaleString(locale)}</span>
                  </div>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
