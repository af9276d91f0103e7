import type { Knex } from 'knex';
import type { ActivityAction } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import { newId } from '../../db/ids';

/**
 * Writes one row of the recent-activity feed (`message/getActivity`). Call it inside the
 * transaction of the change it records, so the feed never shows what was rolled back. Other
 * modules may record their own actions with it too.
 */
export async function recordActivity(
  knex: Knex,
  user: Pick<ServerCallUser, 'id' | 'username' | 'tenantId'>,
  entry: { action: ActivityAction; projectId: string | null; solutionId?: string | null; targetName: string },
  at: Date = new Date(),
): Promise<void> {
  await knex('activities').insert({
    id: newId(),
    tenant_id: user.tenantId,
    project_id: entry.projectId,
    solution_id: entry.solutionId ?? null,
    user_id: user.id,
    username: user.username.slice(0, 64),
    action: entry.action,
    target_name: entry.targetName.slice(0, 100),
    created_at: at,
  });
}
