/**
 * The trainings core's kinds: one descriptor per kind of training or deduction (environment,
 * policy, parameter search, simulation, decision) says what is particular to it — its calls'
 * area, its table, its job kind, its create schema and rules and the columns of its record —, and
 * the core (`trainings.ts`, its calls `trainingRoutes`) does the rest the same way for every kind:
 * create (insert + queue the job), list, get, stop, restore, copy, delete, the events stream and
 * the display data (the job contract, `modules/jobs`, and `train/*`).
 *
 * Each area's descriptor lives in `areas/<area>.ts` (its job handler in `areas/<area>-job.ts`)
 * and is registered explicitly at start-up: `modellingTrainingKinds()` (`areas/index.ts`) names
 * each one, called by the composition root (`app.ts`) for the calls and the job kinds, and by a
 * worker process (`jobs/worker-kinds.ts`) for the job kinds; nothing registers itself by being
 * imported.
 */
import type { z } from 'zod';
import type { Locale, MODELLING_JOB_KINDS } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { JobKind } from '../../jobs/queue';
import type { Row } from './common';
import type { Scope } from '../projects/access';
import type { ModellingJobEnv, RecordPayload } from './engine/job-run';
import type { TrainingChecks, TrainingTable } from './training-rules';

/** What every create request names. */
export interface TrainingCreateInput {
  solutionId: string;
  name: string;
  workerId?: string | null | undefined;
}

/** What a descriptor's `prepare` gets. */
export interface PrepareContext {
  user: ServerCallUser;
  /** The caller's project and solution (edit right checked). */
  scope: Scope;
  locale: Locale;
  /** The shared pre-conditions (unique name, usable reward, memory, auto-search, sealed git password, initial dataset). */
  checks: TrainingChecks;
  /** The database of the request. */
  knex: import('knex').Knex;
  /** Size of a blob of the store (the memory rule reads the processed data's). */
  blobSize(key: string): Promise<number>;
}

/** One kind of training or deduction. */
export interface TrainingDescriptor<I extends TrainingCreateInput = TrainingCreateInput> {
  /** The spec's kind (`environment`, `policy`, `parameter`, `simulation`, `decision`). */
  kind: keyof typeof MODELLING_JOB_KINDS;
  /** The area of its calls: `/<area>/create|list|get|delete` (+ `restore`). */
  area: string;
  /** Its records' table. */
  table: TrainingTable;
  /** A table shared by several kinds: the value of its `kind` column. */
  rowKind?: string | undefined;
  /** The job kind that trains it. */
  jobKind: string;
  /** Builds that job kind's handler (`areas/<area>-job.ts`); the server and the workers register it (`modellingJobKinds`). */
  job(env: ModellingJobEnv): JobKind<RecordPayload>;
  /** The create call's request schema (`core/domain`). */
  createSchema: z.ZodType<I>;
  /** The kind's own rules on a create request, and its columns of the new record. */
  prepare(ctx: PrepareContext, input: I): Promise<Row>;
  /** Deleting needs `acknowledged: true` (`deleteNotAcknowledged`). */
  deleteAck: boolean;
  /** A failed or stopped training can run again from its last checkpoint (`/<area>/restore`). */
  restorable: boolean;
  /** The model list's area (`/<modelArea>/list|get|delete|copy`): a trained model others use. */
  modelArea?: string | undefined;
}

/** The descriptors registered at start-up. */
export class TrainingKinds {
  private readonly byArea = new Map<string, TrainingDescriptor>();

  /** Adds a kind; an area or a kind registered twice is a wiring mistake. */
  register<I extends TrainingCreateInput>(descriptor: TrainingDescriptor<I>): this {
    const d = descriptor as unknown as TrainingDescriptor;
    if (this.byArea.has(d.area)) throw new Error(`Training area "${d.area}" is registered twice`);
    if (this.all().some((o) => o.kind === d.kind)) throw new Error(`Training kind "${d.kind}" is registered twice`);
    if (d.modelArea && (this.byArea.has(d.modelArea) || this.all().some((o) => o.modelArea === d.modelArea))) throw new Error(`Model area "${d.modelArea}" is registered twice`);
    if (this.all().some((o) => o.jobKind === d.jobKind)) throw new Error(`Job kind "${d.jobKind}" is registered twice`);
    this.byArea.set(d.area, d);
    return this;
  }

  all(): TrainingDescriptor[] {
    return [...this.byArea.values()];
  }

  /** The descriptor of an area, or undefined. */
  area(area: string): TrainingDescriptor | undefined {
    return this.byArea.get(area);
  }

  /** The descriptor of a kind, or undefined. */
  kind(kind: string): TrainingDescriptor | undefined {
    return this.all().find((d) => d.kind === kind);
  }
}
