import type { SolutionDataType, SolutionGoalType, SolutionItem } from '@decisio/domain';
import { isoOf } from '../projects/presenters';

/** A `solutions` row joined with the creator's name. */
export interface SolutionRow {
  id: string;
  tenant_id: string;
  project_id: string;
  name: string;
  data_type: string;
  goal_type: string;
  description: string | null;
  pinned: number | boolean;
  pinned_at: unknown;
  creator_id: string;
  creator_name: string | null;
  copied_from: string | null;
  created_at: unknown;
  updated_at: unknown;
}

export function presentSolution(row: SolutionRow): SolutionItem {
  return {
    solutionId: row.id,
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    dataType: row.data_type as SolutionDataType,
    goalType: row.goal_type as SolutionGoalType,
    description: row.description,
    pinned: Boolean(Number(row.pinned)),
    creatorId: row.creator_id,
    creatorName: row.creator_name ?? '',
    copiedFrom: row.copied_from,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}
