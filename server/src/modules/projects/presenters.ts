import type {
  ActivityAction,
  ActivityItem,
  CollaborationPermission,
  CollaboratorType,
  IndustryTemplate,
  ProjectItem,
  ProjectPermissionItem,
  ProjectRightName,
  ShareModule,
  ShareScope,
  ShareSettings,
  TagColour,
} from '@decisio/domain';

/** A datetime column as ISO text: SQLite gives epoch ms, MariaDB a `Date` (or UTC text). */
export function isoOf(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number') return new Date(value).toISOString();
  if (typeof value === 'string') {
    if (/^\d+$/.test(value)) return new Date(Number(value)).toISOString();
    return new Date(value.includes('T') ? value : value.replace(' ', 'T') + 'Z').toISOString();
  }
  return new Date(0).toISOString();
}

/** A JSON text column (or an already parsed value) as an array of strings. */
export function stringListOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || value === '') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

/** A `projects` row joined with the owner's name, the caller's favourite flag and the solution count. */
export interface ProjectRow {
  id: string;
  tenant_id: string;
  owner_id: string;
  owner_name: string | null;
  name: string;
  colour: string;
  industry_template: string | null;
  info: string | null;
  image_version: string | null;
  locked: number | boolean;
  share_token: string | null;
  share_scope: string | null;
  share_modules: string | null;
  favourite: number | string | null;
  solution_count: number | string | null;
  created_at: unknown;
  updated_at: unknown;
}

export function presentProject(row: ProjectRow, right: ProjectRightName): ProjectItem {
  return {
    projectId: row.id,
    id: row.id,
    name: row.name,
    colour: row.colour as TagColour,
    industryTemplate: (row.industry_template as IndustryTemplate | null) ?? null,
    info: row.info,
    imageVersion: row.image_version,
    locked: Boolean(Number(row.locked)),
    favourite: Number(row.favourite ?? 0) > 0,
    ownerId: row.owner_id,
    ownerName: row.owner_name ?? '',
    right,
    solutionCount: Number(row.solution_count ?? 0),
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

export function presentShareSettings(row: Pick<ProjectRow, 'id' | 'share_token' | 'share_scope' | 'share_modules'>): ShareSettings {
  return {
    projectId: row.id,
    token: row.share_token,
    scope: (row.share_scope as ShareScope | null) ?? null,
    modules: stringListOf(row.share_modules) as ShareModule[],
  };
}

export function presentPermission(row: {
  id: string;
  subject_type: string;
  subject_id: string;
  subject_name: string | null;
  permission: string;
  created_at: unknown;
}): ProjectPermissionItem {
  return {
    id: row.id,
    subjectType: row.subject_type as CollaboratorType,
    subjectId: row.subject_id,
    subjectName: row.subject_name ?? '',
    permission: row.permission as CollaborationPermission,
    createdAt: isoOf(row.created_at),
  };
}

export function presentActivity(row: {
  id: string;
  action: string;
  project_id: string | null;
  solution_id: string | null;
  user_id: string;
  username: string;
  target_name: string;
  created_at: unknown;
}): ActivityItem {
  return {
    id: row.id,
    action: row.action as ActivityAction,
    projectId: row.project_id,
    solutionId: row.solution_id,
    userId: row.user_id,
    username: row.username,
    targetName: row.target_name,
    createdAt: isoOf(row.created_at),
  };
}
