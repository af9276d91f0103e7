import type { Router } from '@koa/router';
import { createStorehouseProjectSchema, recognitionIdSchema, recognizerUsedSchema, storehouseListSchema } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { JobQueue } from '../../jobs/queue';
import type { DatasetsService } from '../datasets/service';
import { ModellingRecords } from '../modelling/records';
import { ProjectsService } from '../projects/service';
import type { SolutionsService } from '../solutions/service';
import type { BlobStore } from '../storage/blob-store';
import { StorehouseCatalogue, type TemplateSource } from './catalogue';
import { authorize } from './policy';
import { StorehouseService } from './service';

/**
 * The template storehouse (issue 20 item 3): `templateWarehouse/getList`,
 * `templateWarehouse/getTemplateTypeList`, `templateWarehouse/recognizerUsed`,
 * `templateWarehouse/getRecognizerResult` (spec workflow's domain list) and
 * `templateWarehouse/createProject` (the accepted mapping -> a project).
 */
export function storehouseRoutes(
  router: Router<AppState>,
  kit: RouteKit,
  deps: { db: Database; blobs: BlobStore; clock: Clock; jobs: JobQueue; datasets: DatasetsService; solutions: SolutionsService; templates: TemplateSource },
): StorehouseService {
  const storehouse = new StorehouseService({
    db: deps.db,
    blobs: deps.blobs,
    clock: deps.clock,
    projects: new ProjectsService(deps.db, deps.clock),
    solutions: deps.solutions,
    datasets: deps.datasets,
    records: new ModellingRecords({ db: deps.db, jobs: deps.jobs, blobs: deps.blobs }),
    catalogue: new StorehouseCatalogue(deps.templates),
  });
  const user = (ctx: AppContext) => ctx.state.user!;
  const chain = [kit.auth, kit.tenant, kit.requirePermission('templates:use')] as const;

  const listBody = kit.validate(storehouseListSchema);
  router.post(
    '/templateWarehouse/getList',
    ...chain,
    listBody,
    reply((ctx) => {
      authorize(user(ctx), 'storehouse:read');
      return storehouse.list(listBody.input(ctx));
    }),
  );
  const types = reply((ctx) => {
    authorize(user(ctx), 'storehouse:read');
    return storehouse.types();
  });
  router.get('/templateWarehouse/getTemplateTypeList', ...chain, types);
  router.post('/templateWarehouse/getTemplateTypeList', ...chain, types);

  const recognize = kit.validate(recognizerUsedSchema);
  router.post(
    '/templateWarehouse/recognizerUsed',
    ...chain,
    recognize,
    reply((ctx) => {
      authorize(user(ctx), 'storehouse:recognize');
      return storehouse.recognize(user(ctx), recognize.input(ctx));
    }),
  );
  const resultBody = kit.validate(recognitionIdSchema);
  router.post(
    '/templateWarehouse/getRecognizerResult',
    ...chain,
    resultBody,
    reply((ctx) => {
      authorize(user(ctx), 'storehouse:read');
      return storehouse.result(user(ctx), resultBody.input(ctx).recognitionId);
    }),
  );
  const create = kit.validate(createStorehouseProjectSchema);
  router.post(
    '/templateWarehouse/createProject',
    ...chain,
    create,
    // No `kit.transaction`: the service runs its own, so that it can remove the dataset's file once a failure has rolled the rows back.
    reply((ctx) => {
      authorize(user(ctx), 'storehouse:createProject');
      return storehouse.createProject(user(ctx), create.input(ctx), ctx.state.locale);
    }),
  );
  return storehouse;
}
