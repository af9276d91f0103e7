/**
 * First module of a job thread (`threads.ts`): makes TypeScript loadable in the thread, then
 * loads its entry (`workerData.entry`). A thread inherits the process's `execArgv`: under
 * `npm start` and `npm run worker` (tsx) that already loads tsx's loader; under vitest, or
 * plain node, nothing does, so the thread registers tsx itself.
 */
import { workerData } from 'node:worker_threads';

const inherited = process.execArgv.some((a) => a === 'tsx' || /[\\/]tsx[\\/]dist[\\/]loader\.mjs$/.test(a));
if (!inherited) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
