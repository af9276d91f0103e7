/**
 * Model services for the job contract (`modules/jobs`): a service id answers `job/get`,
 * `job/wait` and the event stream with the service's state (deploying, waiting, starting,
 * running, failure; waiting, running and failure are "final": they stay until someone acts) and its failure
 * reason. The caller needs the view right on the service's project.
 */
import { AppError, SERVICE_SETTLED_STATES } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { JobLikeItem, JobLikeSource } from '../jobs/sources';
import type { DeployService, ServiceRecord } from './service';

const settled = (state: string) => (SERVICE_SETTLED_STATES as readonly string[]).includes(state);

/** The model services as a job-like source. */
export function serviceJobSource(service: DeployService): JobLikeSource {
  return {
    async find(user: ServerCallUser, id: string): Promise<JobLikeItem | null> {
      try {
        return itemOf(await service.access(user, id, 'view'));
      } catch (err) {
        if (err instanceof AppError && ['deployNotFound', 'deployDeleted', 'projectNotFound'].includes(err.codeName)) return null;
        throw err;
      }
    },
    async reload(id: string, tenantId: string): Promise<JobLikeItem | null> {
      const s = await service.byId(id, tenantId);
      return s ? itemOf(s) : null;
    },
  };
}

function itemOf(s: ServiceRecord): JobLikeItem {
  return {
    id: s.id,
    kind: 'service',
    name: s.name,
    state: s.status,
    final: settled(s.status),
    error: s.failureReason,
    owner: { type: 'service', id: s.id, projectId: s.projectId, solutionId: s.solutionId },
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
