import { useState } from 'react';
import { Button, Callout } from '@blueprintjs/core';
import { useProjectLink } from '@decisio/sdk-plugin';
import { useWorkbenchT } from '../i18n/i18n';

/**
 * The generic guide note (demo mode): shown when the `guide` query parameter is present and not
 * `false`, unless a plugin's guide overlay applies (see the root layout's overlay area).
 */
export function GuideOverlay() {
  const { guide } = useProjectLink();
  const [closed, setClosed] = useState(false);
  const { t } = useWorkbenchT();
  if (!guide || closed) return null;
  return (
    <Callout className="dc-guide" intent="primary" icon="learning" title={t('guide.title')} data-testid="guide-overlay">
      <p>{t('guide.description')}</p>
      <Button size="small" onClick={() => setClosed(true)}>
        {t('guide.close')}
      </Button>
    </Callout>
  );
}
