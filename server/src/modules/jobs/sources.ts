/**
 * Where the job contract finds what it answers for. A module that runs work registers, at
 * start-up, an owner resolver for its job kinds (what the job works for, and whether the caller
 * may see it) or a source of its own (model services: a state, no job row). Nothing registers
 * itself by being imported: `app.ts` names each one.
 */
import type { JobOwner } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { JobRecord } from '../../jobs/store';
import type { LineEvent } from './stream';

/** What a job works for, once the caller's right to see it is checked. */
export interface ResolvedOwner {
  owner: JobOwner;
  /** The contract kind (`environment`, `scheme`, `import`, ...); the job kind when absent. */
  kind?: string;
}

/**
 * Tells what a job of `kinds` works for. `resolve` answers null when the job does not exist for
 * the caller (no record, or no right at all on its project: the contract answers `jobNotFound`),
 * and throws the catalogue's 403 (`projectNoRight`) when the caller may know it but not see it.
 */
export interface JobOwnerResolver {
  kinds: readonly string[];
  resolve(user: ServerCallUser, job: JobRecord): Promise<ResolvedOwner | null>;
  /** What a log line of these kinds is on the event stream (`stream.ts`); every line a `log` event when absent. */
  lineEvent?: LineEvent;
}

/** Something followed like a job that has no job row (a model service's state). */
export interface JobLikeItem {
  id: string;
  kind: string;
  name: string;
  state: string;
  final: boolean;
  /** Recorded failure text (English), or null. */
  error: string | null;
  owner: JobOwner;
  createdAt: Date | null;
  updatedAt: Date | null;
}

/** A source of job-like items, found by id after the job rows. */
export interface JobLikeSource {
  /** The item with this id the caller may see, or null when it is not this source's (or hidden from the caller). */
  find(user: ServerCallUser, id: string): Promise<JobLikeItem | null>;
  /** The item as it is now, without rights (the caller was checked by `find`); null when it is gone. */
  reload(id: string, tenantId: string): Promise<JobLikeItem | null>;
}

/** The resolvers and sources registered at start-up. */
export class JobOwners {
  private readonly byKind = new Map<string, JobOwnerResolver>();
  readonly sources: JobLikeSource[] = [];

  /** Adds a resolver; a kind claimed twice is a wiring mistake. */
  register(resolver: JobOwnerResolver): this {
    for (const k of resolver.kinds) {
      if (this.byKind.has(k)) throw new Error(`Job kind "${k}" already has an owner resolver`);
      this.byKind.set(k, resolver);
    }
    return this;
  }

  /** Adds a source of job-like items. */
  addSource(source: JobLikeSource): this {
    this.sources.push(source);
    return this;
  }

  resolverOf(kind: string): JobOwnerResolver | undefined {
    return this.byKind.get(kind);
  }
}
