import { NonIdealState } from '@blueprintjs/core';
import { useDashboardT } from '../i18n';

/** "Recent activity" panel: empty until the projects area records activity. */
export function ActivityPanel() {
  const { t } = useDashboardT();
  return (
    <div className="dc-center-page" data-testid="activity-panel">
      <NonIdealState icon="history" title={t('activity.emptyTitle')} description={t('activity.emptyDescription')} />
    </div>
  );
}
