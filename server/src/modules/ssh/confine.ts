/**
 * The command a worker terminal (`trainSSH/getTrainSSH`) runs on the worker instead of a login
 * shell (ADR 0013): an interactive shell inside the same bubblewrap confinement as the job's
 * user code. The policy is not written twice: bwrap's options come from the sandbox's own
 * builder (`confineArgs` of `@decisio/learning/sandbox`, which the server may import: `server ->
 * core/learning`), with the worker's announced bwrap features; the limits are the sandbox's
 * (`SANDBOX_LIMITS`, set with `prlimit` inside, soft = hard, as the runner sets them for user
 * code). What differs, and why:
 * - the system binds are `portable` (`--ro-bind-try` of `/bin`, `/lib*`...): the command runs on
 *   another machine whose merged-usr layout this server does not know;
 * - no `--new-session`: the pty is the terminal's own and every process outside the sandbox on
 *   it has exec'd into bwrap, so only the confined shell reads it; with a new session the shell
 *   would have no job control and Ctrl+C would end bwrap itself;
 * - the seccomp filter reaches bwrap's fd 3 through a file that is opened and deleted before
 *   bwrap starts (the job's sandbox writes it into a pipe; an SSH command has only its text).
 *
 * The job's work directory (`<jobRoot>/<jobId>`, where the job's sandbox runs the user code) is
 * bound read-write at `/sandbox` and is the cwd; nothing else is writable on disk, no other job's
 * directory, no `/home`, `/root`, `/run`, `/etc` (but the loader's files), `DATA_DIR` or the
 * worker's credentials exist inside; own user, pid, ipc, uts, mount and network namespaces
 * (no network: the job sandbox has none either). When the SSH account is root, bwrap runs as
 * the owner of the job's directory (the job sandbox's own unprivileged uid), never as root.
 * The environment is emptied (`env -i`): nothing of the account's reaches the shell.
 *
 * Everything is one line of POSIX `sh`, run as `exec /bin/sh -c '<script>'` whatever the
 * account's login shell is; every value is single-quoted and the job id must be 32 lower-case hex.
 */
import path from 'node:path';
import { JOB_ID_PATTERN, SANDBOX_LIMITS, SANDBOX_WORKDIR, confineArgs, seccompFilter } from '@decisio/learning/sandbox';
import type { TerminalSandbox } from '../../jobs/machine';

/** `value` as one single-quoted `sh` word (a `'` inside becomes `'\''`). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The interactive shell started inside by default: bash where there is one, else sh. */
export const TERMINAL_SHELL = ['/bin/sh', '-c', 'if command -v bash >/dev/null 2>&1; then exec bash -i; fi; exec sh -i'];

/** An absolute, normalised path without control characters, or an error (a worker's announcement is checked, not trusted). */
function absolute(what: string, p: unknown): string {
  if (typeof p !== 'string' || !path.posix.isAbsolute(p) || path.posix.normalize(p) !== p || /[\u0000-\u001f\u007f]/.test(p) || p === '/') {
    throw new Error(`the worker's ${what} is not a clean absolute path`);
  }
  return p;
}

/** What {@link confinedTerminalCommand} may be told besides the worker and the job. */
export interface ConfinedTerminalOptions {
  /** The command started inside (default {@link TERMINAL_SHELL}); tests run a script. */
  shell?: string[];
}

/**
 * The command line (for SSH `exec` with a pty) that starts a shell confined to job `jobId`'s
 * work directory on a worker that announced `sandbox`. Throws on a job id that is not 32
 * lower-case hex and on an announcement whose paths are not clean absolute paths.
 */
export function confinedTerminalCommand(sandbox: TerminalSandbox, jobId: string, options: ConfinedTerminalOptions = {}): string {
  if (typeof jobId !== 'string' || !JOB_ID_PATTERN.test(jobId)) throw new Error('bad job id');
  const bwrap = absolute('bwrap', sandbox.bwrap);
  const dir = path.posix.join(absolute('job root', sandbox.jobRoot), jobId);
  const features = { disableUserns: sandbox.disableUserns === true, tmpfsSize: sandbox.tmpfsSize === true, seccomp: sandbox.seccomp === true && seccompFilter() !== null };
  const limits = [
    'prlimit',
    `--as=${SANDBOX_LIMITS.memoryMb * 1024 * 1024}`,
    `--cpu=${SANDBOX_LIMITS.cpuSeconds}`,
    `--fsize=${SANDBOX_LIMITS.fileBytes}`,
    `--nofile=${SANDBOX_LIMITS.openFiles}`,
    '--core=0',
    `--nproc=${SANDBOX_LIMITS.processes}`,
    '--',
  ];
  const env = ['env', '-i', 'PATH=/usr/local/bin:/usr/bin:/bin', `HOME=${SANDBOX_WORKDIR}`, 'TERM=xterm-256color', 'LANG=C.UTF-8'];
  const argv = [...env, bwrap, ...confineArgs(features, { workdir: dir, layout: 'portable', newSession: false }), '--', ...limits, ...(options.shell ?? TERMINAL_SHELL)];
  const fail = (message: string) => `{ echo ${shellQuote(`decisio: ${message}`)} >&2; exit 1; }`;
  const script = [
    `d=${shellQuote(dir)}`,
    `{ [ -d "$d" ] && [ ! -L "$d" ]; } || ${fail("this training has no work directory on this worker (it runs no user code here)")}`,
    // As root: bwrap runs as the job directory's owner (the job sandbox's own uid), never as root.
    `if [ "$(id -u)" = 0 ]; then u=$(stat -c %u "$d") && [ -n "$u" ] && [ "$u" != 0 ] || ${fail('the work directory belongs to root: no terminal as root')}; set -- setpriv --reuid="$u" --regid="$u" --clear-groups --; else set --; fi`,
    ...(features.seccomp ? [`f=$(mktemp) && printf %s ${shellQuote(seccompFilter()!.toString('base64'))} | base64 -d >"$f" && exec 3<"$f" && rm -f "$f" || ${fail('cannot prepare the system call filter')}`] : []),
    `exec "$@" ${argv.map(shellQuote).join(' ')}`,
  ].join('; ');
  return `exec /bin/sh -c ${shellQuote(script)}`;
}
