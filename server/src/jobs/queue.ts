/**
 * The job queue: one `JobQueue` contract, two adapters (`InProcessQueue`, `BullMqQueue`), the
 * job kinds registry and the worker node behind `npm run worker`.
 */
export { EngineVersionMismatchError, JobNotStoppableError, WorkerUnavailableError, type EnqueueOptions, type JobQueue } from './contract';
export type { JobEvent, JobEventListener, JobLogLevel } from './events';
export type { JobRecord, JobListQuery, JobLogRecord, WorkerRecord } from './store';
export { JobStore } from './store';
export { JobState, jobStates, isFinalState } from './states';
export { JobKindRegistry, type JobContext, type JobKind } from './kinds';
export { InProcessQueue, type InProcessQueueOptions } from './in-process-queue';
export type { JobThreadsOptions } from './threads';
export type { ThreadJobEnv, ThreadJobKindsModule } from './thread-protocol';
export { BullMqQueue, type BullMqQueueOptions } from './bullmq-queue';
export { JobWorker, type JobWorkerOptions } from './worker-node';
