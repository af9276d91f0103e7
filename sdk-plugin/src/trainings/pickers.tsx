/** Choosing the solution a page works in, and its policies (deploy, reports, business decision, policy update). */
import { useState } from 'react';
import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useProjectLink } from '../react';
import { trainingsApi } from './api';
import { useTrainingsT } from './i18n';

/**
 * The solution the page works in: the link's `solutionId`, else one the user picks from the
 * project's solutions (the first one by default).
 */
export function useSolutionChoice(projectId: string | undefined) {
  const { t } = useTrainingsT();
  const link = useProjectLink();
  const fromLink = link.params.solutionId;
  const list = trainingsApi.endpoints['trainings/solutions'].useQuery({ projectId: projectId ?? '' }, { skip: !projectId || !!fromLink });
  const [picked, setPicked] = useState<string | undefined>(undefined);
  // The project's own solutions only (`currentData`): another project's are never offered while
  // these load, and a pick counts only while the project offers it, so a solution picked in
  // another project is never used in this one.
  const solutions = list.currentData ?? [];
  const solutionId = fromLink ?? (solutions.some((s) => s.solutionId === picked) ? picked : solutions[0]?.solutionId);
  const loading = !fromLink && !!projectId && list.currentData === undefined && !list.isError;
  const picker = fromLink ? null : (
    <FormGroup label={t('solution.label')} labelFor="deploy-solution" inline style={{ margin: 0 }}>
      <HTMLSelect id="deploy-solution" value={solutionId ?? ''} onChange={(e) => setPicked(e.currentTarget.value)} disabled={solutions.length === 0}>
        {solutions.length === 0 && <option value="">{t('solution.none')}</option>}
        {solutions.map((s) => (
          <option key={s.solutionId} value={s.solutionId}>
            {s.name}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
  return { solutionId, picker, loading, empty: !fromLink && !loading && solutions.length === 0 };
}

/** {@link useSolutionChoice} and the policies of the chosen solution (asked only while `enabled`). */
export function useSolutionPolicies(projectId: string | undefined, enabled = true) {
  const choice = useSolutionChoice(enabled ? projectId : undefined);
  const policies = trainingsApi.endpoints['trainings/policies'].useQuery({ solutionId: choice.solutionId ?? '' }, { skip: !enabled || !choice.solutionId });
  return { ...choice, policies };
}
