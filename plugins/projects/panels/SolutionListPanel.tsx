import { useState } from 'react';
import { Button, ButtonGroup, Callout, Card, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { SolutionItem } from '@decisio/domain';
import { useAppLocation, useNavigate, useNotify } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { CopySolutionDialog } from '../components/CopySolutionDialog';
import { DeleteSolutionDialog } from '../components/DeleteSolutionDialog';
import { describeFailure } from '../components/errors';
import { SolutionDialog } from '../components/SolutionDialog';
import { useProjectsT } from '../i18n';
import './projects.css';

type Open = { kind: 'create' } | { kind: 'edit' | 'delete' | 'copy'; solution: SolutionItem } | null;

/**
 * The solutions of the project selected in the list (`projectId` in the location): pinned
 * first; create, rename, copy, pin and delete for users who may edit the project.
 */
export function SolutionListPanel() {
  const { t, locale } = useProjectsT();
  const notify = useNotify();
  const location = useAppLocation();
  const navigate = useNavigate();
  const projectId = location.search.projectId;
  const [open, setOpen] = useState<Open>(null);
  const project = projectsApi.endpoints['projects/get'].useQuery({ projectId: projectId ?? '' }, { skip: !projectId });
  const list = projectsApi.endpoints['projects/solutions'].useQuery({ projectId: projectId ?? '' }, { skip: !projectId });
  const [pin] = projectsApi.endpoints['projects/pinSolution'].useMutation();

  if (!projectId) {
    return (
      <div className="dc-projects-panel" data-testid="solutions-panel">
        <NonIdealState icon="select" title={t('solutions.selectProject')} description={t('solutions.selectProjectDescription')} />
      </div>
    );
  }

  const canEdit = project.currentData ? project.currentData.right !== 'view' && !project.currentData.locked : false;
  const act = async (run: () => Promise<unknown>, success?: string) => {
    try {
      await run();
      if (success) notify({ message: success, intent: 'success', icon: 'tick-circle' });
    } catch (err) {
      const f = describeFailure(err, t('solutions.actionFailed'));
      if (f.message) notify({ message: f.message, intent: 'danger', icon: 'error' });
    }
  };

  let body;
  // `currentData`: the previous project's solutions and rights (`data`) are never shown for this one.
  if ((!project.currentData && project.isFetching) || (!list.currentData && list.isFetching)) body = <Spinner className="dc-gap-top" />;
  else if (project.isError || list.isError)
    body = (
      <NonIdealState
        icon="error"
        title={t('solutions.loadFailed')}
        action={
          <Button
            icon="refresh"
            text={t('solutions.retry')}
            onClick={() => {
              void project.refetch();
              void list.refetch();
            }}
          />
        }
      />
    );
  else if ((list.currentData ?? []).length === 0)
    body = (
      <div data-testid="solutions-empty">
        <NonIdealState
          icon="folder-new"
          title={t('solutions.emptyTitle')}
          description={t('solutions.emptyDescription')}
          action={canEdit ? <Button intent="primary" icon="plus" text={t('solutions.create')} onClick={() => setOpen({ kind: 'create' })} /> : undefined}
        />
      </div>
    );
  else
    body = (
      <ul className="dc-projects-rows" data-testid="solutions-rows">
        {(list.currentData ?? []).map((s) => (
          <li key={s.solutionId}>
            <Card className="dc-projects-row" data-testid={`solution-row-${s.solutionId}`}>
              <div className="dc-projects-row-main">
                <strong>{s.name}</strong> {s.pinned && <Tag icon="pin" minimal intent="primary">{t('solutions.pinned')}</Tag>}
                {s.description && <div className="dc-projects-row-info">{s.description}</div>}
                <div className="dc-projects-row-meta">
                  <span>{t(`solutionType.${s.dataType}`)}</span>
                  <span>{t(`solutionType.${s.goalType}`)}</span>
                  <span>{t('solutions.creator', { name: s.creatorName })}</span>
                  <span>{new Date(s.createdAt).toLocaleString(locale)}</span>
                </div>
              </div>
              <Button
                icon="flows"
                text={t('solutions.open')}
                onClick={() => navigate('/project/workbench', { search: { ...(location.search.guide !== undefined ? { guide: location.search.guide } : {}), projectId, solutionId: s.solutionId } })}
                data-testid="solution-open"
              />
              {canEdit && (
                <ButtonGroup variant="minimal">
                  <Button
                    icon={s.pinned ? 'unpin' : 'pin'}
                    aria-label={t(s.pinned ? 'solutions.unpin' : 'solutions.pin')}
                    title={t(s.pinned ? 'solutions.unpin' : 'solutions.pin')}
                    onClick={() => void act(() => pin({ solutionId: s.solutionId, pinned: !s.pinned }).unwrap())}
                  />
                  <Button icon="edit" aria-label={t('solutions.edit')} title={t('solutions.edit')} onClick={() => setOpen({ kind: 'edit', solution: s })} />
                  <Button
                    icon="duplicate"
                    aria-label={t('solutions.copy')}
                    title={t('solutions.copy')}
                    onClick={() => setOpen({ kind: 'copy', solution: s })}
                  />
                  <Button
                    icon="trash"
                    intent="danger"
                    aria-label={t('solutions.delete')}
                    title={t('solutions.delete')}
                    onClick={() => setOpen({ kind: 'delete', solution: s })}
                  />
                </ButtonGroup>
              )}
            </Card>
          </li>
        ))}
      </ul>
    );

  return (
    <div className="dc-projects-panel" data-testid="solutions-panel">
      <div className="dc-row-between">
        <h3 className="dc-section-title">{project.currentData ? t('solutions.title', { name: project.currentData.name }) : t('solutionsPanel')}</h3>
        {canEdit && <Button intent="primary" icon="plus" text={t('solutions.create')} onClick={() => setOpen({ kind: 'create' })} data-testid="solutions-create" />}
      </div>
      {project.currentData?.locked && (
        <Callout intent="warning" icon="lock">
          {t('solutions.locked')}
        </Callout>
      )}
      {project.currentData && project.currentData.right === 'view' && (
        <Callout icon="eye-open" data-testid="solutions-read-only">
          {t('solutions.readOnly')}
        </Callout>
      )}
      {body}
      {open?.kind === 'create' && <SolutionDialog projectId={projectId} onClose={() => setOpen(null)} />}
      {open?.kind === 'edit' && <SolutionDialog projectId={projectId} solution={open.solution} onClose={() => setOpen(null)} />}
      {open?.kind === 'delete' && <DeleteSolutionDialog solution={open.solution} onClose={() => setOpen(null)} />}
      {open?.kind === 'copy' && <CopySolutionDialog solution={open.solution} onClose={() => setOpen(null)} />}
    </div>
  );
}
