import { useState, type FormEvent } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core';
import {
  DIALOG_WIDTH,
  INDUSTRY_TEMPLATES,
  LIMITS,
  TAG_COLOURS,
  createProjectRequestSchema,
  type IndustryTemplate,
  type ProjectItem,
  type TagColour,
} from '@decisio/domain';
import { isApiError, useNotify } from '@decisio/sdk-plugin';
import { projectsApi } from '../api';
import { useProjectsT } from '../i18n';
import { TAG_COLOUR_HEX } from '../model/colours';
import { checkForm } from '../model/form-errors';
import { DIALOG_PORTAL, describeFailure } from './errors';

interface Props {
  /** The project to edit; absent to create one. */
  project?: ProjectItem;
  onClose(): void;
  /** Called with the saved project. */
  onSaved?(project: ProjectItem): void;
}

/** Create or edit a project: name (20), colour, industry template, additional info (200). */
export function ProjectDialog({ project, onClose, onSaved }: Props) {
  const { t, locale } = useProjectsT();
  const notify = useNotify();
  const [name, setName] = useState(project?.name ?? '');
  const [colour, setColour] = useState<TagColour>(project?.colour ?? 'ocean');
  const [industry, setIndustry] = useState<IndustryTemplate | ''>(project?.industryTemplate ?? '');
  const [info, setInfo] = useState(project?.info ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [create, created] = projectsApi.endpoints['projects/create'].useMutation();
  const [edit, edited] = projectsApi.endpoints['projects/edit'].useMutation();
  const busy = created.isLoading || edited.isLoading;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const input = { name, colour, industryTemplate: industry || null, info: info || null };
    const checked = checkForm(createProjectRequestSchema, input, locale);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      const saved = project
        ? await edit({ projectId: project.projectId, ...checked.value }).unwrap()
        : await create(checked.value).unwrap();
      notify({ message: t(project ? 'form.saved' : 'form.created'), intent: 'success', icon: 'tick-circle' });
      onSaved?.(saved);
      onClose();
    } catch (err) {
      if (isApiError(err) && err.codeName === 'projectNameUsed') {
        setErrors({ name: err.message });
        return;
      }
      const f = describeFailure(err, t('form.failed'));
      setErrors(f.fields);
      setFailure(f.message);
    }
  };

  const field = (key: string) => ({ intent: errors[key] ? ('danger' as const) : ('none' as const), helperText: errors[key] });

  return (
    <Dialog isOpen portalClassName={DIALOG_PORTAL} onClose={onClose} title={t(project ? 'form.editTitle' : 'form.createTitle')} style={{ width: DIALOG_WIDTH.sm }}>
      <form onSubmit={submit} noValidate data-testid="project-form">
        <DialogBody>
          {failure && (
            <Callout intent="danger" icon="error" className="dc-gap" data-testid="project-form-error">
              {failure}
            </Callout>
          )}
          <FormGroup label={t('form.name')} labelFor="project-name" labelInfo={t('form.count', { count: name.trim().length, max: LIMITS.projectNameMax })} {...field('name')}>
            <InputGroup
              id="project-name"
              autoFocus
              placeholder={t('form.namePlaceholder')}
              value={name}
              onValueChange={setName}
              intent={field('name').intent}
              data-testid="project-name"
            />
          </FormGroup>
          <FormGroup label={t('colour.label')} {...field('colour')}>
            <RadioGroup inline selectedValue={colour} onChange={(e) => setColour(e.currentTarget.value as TagColour)} name="project-colour">
              {TAG_COLOURS.map((c) => (
                <Radio
                  key={c}
                  value={c}
                  data-testid={`project-colour-${c}`}
                  labelElement={
                    <span className="dc-projects-colour-label">
                      <span className="dc-projects-swatch" style={{ background: TAG_COLOUR_HEX[c] }} aria-hidden />
                      {t(`colour.${c}`)}
                    </span>
                  }
                />
              ))}
            </RadioGroup>
          </FormGroup>
          <FormGroup label={t('industry.label')} labelFor="project-industry" {...field('industryTemplate')}>
            <HTMLSelect
              id="project-industry"
              fill
              value={industry}
              onChange={(e) => setIndustry(e.currentTarget.value as IndustryTemplate | '')}
              options={[{ value: '', label: t('industry.none') }, ...INDUSTRY_TEMPLATES.map((v) => ({ value: v, label: t(`industry.${v}`) }))]}
              data-testid="project-industry"
            />
          </FormGroup>
          <FormGroup label={t('form.info')} labelFor="project-info" labelInfo={t('form.count', { count: info.trim().length, max: LIMITS.projectInfoMax })} {...field('info')}>
            <TextArea
              id="project-info"
              fill
              rows={3}
              placeholder={t('form.infoPlaceholder')}
              value={info}
              onChange={(e) => setInfo(e.currentTarget.value)}
              intent={field('info').intent}
              data-testid="project-info"
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose}>{t('form.cancel')}</Button>
              <Button type="submit" intent="primary" loading={busy} data-testid="project-submit">
                {t(project ? 'form.save' : 'form.create')}
              </Button>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
