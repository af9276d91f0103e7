/** Sandboxed Python for user code (reward files, node functions). Node only. */
export * from './python-sandbox';
export * from './node-functions';
export * from './matcher';
export { SANDBOX_ENV, UNSAFE_WARNING, probeSandbox, sandboxMode, type SandboxMode, type SandboxProbe } from './bwrap';
