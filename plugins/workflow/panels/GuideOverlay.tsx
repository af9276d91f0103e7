/**
 * The guide overlay (spec platform §2: shown when the query parameter `guide` is present and is
 * not the text `false`): what to do in which order, and a way to end the guide.
 */
import { Button, Callout } from '@blueprintjs/core';
import { navigationServiceRef, useAppLocation, useProjectLink, useService } from '@decisio/sdk-plugin';
import { useWorkflowT } from '../i18n';

export function GuideOverlay() {
  const { t } = useWorkflowT();
  const link = useProjectLink();
  const nav = useService(navigationServiceRef);
  const loc = useAppLocation();
  if (!link.guide) return null;
  return (
    <Callout intent="primary" icon="lightbulb" title={t('guide.title')} className="dc-workflow-guide" data-testid="workflow-guide">
      <p>{t('guide.body')}</p>
      <Button
        size="small"
        text={t('guide.close')}
        data-testid="workflow-guide-close"
        onClick={() => nav.navigate(loc.pathname, { search: { ...loc.search, guide: undefined } })}
      />
    </Callout>
  );
}
