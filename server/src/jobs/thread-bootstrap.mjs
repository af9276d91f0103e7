/**
 * First module of a job thread (`threads.ts`): makes TypeScript loadable in the thread, then
 * loads its entry (`workerData.entry`). A thread inherits the process's `execArgv`, but on Node
 * 20 the tsx loader that `npm start` / `npm run worker` (tsx's CLI) or `node --import tsx`
 * register does not apply to it, and under vitest there is none: the thread always registers
 * tsx for itself.
 */
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
