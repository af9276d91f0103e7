/** Reference tasks with true simulators, for tests and the benchmark. */
export * from './common';
export { pendulumTask, pendulumExpertPolicy } from './pendulum';
export { thermalTask, thermalExpertPolicy } from './thermal';
export { inventoryTask, inventoryExpertPolicy, demandRate } from './inventory';
export { hoverTask, hoverExpertPolicy } from './hover';
export { plantTask, plantExpertPolicy } from './plant';
import { hoverTask } from './hover';
import { inventoryTask } from './inventory';
import { pendulumTask } from './pendulum';
import { plantTask } from './plant';
import { thermalTask } from './thermal';

/** All reference tasks by id. */
export const REFERENCE_TASKS = { pendulum: pendulumTask, thermal: thermalTask, inventory: inventoryTask, hover: hoverTask, plant: plantTask } as const;
