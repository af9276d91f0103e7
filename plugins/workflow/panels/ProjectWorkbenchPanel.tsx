/**
 * The project workbench (`/project/workbench?projectId=…&solutionId=…`): the solution's
 * modelling steps in order with their states, the next step highlighted, each opening its
 * screen with the project link parameters carried; then the areas after training (deductions,
 * deploy, reports, business decision, policy update, hyperparameters, project log).
 */
import { Button, Card, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { isApiError, useProjectLink, type PanelProps } from '@decisio/sdk-plugin';
import { workflowApi } from '../api';
import { AREA_LINKS, solutionSteps, type StepState } from '../model/steps';
import { useWorkflowT } from '../i18n';
import './workflow.css';

const STATE_INTENT: Record<StepState, Intent> = { todo: 'none', started: 'primary', running: 'warning', done: 'success', failed: 'danger' };

export function ProjectWorkbenchPanel(_props: PanelProps) {
  const { t } = useWorkflowT();
  const link = useProjectLink();
  const solutionId = link.params.solutionId ?? '';
  const skip = { skip: !solutionId };
  const ref = { solutionId };
  const solution = workflowApi.endpoints['workflow/solution'].useQuery(ref, skip);
  const correlation = workflowApi.endpoints['workflow/correlation'].useQuery(ref, skip);
  const pattern = workflowApi.endpoints['workflow/pattern'].useQuery(ref, skip);
  const schemes = workflowApi.endpoints['workflow/schemes'].useQuery(ref, skip);
  const simulators = workflowApi.endpoints['workflow/simulators'].useQuery(ref, skip);
  const objectives = workflowApi.endpoints['workflow/objectives'].useQuery(ref, skip);
  const tuning = solution.currentData?.goalType === 'parameter_tuning';
  const policies = workflowApi.endpoints['workflow/policies'].useQuery(ref, { skip: !solutionId || !solution.currentData || tuning });
  const parameters = workflowApi.endpoints['workflow/parameters'].useQuery(ref, { skip: !solutionId || !solution.currentData || !tuning });

  if (!solutionId) {
    return (
      <div className="dc-workflow-panel">
        <NonIdealState
          icon="flows"
          title={t('workbench.noSolution')}
          description={t('workbench.noSolutionHelp')}
          action={<Button icon="projects" text={t('workbench.toProjects')} onClick={() => link.go('/all-project')} />}
        />
      </div>
    );
  }
  // `currentData`: another solution's answers (`data`) would tick its steps here while this one's load.
  if (!solution.currentData && !solution.isError) return <NonIdealState icon={<Spinner aria-label={t('workbench.loading')} />} title={t('workbench.loading')} />;
  if (solution.isError || !solution.currentData) {
    return (
      <NonIdealState
        icon="error"
        title={t('workbench.failed', { message: isApiError(solution.error) ? solution.error.message : '' })}
        action={<Button icon="refresh" text={t('workbench.retry')} onClick={() => void solution.refetch()} />}
      />
    );
  }
  const steps = solutionSteps({
    goalType: solution.currentData.goalType,
    correlation: correlation.currentData?.correlation,
    graphNodes: pattern.currentData?.graph?.nodes?.length ?? 0,
    schemes: schemes.currentData?.rows,
    simulators: simulators.currentData?.rows,
    objectives: objectives.currentData?.rows,
    policies: policies.currentData?.rows,
    parameters: parameters.currentData?.rows,
  });
  return (
    <div className="dc-workflow-panel" data-testid="workflow-workbench">
      <div className="dc-workflow-heading">
        <h2>{t('workbench.heading', { name: solution.currentData.name })}</h2>
        <Button icon="bug" variant="minimal" text={t('workbench.debug')} onClick={() => link.go('/workflow/debug')} data-testid="workflow-open-debug" />
        <Button icon="history" variant="minimal" text={t('workbench.projectLog')} onClick={() => link.go('/project/project-log')} data-testid="workflow-open-project-log" />
      </div>
      <ol className="dc-workflow-steps">
        {steps.map((s, i) => (
          <li key={s.id}>
            <Card className={`dc-workflow-step${s.current ? ' is-current' : ''}`} data-testid={`workflow-step-${s.id}`} data-state={s.state}>
              <span className="dc-workflow-step-index" aria-hidden>
                {i + 1}
              </span>
              <div className="dc-workflow-step-body">
                <h4>{t(`steps.${s.id}`)}</h4>
                <p>{t(`stepHelp.${s.id}`)}</p>
              </div>
              <Tag intent={STATE_INTENT[s.state]} minimal={s.state === 'todo'}>
                {t(`states.${s.state}`)}
              </Tag>
              <Button
                intent={s.current ? 'primary' : 'none'}
                rightIcon="arrow-right"
                text={s.current ? t('workbench.next') : t('workbench.open')}
                data-testid={`workflow-open-${s.id}`}
                onClick={() => link.go(s.route)}
              />
            </Card>
          </li>
        ))}
      </ol>
      <section className="dc-workflow-areas" aria-labelledby="dc-workflow-areas-title" data-testid="workflow-areas">
        <h3 id="dc-workflow-areas-title">{t('areas.heading')}</h3>
        <div className="dc-workflow-areas-list">
          {AREA_LINKS.map((a) => (
            <Button
              key={a.id}
              icon={a.icon as IconName}
              variant="outlined"
              text={t(`areas.${a.id}`)}
              data-testid={`workflow-area-${a.id}`}
              onClick={() => link.go(a.route)}
            />
          ))}
        </div>
      </section>
    </div>
  );
}
