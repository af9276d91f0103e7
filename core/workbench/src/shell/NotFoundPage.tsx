import { AnchorButton, NonIdealState } from '@blueprintjs/core';
import { useWorkbenchT } from '../i18n/i18n';

/** Shown for unknown paths (and unknown paths under `/project`). */
export function NotFoundPage() {
  const { t } = useWorkbenchT();
  return (
    <div className="dc-center-page" data-testid="not-found">
      <NonIdealState
        icon="search"
        title={t('notFound.title')}
        description={t('notFound.description')}
        action={
          <AnchorButton href="/" intent="primary" icon="home">
            {t('notFound.home')}
          </AnchorButton>
        }
      />
    </div>
  );
}
