import { useState, type FormEvent } from 'react';
import { Button, Callout, Checkbox, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core';
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
import { BusyButton, Dialog, isApiError, useNavigate, useNotify } from '@decisio/sdk-plugin';
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

/** Where a guided first run starts: the data-access step, with the step guide on. */
export const GUIDE_START = '/workflow/table-correlation';

/**
 * Create or edit a project: name (20), colour, industry template, default algorithm image
 * version (one of `atmVersion/getAtmVersionList`, or any: the machines its trainings run on),
 * additional info (200).
 * Creating with an industry template goes through `template/createProject`: the server seeds
 * the project's first solution (data, table correlation, decision graph, reward), and the
 * guided first run can open right after.
 */
export function ProjectDialog({ project, onClose, onSaved }: Props) {
  const { t, locale } = useProjectsT();
  const notify = useNotify();
  const navigate = useNavigate();
  const [guided, setGuided] = useState(true);
  const [createFromTemplate, createdFromTemplate] = projectsApi.endpoints['projects/createFromTemplate'].useMutation();
  const [name, setName] = useState(project?.name ?? '');
  const [colour, setColour] = useState<TagColour>(project?.colour ?? 'ocean');
  const [industry, setIndustry] = useState<IndustryTemplate | ''>(project?.industryTemplate ?? '');
  const [info, setInfo] = useState(project?.info ?? '');
  const [imageVersion, setImageVersion] = useState(project?.imageVersion ?? '');
  // The versions a project may take: those of the online machines (plus the project's own, when none of its machines is online now).
  const versions = projectsApi.endpoints['projects/engineVersions'].useQuery();
  const listed = (versions.data?.rows ?? []).map((r) => r.version);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  // The templates' descriptions load once a template is chosen.
  const templates = projectsApi.endpoints['projects/templates'].useQuery(undefined, { skip: Boolean(project) || industry === '' });
  const [create, created] = projectsApi.endpoints['projects/create'].useMutation();
  const [edit, edited] = projectsApi.endpoints['projects/edit'].useMutation();
  const busy = created.isLoading || edited.isLoading || createdFromTemplate.isLoading;
  const fromTemplate = !project && industry !== '';
  const template = fromTemplate ? templates.data?.find((x) => x.id === industry) : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const input = { name, colour, industryTemplate: industry || null, info: info || null, imageVersion: imageVersion || null };
    const checked = checkForm(createProjectRequestSchema, input, locale);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      if (fromTemplate) {
        const { industryTemplate, ...fields } = checked.value;
        const r = await createFromTemplate({ ...fields, templateId: industryTemplate! }).unwrap();
        notify({ message: t('form.createdFromTemplate'), intent: 'success', icon: 'tick-circle' });
        onSaved?.(r.project);
        onClose();
        if (guided) navigate(GUIDE_START, { search: { projectId: r.project.projectId, solutionId: r.solutionId, guide: 'true' } });
        return;
      }
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
          <FormGroup
            label={t('industry.label')}
            labelFor="project-industry"
            {...field('industryTemplate')}
            helperText={errors.industryTemplate ?? (fromTemplate ? [template?.description[locale], t('industry.seeds')].filter(Boolean).join(' ') : undefined)}
          >
            <HTMLSelect
              id="project-industry"
              fill
              value={industry}
              onChange={(e) => setIndustry(e.currentTarget.value as IndustryTemplate | '')}
              options={[{ value: '', label: t('industry.none') }, ...INDUSTRY_TEMPLATES.map((v) => ({ value: v, label: t(`industry.${v}`) }))]}
              data-testid="project-industry"
            />
            {fromTemplate && (
              <Checkbox
                className="dc-gap-top"
                checked={guided}
                onChange={(e) => setGuided(e.currentTarget.checked)}
                label={t('industry.guided')}
                data-testid="project-guided"
              />
            )}
          </FormGroup>
          <FormGroup label={t('form.imageVersion')} labelFor="project-image-version" {...field('imageVersion')} helperText={errors.imageVersion ?? t('form.imageVersionHelp')}>
            <HTMLSelect
              id="project-image-version"
              fill
              value={imageVersion}
              onChange={(e) => setImageVersion(e.currentTarget.value)}
              options={[
                { value: '', label: t('form.imageVersionAny') },
                ...listed.map((v) => ({ value: v, label: v })),
                ...(project?.imageVersion && !listed.includes(project.imageVersion) ? [{ value: project.imageVersion, label: t('form.imageVersionOffline', { version: project.imageVersion }) }] : []),
              ]}
              data-testid="project-image-version"
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
              <BusyButton type="submit" intent="primary" loading={busy} data-testid="project-submit">
                {t(project ? 'form.save' : 'form.create')}
              </BusyButton>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
