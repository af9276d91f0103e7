/** Reference tasks with true simulators, for tests and the benchmark. */
export * from './common';
export { pendulumTask, pendulumExpertPolicy } from './pendulum';
export { thermalTask, thermalExpertPolicy } from './thermal';
export { inventoryTask, inventoryExpertPolicy, demandRate } from './inventory';
import { inventoryTask } from './inventory';
import { pendulumTask } from './pendulum';
import { thermalTask } from './thermal';

/** All reference tasks by id. */
export const REFERENCE_TASKS = { pendulum: pendulumTask, thermal: thermalTask, inventory: inventoryTask } as const;
