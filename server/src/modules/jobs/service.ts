/**
 * The job contract: one way to read and wait for any job (`job/get`, `job/wait`) and the item
 * behind the event stream (`GET job/events`). A job row is found in the caller's tenant, then its
 * kind's owner resolver says what it works for and checks the caller's right; an id that is no
 * job is looked up in the job-like sources (model services).
 */
import { AppError, FINAL_JOB_STATES, jobFailureText, type JobView, type JobWaitReply, type Locale } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { JobQueue } from '../../jobs/queue';
import type { JobRecord } from '../../jobs/store';
import type { JobLikeItem, JobLikeSource, JobOwners, ResolvedOwner } from './sources';

/** How often a wait re-reads the state when no event came (other processes, services). */
const POLL_MS = 500;

/** A job or job-like item the caller may see, before it is shown in a language. */
export type Followed = { type: 'job'; job: JobRecord; owner: ResolvedOwner | null } | { type: 'item'; item: JobLikeItem; source: JobLikeSource };

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const isFinal = (state: string) => (FINAL_JOB_STATES as readonly string[]).includes(state);

/** Shows a followed item in `locale`. */
export function presentFollowed(f: Followed, locale: Locale): JobView {
  if (f.type === 'job') {
    const { job, owner } = f;
    return {
      jobId: job.id,
      id: job.id,
      kind: owner?.kind ?? job.kind,
      name: job.name,
      state: job.state,
      final: isFinal(job.state),
      progress: job.progress,
      metrics: job.metrics,
      error: job.state === 'failure' ? jobFailureText(job.error, locale) : null,
      owner: owner?.owner ?? null,
      ownerId: owner?.owner.id ?? null,
      workerId: job.workerId,
      createdAt: iso(job.createdAt),
      updatedAt: iso(job.updatedAt),
      startedAt: iso(job.startedAt),
      endedAt: iso(job.endedAt),
    };
  }
  const { item } = f;
  return {
    jobId: item.id,
    id: item.id,
    kind: item.kind,
    name: item.name,
    state: item.state,
    final: item.final,
    progress: item.final ? 1 : 0,
    metrics: {},
    error: item.state === 'failure' ? jobFailureText(item.error, locale) : null,
    owner: item.owner,
    ownerId: item.owner.id,
    workerId: null,
    createdAt: iso(item.createdAt),
    updatedAt: iso(item.updatedAt),
    startedAt: null,
    endedAt: null,
  };
}

/** Reads and waits for jobs on behalf of a caller. */
export class JobContract {
  constructor(
    private readonly jobs: JobQueue,
    private readonly owners: JobOwners,
  ) {}

  /**
   * The job (or job-like item) `id` as the caller may see it.
   * @throws AppError `jobNotFound` when it does not exist for the caller; `projectNoRight` when
   *   the caller knows the project but may not see the work.
   */
  async find(user: ServerCallUser, id: string): Promise<Followed> {
    const job = await this.jobs.get(id, { tenantId: user.tenantId });
    if (job) {
      const resolver = this.owners.resolverOf(job.kind);
      if (!resolver) {
        // Work no module answers for (a plugin's, a self-test): its starter's alone.
        if (job.userId !== user.id) throw new AppError('jobNotFound');
        return { type: 'job', job, owner: null };
      }
      const owner = await resolver.resolve(user, job);
      if (!owner) throw new AppError('jobNotFound');
      return { type: 'job', job, owner };
    }
    for (const source of this.owners.sources) {
      const item = await source.find(user, id);
      if (item) return { type: 'item', item, source };
    }
    throw new AppError('jobNotFound');
  }

  /** `job/get`. */
  async get(user: ServerCallUser, id: string, locale: Locale): Promise<JobView> {
    return presentFollowed(await this.find(user, id), locale);
  }

  /** Re-reads a followed item (rights were checked when it was found). */
  async refresh(f: Followed, tenantId: string): Promise<Followed | null> {
    if (f.type === 'job') {
      const job = await this.jobs.get(f.job.id, { tenantId });
      return job ? { ...f, job } : null;
    }
    const item = await f.source.reload(f.item.id, tenantId);
    return item ? { ...f, item } : null;
  }

  /**
   * `job/wait`: answers once the state differs from `known` (the state now when absent) or is
   * final, or after `timeoutMs` with `changed: false`; `signal` (the caller went away) ends it
   * early. A job's events wake it at once, also one that came before it listened or while it
   * re-read (it re-reads at once then); without one (another process, a service) the state is
   * re-read every half second.
   */
  async wait(user: ServerCallUser, id: string, known: string | undefined, timeoutMs: number, locale: Locale, signal?: AbortSignal): Promise<JobWaitReply> {
    let current = await this.find(user, id);
    const stateOf = (f: Followed) => (f.type === 'job' ? f.job.state : f.item.state);
    const finalOf = (f: Followed) => (f.type === 'job' ? isFinal(f.job.state) : f.item.final);
    const from = known ?? stateOf(current);
    const changed = (f: Followed) => stateOf(f) !== from;
    if (changed(current) || finalOf(current)) return { ...presentFollowed(current, locale), changed: changed(current) };
    const end = Date.now() + timeoutMs;
    let wake: (() => void) | null = null;
    // An event that came while no one slept (before the subscription, during a re-read) is kept:
    // the loop re-reads at once instead of sleeping until the next poll. True at first, for an
    // event between the first read and the subscription.
    let stale = current.type === 'job';
    const unsubscribe =
      current.type === 'job'
        ? this.jobs.subscribe((e) => {
            if (e.jobId !== id || e.type !== 'state') return;
            stale = true;
            wake?.();
          })
        : () => undefined;
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort);
    try {
      while (Date.now() < end && !signal?.aborted) {
        if (!stale) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, Math.min(POLL_MS, Math.max(0, end - Date.now())));
            wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
          wake = null;
          if (signal?.aborted) break;
        }
        stale = false;
        const next = await this.refresh(current, user.tenantId);
        if (!next) throw new AppError('jobNotFound');
        current = next;
        if (changed(current) || finalOf(current)) return { ...presentFollowed(current, locale), changed: changed(current) };
      }
      return { ...presentFollowed(current, locale), changed: false };
    } finally {
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
