import type { Router } from '@koa/router';
import { electricDecisionSchema, electricListSchema, electricResultSchema } from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import { clientAddress } from '../../http/proxy';
import type { ElectricService } from './service';

/**
 * The public electric demo (`electricShow/*`): no account; every call is counted against the
 * caller's address (`tooManyRequests` past the limit) before its body is read.
 */
export function electricRoutes(router: Router<AppState>, kit: RouteKit, deps: { electric: ElectricService }): void {
  const { electric } = deps;
  const admit = async (ctx: AppContext, next: () => Promise<unknown>) => {
    await electric.admit(clientAddress(ctx));
    await next();
  };
  const list = kit.validate(electricListSchema);
  router.post('/electricShow/getPumpControlList', admit, list, reply((ctx) => electric.pumpControlList(list.input(ctx).site)));
  router.post('/electricShow/getTemperatureControlList', admit, list, reply((ctx) => electric.temperatureControlList(list.input(ctx).site)));
  const decision = kit.validate(electricDecisionSchema);
  router.post('/electricShow/decisionSuperTemperature', admit, decision, kit.transaction, reply((ctx) => electric.decide(decision.input(ctx))));
  const result = kit.validate(electricResultSchema);
  router.post('/electricShow/getSuperTemperatureResult', admit, result, reply((ctx) => electric.result(result.input(ctx).decisionId)));
}
