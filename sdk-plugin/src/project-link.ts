/**
 * Query parameters that travel on links between project pages (spec platform §2): the demo
 * `guide` flag and the ids of the current project context.
 */

/** The parameters carried from one project page to the next, in this order. */
export const PROJECT_LINK_PARAMS = [
  'guide',
  'projectId',
  'solutionId',
  'schemeId',
  'simulatorId',
  'objectiveId',
  'policyId',
] as const;

/** One of {@link PROJECT_LINK_PARAMS}. */
export type ProjectLinkParam = (typeof PROJECT_LINK_PARAMS)[number];

/** Values of the carried parameters; `undefined` drops one. */
export type ProjectLinkParams = Partial<Record<ProjectLinkParam, string | undefined>>;

/** Picks the carried parameters out of a query. */
export function pickProjectLinkParams(search: Record<string, string>): ProjectLinkParams {
  const out: ProjectLinkParams = {};
  for (const k of PROJECT_LINK_PARAMS) {
    const v = search[k];
    if (v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

/**
 * The query of a link to another project page: the carried parameters of `current`, then
 * `overrides` (a key set to `undefined` is removed). Other parameters are not carried.
 */
export function projectLinkSearch(
  current: Record<string, string>,
  overrides: ProjectLinkParams = {},
): Record<string, string> {
  const merged: Record<string, string | undefined> = { ...pickProjectLinkParams(current), ...overrides };
  const out: Record<string, string> = {};
  for (const k of PROJECT_LINK_PARAMS) {
    const v = merged[k];
    if (v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

/** `true` when the demo guide overlay should show: `guide` present and not the text `false`. */
export function isGuideOn(search: Record<string, string>): boolean {
  return 'guide' in search && search.guide !== 'false';
}
