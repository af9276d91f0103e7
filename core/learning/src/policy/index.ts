/** Policy training in a virtual environment (PPO, SAC), export and inference. */
export * from './agent-policy';
export * from './rollout';
export * from './behaviour-regulariser';
export * from './ppo';
export * from './runner';
export * from './task-reward';
export * from './sac';
