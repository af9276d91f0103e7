import { AnchorButton, NonIdealState } from '@blueprintjs/core';
import { useSdkT } from '../i18n';

/** The maintenance page (`/maintenance`). */
export function MaintenancePanel() {
  const { t } = useSdkT();
  return (
    <div className="dc-center-page" data-testid="maintenance-page">
      <NonIdealState
        icon="wrench"
        title={t('maintenance.title')}
        description={t('maintenance.description')}
        action={
          <AnchorButton href="/" icon="home">
            {t('maintenance.home')}
          </AnchorButton>
        }
      />
    </div>
  );
}
