/**
 * `@decisio/learning`: the learning engine. Decision graphs (validation, structure, REVIVE
 * YAML), trajectory data (npz / h5 / tables, codecs, splits), the Python sandbox for user code,
 * metrics, the trainer contract and reference tasks. Isomorphic; the Node-only Python sandbox
 * is imported from `@decisio/learning/sandbox`.
 */
export * from './errors';
export * from './graph/index';
export * from './data/index';
export * from './metrics/index';
export * from './trainer/index';
export * from './tasks/index';
export * from './venv/index';
export * from './policy/index';
export * from './search/index';
