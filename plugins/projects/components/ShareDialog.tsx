import { useEffect, useState } from 'react';
import { Button, Callout, Checkbox, FormGroup, InputGroup, Radio, RadioGroup, Spinner } from '@blueprintjs/core';
import { SHARE_MODULES, type ProjectItem, type ShareModule, type ShareScope } from '@decisio/domain';
import { navigationServiceRef, useNotify, useService } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';
import { OwnerDialog, useOwnerChange } from './OwnerDialog';

/** The path that opens a share link (read-only view). */
export const SHARED_PROJECT_PATH = '/shared-project';

/**
 * Share settings of a project: who may open the link (all members or organisation members
 * only) and which modules it shows. The link is read-only. Only the owner changes it.
 */
export function ShareDialog({ project, onClose }: { project: ProjectItem; onClose(): void }) {
  const { t } = useProjectsT();
  const notify = useNotify();
  const nav = useService(navigationServiceRef);
  const isOwner = project.right === 'owner';
  const settings = projectsApi.endpoints['projects/shareSettings'].useQuery({ projectId: project.projectId });
  const [save, saving] = projectsApi.endpoints['projects/saveShare'].useMutation();
  const [turnOff, turningOff] = projectsApi.endpoints['projects/removeShare'].useMutation();
  const [scope, setScope] = useState<ShareScope>('all');
  const [modules, setModules] = useState<ShareModule[]>(['workbench']);
  const { error, setError, change } = useOwnerChange(t('share.failed'));

  useEffect(() => {
    if (!settings.data?.token) return;
    setScope(settings.data.scope ?? 'all');
    setModules(settings.data.modules);
  }, [settings.data]);

  const token = settings.data?.token ?? null;
  // The scope the settings came in with (the effect above sets it a moment later): the owner's
  // focus starts on it, the dialog's first control, once the settings are in.
  const savedScope: ShareScope = token ? (settings.data?.scope ?? 'all') : 'all';
  const link = token ? `${typeof window !== 'undefined' ? window.location.origin : ''}${nav.href(SHARED_PROJECT_PATH, { token })}` : '';

  const toggle = (m: ShareModule, on: boolean) => {
    setError(null);
    setModules((all) => (on ? [...all.filter((x) => x !== m), m] : all.filter((x) => x !== m)));
  };
  const submit = async () => {
    if (modules.length === 0) {
      setError(t('share.modulesRequired'));
      return;
    }
    await change(() => save({ projectId: project.projectId, scope, modules: SHARE_MODULES.filter((m) => modules.includes(m)) }).unwrap(), t('share.saved'));
  };
  const off = () => change(() => turnOff({ projectId: project.projectId }).unwrap(), t('share.turnedOff'));
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(link);
      notify({ message: t('share.copied'), intent: 'success', icon: 'clipboard' });
    } catch {
      notify({ message: t('share.copyUnsupported'), intent: 'warning' });
    }
  };

  return (
    <OwnerDialog
      title={t('share.title', { name: project.name })}
      isOwner={isOwner}
      noRight={t('share.noRight')}
      testId="share"
      error={error}
      undo={token ? { text: t('share.off'), loading: turningOff.isLoading, onClick: () => void off() } : null}
      closeText={t('share.close')}
      saveText={t('share.save')}
      saving={saving.isLoading}
      onSave={() => void submit()}
      onClose={onClose}
    >
      {settings.isLoading ? (
        <Spinner size={24} />
      ) : (
        <>
          <Callout icon="eye-open" className="dc-gap">
            {t('share.readOnly')}
          </Callout>
          <RadioGroup
            label={t('share.scope')}
            selectedValue={scope}
            disabled={!isOwner}
            onChange={(e) => setScope(e.currentTarget.value as ShareScope)}
            inline
          >
            <Radio value="all" label={t('share.scopeAll')} autoFocus={isOwner && savedScope === 'all'} />
            <Radio value="org" label={t('share.scopeOrg')} autoFocus={isOwner && savedScope === 'org'} />
          </RadioGroup>
          <FormGroup label={t('share.modules')}>
            <div className="dc-projects-module-grid">
              {SHARE_MODULES.map((m) => (
                <Checkbox key={m} label={t(`module.${m}`)} checked={modules.includes(m)} disabled={!isOwner} onChange={(e) => toggle(m, e.currentTarget.checked)} />
              ))}
            </div>
          </FormGroup>
          {token && (
            <FormGroup label={t('share.link')} labelFor="share-link">
              <InputGroup
                id="share-link"
                readOnly
                value={link}
                data-testid="share-link"
                onFocus={(e) => e.currentTarget.select()}
                rightElement={<Button variant="minimal" icon="duplicate" aria-label={t('share.copy')} onClick={() => void copy()} />}
              />
            </FormGroup>
          )}
        </>
      )}
    </OwnerDialog>
  );
}
