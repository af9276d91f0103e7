/**
 * Whether the signed-in user may change a project (spec platform §7): the rule of the projects
 * plugin's solution list, for every area that offers changes inside a project. A collaborator
 * with the `view` right, or anyone on a locked project, is refused every change by the server
 * (`projectNoRight`, `projectLocked`): the pages must not offer those changes either.
 */
import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ProjectItem } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from './api';
import zhCN from './i18n/zh-CN.json';
import enUS from './i18n/en-US.json';

/** The SDK's own texts (namespace `sdk`), added to the host's i18next on first use. */
export const SDK_NAMESPACE = 'sdk';
const SDK_BUNDLES = { 'zh-CN': zhCN, 'en-US': enUS } as const;

/** Adds the texts unless they are there (by key: other SDK modules may add theirs to the namespace). */
function addSdkBundles(i18n: I18n): void {
  for (const [locale, bundle] of Object.entries(SDK_BUNDLES)) {
    if (i18n.getResource(locale, SDK_NAMESPACE, 'projectRight.viewOnly') === undefined) i18n.addResourceBundle(locale, SDK_NAMESPACE, bundle, true, false);
  }
}

const projectRightEndpoints = (build: PluginEndpointBuilder) => ({
  /** `project/getProject`: the caller's `right` and the project's `locked`. Tagged `Project` so that an edit of the project reads it again. */
  'sdk/project': build.query<ProjectItem, { projectId: string }>({
    query: (body) => ({ url: 'project/getProject', body }),
    providesTags: (_r, _e, a) => [{ type: 'Project' as const, id: a.projectId }],
  }),
});

const projectRightApi = definePluginApi('sdk', projectRightEndpoints, { tagTypes: ['Project'] });

/** What {@link useProjectEditRight} answers. */
export interface ProjectEditRight {
  /** The user may change the project: offer its create, start, delete, deploy and save actions. */
  canEdit: boolean;
  /** Why not, translated (for the disabled actions' tooltip); `undefined` when `canEdit` or not known yet. */
  reason: string | undefined;
  /** The project is being read. */
  loading: boolean;
}

/**
 * Whether the signed-in user may change project `projectId`: the right is not `view` and the
 * project is not locked (`project/getProject`). Disable (with `reason` as the title) every
 * action that changes the project when `canEdit` is false.
 *
 * - No `projectId`: `canEdit` false, nothing read.
 * - While the project is read: `canEdit` false, `loading` true.
 * - The project could not be read: `canEdit` true; the server still refuses what the user may
 *   not do, and a failed read must not take the owner's actions away.
 *
 * @example
 * ```tsx
 * const { canEdit, reason } = useProjectEditRight(projectId);
 * <Button text={t('x.create')} disabled={!canEdit} title={reason} onClick={create} />
 * ```
 */
export function useProjectEditRight(projectId: string | undefined): ProjectEditRight {
  const { t, i18n } = useTranslation(SDK_NAMESPACE);
  addSdkBundles(i18n);
  const project = projectRightApi.endpoints['sdk/project'].useQuery({ projectId: projectId ?? '' }, { skip: !projectId });
  if (!projectId) return { canEdit: false, reason: undefined, loading: false };
  // `currentData`: another project's right (`data`, while this one is read) is never used for this one.
  const data = project.currentData;
  if (data) {
    if (data.right === 'view') return { canEdit: false, reason: t('projectRight.viewOnly'), loading: false };
    if (data.locked) return { canEdit: false, reason: t('projectRight.locked'), loading: false };
    return { canEdit: true, reason: undefined, loading: false };
  }
  if (project.isError && !project.isFetching) return { canEdit: true, reason: undefined, loading: false };
  return { canEdit: false, reason: undefined, loading: true };
}
