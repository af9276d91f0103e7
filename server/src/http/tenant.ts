import { AppError } from '@decisio/domain';
import type { Database } from '../db/database';
import { TenantModel } from '../modules/tenancy/models';
import type { AppMiddleware } from './context';

/**
 * Checks that the caller's tenant exists and is enabled (`tenantNotExists` otherwise) and sets
 * `ctx.state.tenantId`, the scope every tenant-owned query of the call must use. After `auth`.
 */
export function createTenantScope(db: Database): AppMiddleware {
  return async (ctx, next) => {
    const user = ctx.state.user;
    if (!user) throw new AppError('unauthorized');
    const tenant = await TenantModel.query(db.executor()).findById(user.tenantId);
    if (!tenant || tenant.status !== 'enabled') throw new AppError('tenantNotExists');
    ctx.state.tenantId = tenant.id;
    await next();
  };
}
