/** A screen of the workflow that a later issue fills: says so and links to the project workbench. */
import { Button, NonIdealState } from '@blueprintjs/core';
import { useProjectLink, type PanelProps } from '@decisio/sdk-plugin';
import type { StepId } from '../model/steps';
import { useWorkflowT } from '../i18n';
import { GuideOverlay } from './GuideOverlay';
import './workflow.css';

/** The "coming next" panel of a step. */
export function comingNextPanel(step: StepId) {
  function ComingNextPanel(_props: PanelProps) {
    const { t } = useWorkflowT();
    const link = useProjectLink();
    return (
      <div className="dc-workflow-panel" data-testid={`workflow-coming-${step}`}>
        <GuideOverlay />
        <NonIdealState
          icon="time"
          title={t('comingNext.title', { screen: t(`steps.${step}`) })}
          description={`${t(`stepHelp.${step}`)} ${t('comingNext.description')}`}
          action={<Button icon="flows" text={t('comingNext.toWorkbench')} onClick={() => link.go('/project/workbench')} />}
        />
      </div>
    );
  }
  return ComingNextPanel;
}
