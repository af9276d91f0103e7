/** Parameter search over tunable nodes (random search, SRACOS), scored by venv rollouts. */
export * from './search';
export * from './trainer';
