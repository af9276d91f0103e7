import type { Database } from '../db/database';
import type { AppMiddleware } from './context';

/**
 * Runs the rest of the chain in one transaction: committed when the handler succeeds, rolled
 * back when it throws. Repositories join it through `db.executor()`.
 */
export function createTransaction(db: Database): AppMiddleware {
  return (_ctx, next) => db.transaction(async () => next());
}
