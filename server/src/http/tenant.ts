import { AppError } from '@decisio/domain';
import type { Database } from '../db/database';
import { TenantModel } from '../modules/tenancy/models';
import { tenantStatusSeenByAuth } from './auth';
import type { AppMiddleware } from './context';

/**
 * Checks that the caller's tenant exists and is enabled (`tenantNotExists` otherwise) and sets
 * `ctx.state.tenantId`, the scope every tenant-owned query of the call must use. After `auth`,
 * which reads the tenant's status in its own statement (no second query).
 */
export function createTenantScope(db: Database): AppMiddleware {
  return async (ctx, next) => {
    const user = ctx.state.user;
    if (!user) throw new AppError('unauthorized');
    // `auth` read the tenant's status with the caller in this call; read it here only when it did not.
    const seen = tenantStatusSeenByAuth(user);
    const status = seen !== undefined ? seen : (await TenantModel.query(db.executor()).findById(user.tenantId))?.status;
    if (status !== 'enabled') throw new AppError('tenantNotExists');
    ctx.state.tenantId = user.tenantId;
    await next();
  };
}
