import { useState } from 'react';
import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';
import './projects.css';

/** Recent activity (`message/getActivity`) of the projects the user owns or collaborates on. */
export function ActivityPanel() {
  const { t, locale } = useProjectsT();
  const [pageSize, setPageSize] = useState(20);
  const feed = projectsApi.endpoints['projects/activity'].useQuery({ page: 1, pageSize });
  if (feed.isLoading) return <Spinner className="dc-gap-top" />;
  if (feed.isError)
    return <NonIdealState icon="error" title={t('activity.loadFailed')} action={<Button icon="refresh" text={t('activity.retry')} onClick={() => void feed.refetch()} />} />;
  const rows = feed.data?.rows ?? [];
  if (rows.length === 0)
    return (
      <div className="dc-center-page" data-testid="projects-activity-empty">
        <NonIdealState icon="history" title={t('activity.emptyTitle')} description={t('activity.emptyDescription')} />
      </div>
    );
  return (
    <div className="dc-projects-panel" data-testid="projects-activity">
      <ul className="dc-projects-activity">
        {rows.map((a) => (
          <li key={a.id}>
            {t(`activity.action.${a.action.replace('.', '_') as 'project_create'}`, { user: a.username, target: a.targetName })}
            <time dateTime={a.createdAt}>{new Date(a.createdAt).toLocaleString(locale)}</time>
          </li>
        ))}
      </ul>
      {(feed.data?.total ?? 0) > rows.length && pageSize < 100 && (
        <Button variant="minimal" text={t('activity.more')} onClick={() => setPageSize(Math.min(100, pageSize + 20))} />
      )}
    </div>
  );
}
