/**
 * `@decisio/worker-compute`: the compute core in a browser worker (`worker.ts`, comlink) for the
 * feedback-control trial. `createComputeOps` runs the same operations without a worker
 * (tests, the bench page); `readTrialFile` checks a trial file.
 */
export type { ComputeWorkerApi, TrialPreview } from './api';
export { createComputeOps } from './ops';
export { chooseBackend } from './backend-choice';
export { readTrialFile, type TrialFileRead } from './trial-file';
