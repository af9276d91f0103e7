/** Parameter search over tunable nodes (random search, SRACOS), scored by venv rollouts. */
export * from './search';
