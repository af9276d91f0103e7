/** Sandboxed Python for user code (reward files, node functions). Node only. */
export * from './python-sandbox';
export * from './node-functions';
