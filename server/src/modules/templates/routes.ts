import type { Router } from '@koa/router';
import { createTemplateProjectSchema } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { JobQueue } from '../../jobs/queue';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { DatasetsService } from '../datasets/service';
import { ModellingRecords } from '../modelling/records';
import { ProjectsService } from '../projects/service';
import type { SolutionsService } from '../solutions/service';
import type { BlobStore } from '../storage/blob-store';
import { StorageService } from '../storage/service';
import type { TemplateRegistry } from './registry';
import { TemplatesService } from './service';

/**
 * Industry templates (`template/*`): the list of the templates the plugins contribute, and a
 * project created from one with its first solution seeded (data, table correlation, decision
 * graph, reward).
 */
export function templatesRoutes(
  router: Router<AppState>,
  kit: RouteKit,
  deps: { db: Database; blobs: BlobStore; clock: Clock; jobs: JobQueue; datasets: DatasetsService; solutions: SolutionsService; templates: TemplateRegistry },
): TemplatesService {
  const templates = new TemplatesService({
    db: deps.db,
    blobs: deps.blobs,
    projects: new ProjectsService(deps.db, deps.clock),
    solutions: deps.solutions,
    storage: new StorageService(deps.db, deps.blobs, deps.clock),
    datasets: deps.datasets,
    records: new ModellingRecords({ db: deps.db, jobs: deps.jobs, blobs: deps.blobs }),
    templates: deps.templates,
  });
  const user = (ctx: AppContext) => ctx.state.user!;

  const list = reply(() => templates.list());
  router.get('/template/getTemplateList', kit.auth, kit.tenant, list);
  router.post('/template/getTemplateList', kit.auth, kit.tenant, list);

  const create = kit.validate(createTemplateProjectSchema);
  router.post(
    '/template/createProject',
    kit.auth,
    kit.tenant,
    create,
    // No `kit.transaction`: the service runs its own, so that it can delete the files it stored once a failure has rolled the rows back.
    reply((ctx) => templates.createProject(user(ctx), create.input(ctx), ctx.state.locale)),
  );
  return templates;
}
