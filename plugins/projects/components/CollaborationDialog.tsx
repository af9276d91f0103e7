import { useState } from 'react';
import { Button, Callout, HTMLSelect, InputGroup, Menu, MenuItem, Spinner, Tag } from '@blueprintjs/core';
import type { CollaborationPermission, CollaboratorCandidate, ProjectItem } from '@decisio/domain';
import { useNotify } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';
import { describeFailure } from './errors';
import { OwnerDialog, useOwnerChange } from './OwnerDialog';

interface Pending extends CollaboratorCandidate {
  permission: CollaborationPermission;
}

/**
 * Project collaboration: the current grants (the owner may change their right or remove them) and new grants of edit or
 * view to users or organisations of the tenant (those with a grant already are not offered).
 * At least one grant is required to submit;
 * someone who is not the owner sees why they cannot change anything.
 */
export function CollaborationDialog({ project, onClose }: { project: ProjectItem; onClose(): void }) {
  const { t } = useProjectsT();
  const notify = useNotify();
  const isOwner = project.right === 'owner';
  const [keyword, setKeyword] = useState('');
  const [pending, setPending] = useState<Pending[]>([]);
  const { error, setError, change } = useOwnerChange(t('collab.failed'));
  const current = projectsApi.endpoints['projects/permissions'].useQuery({ projectId: project.projectId });
  const candidates = projectsApi.endpoints['projects/candidates'].useQuery(
    { projectId: project.projectId, keyword: keyword.trim() || undefined },
    { skip: !isOwner },
  );
  // Who has a grant already is not offered again: the list follows the grants (read again after a grant or a removal).
  const granted = new Set((current.data ?? []).map((g) => `${g.subjectType}:${g.subjectId}`));
  const offered = (candidates.data ?? []).filter((c) => !granted.has(`${c.subjectType}:${c.subjectId}`));
  const [grant, granting] = projectsApi.endpoints['projects/grant'].useMutation();
  const [revoke] = projectsApi.endpoints['projects/revoke'].useMutation();

  const add = (c: CollaboratorCandidate) => {
    setError(null);
    setPending((p) => (p.some((x) => x.subjectId === c.subjectId) ? p : [...p, { ...c, permission: 'view' }]));
  };
  const submit = async () => {
    if (pending.length === 0) {
      setError(t('collab.atLeastOne'));
      return;
    }
    const permissions = pending.map((p) => ({ subjectType: p.subjectType, subjectId: p.subjectId, permission: p.permission }));
    if (await change(() => grant({ projectId: project.projectId, permissions }).unwrap(), t('collab.saved'))) setPending([]);
  };
  const changeRight = async (g: { subjectType: CollaboratorCandidate['subjectType']; subjectId: string }, permission: CollaborationPermission) => {
    setError(null);
    await change(() => grant({ projectId: project.projectId, permissions: [{ subjectType: g.subjectType, subjectId: g.subjectId, permission }] }).unwrap(), t('collab.saved'));
  };
  const removeOne = async (id?: string) => {
    try {
      await revoke({ projectId: project.projectId, ids: id ? [id] : undefined }).unwrap();
      notify({ message: t('collab.removed'), intent: 'success', icon: 'tick-circle' });
    } catch (err) {
      const f = describeFailure(err, t('collab.failed'));
      if (f.message) notify({ message: f.message, intent: 'danger', icon: 'error' });
    }
  };

  return (
    <OwnerDialog
      title={t('collab.title', { name: project.name })}
      isOwner={isOwner}
      noRight={t('collab.noRight')}
      testId="collab"
      error={error}
      undo={(current.data ?? []).length > 0 ? { text: t('collab.removeAll'), onClick: () => void removeOne() } : null}
      closeText={t('collab.close')}
      saveText={t('collab.save')}
      saving={granting.isLoading}
      onSave={() => void submit()}
      onClose={onClose}
    >
      <h4 className="dc-section-title">{t('collab.current')}</h4>
      {current.isLoading ? (
        <Spinner size={20} />
      ) : current.isError ? (
        <Callout intent="danger">{t('collab.loadFailed')}</Callout>
      ) : (current.data ?? []).length === 0 ? (
        <p className="dc-muted" data-testid="collab-none">
          {t('collab.none')}
        </p>
      ) : (
        <ul className="dc-projects-plain-list" data-testid="collab-current">
          {(current.data ?? []).map((g) => (
            <li key={g.id} className="dc-row-between">
              <span>
                <Tag minimal icon={g.subjectType === 'user' ? 'person' : 'people'}>
                  {t(g.subjectType === 'user' ? 'collab.user' : 'collab.org')}
                </Tag>{' '}
                {g.subjectName}
                {isOwner ? null : ` · ${t(`right.${g.permission}`)}`}
              </span>
              {isOwner && (
                <span>
                  {/* the owner changes a grant's right here (a granted subject is not offered again below) */}
                  <HTMLSelect
                    aria-label={t('collab.permissionOf', { name: g.subjectName })}
                    value={g.permission}
                    disabled={granting.isLoading}
                    onChange={(e) => void changeRight(g, e.currentTarget.value as CollaborationPermission)}
                    options={[
                      { value: 'view', label: t('right.view') },
                      { value: 'edit', label: t('right.edit') },
                    ]}
                  />
                  <Button variant="minimal" icon="cross" aria-label={t('collab.remove', { name: g.subjectName })} onClick={() => void removeOne(g.id)} />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {isOwner && (
        <>
          <h4 className="dc-section-title dc-gap-top">{t('collab.add')}</h4>
          {/* The owner comes to add collaborators: the focus starts on the search. */}
          <InputGroup leftIcon="search" placeholder={t('collab.search')} aria-label={t('collab.search')} value={keyword} onValueChange={setKeyword} autoFocus data-testid="collab-search" />
          {candidates.isFetching ? (
            <Spinner size={20} />
          ) : offered.length === 0 ? (
            <p className="dc-muted">{t('collab.noCandidates')}</p>
          ) : (
            <Menu className="dc-projects-candidates" data-testid="collab-candidates">
              {offered.map((c) => (
                <MenuItem key={c.subjectType + c.subjectId} icon={c.subjectType === 'user' ? 'person' : 'people'} text={c.name} onClick={() => add(c)} />
              ))}
            </Menu>
          )}
          {pending.length > 0 && (
            <>
              <h4 className="dc-section-title dc-gap-top">{t('collab.pending')}</h4>
              <ul className="dc-projects-plain-list" data-testid="collab-pending">
                {pending.map((p) => (
                  <li key={p.subjectId} className="dc-row-between">
                    <span>{p.name}</span>
                    <span>
                      <HTMLSelect
                        aria-label={t('collab.permission')}
                        value={p.permission}
                        onChange={(e) => {
                          const permission = e.currentTarget.value as CollaborationPermission;
                          setPending((all) => all.map((x) => (x.subjectId === p.subjectId ? { ...x, permission } : x)));
                        }}
                        options={[
                          { value: 'view', label: t('right.view') },
                          { value: 'edit', label: t('right.edit') },
                        ]}
                      />
                      <Button
                        variant="minimal"
                        icon="cross"
                        aria-label={t('collab.remove', { name: p.name })}
                        onClick={() => setPending((all) => all.filter((x) => x.subjectId !== p.subjectId))}
                      />
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </OwnerDialog>
  );
}
