/**
 * `modeldeploy/queryPolicyUpdates`: the policy updates from recorded calls (`policies.update`
 * loops) of one model service, newest first, for its page. View right on the service's project
 * (`deployNotFound` for another tenant's, `projectNotFound` / `projectNoRight` without a right),
 * as the other `modeldeploy/*` reads; the route table's `modeldeploy` segment (`projects:use`).
 */
import type { Router } from '@koa/router';
import { z } from 'zod';
import { pageRequestSchema, type Page, type PolicyUpdateReport } from '@decisio/domain';
import type { Database } from '../../db/database';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { DeployService } from '../deploy/service';
import { presentPolicyUpdate } from './policy-update';

/** Body of `modeldeploy/queryPolicyUpdates`. */
export const policyUpdatesPageSchema = pageRequestSchema.extend({ id: z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid') });

export function policyUpdateRoutes(router: Router<AppState>, kit: RouteKit, { db, deploy }: { db: Database; deploy: DeployService }): void {
  const body = kit.validate(policyUpdatesPageSchema);
  router.post(
    '/modeldeploy/queryPolicyUpdates',
    kit.auth,
    kit.tenant,
    body,
    reply(async (ctx: AppContext): Promise<Page<PolicyUpdateReport>> => {
      const q = body.input(ctx);
      const s = await deploy.access(ctx.state.user!, q.id, 'view');
      const base = db.executor()('policy_update_runs').where({ tenant_id: s.tenantId, service_id: s.id });
      const [{ n }] = (await base.clone().count({ n: '*' })) as [{ n: number | string }];
      const rows = (await base
        .clone()
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)) as Record<string, unknown>[];
      return { rows: rows.map((r) => presentPolicyUpdate({ ...r, service_name: s.name })), total: Number(n), page: q.page, pageSize: q.pageSize };
    }),
  );
}
