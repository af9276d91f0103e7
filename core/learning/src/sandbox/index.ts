/** Sandboxed Python for user code (reward files, node functions). Node only. */
export * from './python-sandbox';
export * from './node-functions';
export * from './matcher';
export {
  JOB_ID_PATTERN,
  JOB_ROOT_ENV,
  SANDBOX_ENV,
  SANDBOX_LIMITS,
  SANDBOX_UID_BASE,
  SANDBOX_WORKDIR,
  UNSAFE_WARNING,
  confineArgs,
  jobRoot,
  makeJobWorkdir,
  probeSandbox,
  sandboxMode,
  seccompFilter,
  type ConfineOptions,
  type SandboxMode,
  type SandboxProbe,
} from './bwrap';
