/**
 * Operator settings of the SSH terminal (server README, "SSH debug terminal"): the known-hosts
 * file that host keys are checked against, this process's worker SSH address, and the terminal
 * into a training's worker (`trainSSH/getTrainSSH`), off by default.
 */
import path from 'node:path';

/** A `host:port` address. */
export interface SshAddress {
  host: string;
  port: number;
}

/** The terminal into a training's worker, when the operator enabled it. */
export interface TrainSshConfig {
  /** `TRAIN_SSH_USER`: the account the server signs in with on every worker. */
  username: string;
  /** `TRAIN_SSH_KEY_FILE`: that account's private key (OpenSSH or PEM), read at each connection. */
  keyFile: string;
  /** `TRAIN_SSH_KEY_PASSPHRASE`: the key's passphrase, if it has one. */
  passphrase: string | null;
}

export interface SshConfig {
  /**
   * `SSH_KNOWN_HOSTS`: an OpenSSH known_hosts file. A host listed there must present one of its
   * keys (a connection to it is refused otherwise); hosts not listed are trusted on first use per
   * user. Null: trust on first use only.
   */
  knownHostsFile: string | null;
  /** `WORKER_SSH_ADDRESS` of this process (its in-process job worker), `host:port`; null: none. */
  workerAddress: string | null;
  /** `TRAIN_SSH=on` and its account; null: `trainSSH/getTrainSSH` answers `sshInfoFailed`. */
  train: TrainSshConfig | null;
}

/** `host`, `host:port` or `[v6]:port` as host and port (22 by default); null when malformed. */
export function parseSshAddress(value: string): SshAddress | null {
  const v = value.trim();
  const m = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(v) ?? /^([A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(v);
  if (!m) return null;
  const port = m[2] === undefined ? 22 : Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1]!, port };
}

const on = (v: string | undefined) => ['1', 'on', 'true', 'yes'].includes((v ?? '').trim().toLowerCase());

/** Reads the SSH settings; throws on malformed or incomplete ones (start-up error). */
export function loadSshConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): SshConfig {
  const knownHosts = env.SSH_KNOWN_HOSTS?.trim();
  const workerAddress = env.WORKER_SSH_ADDRESS?.trim() || null;
  if (workerAddress && !parseSshAddress(workerAddress)) throw new Error(`WORKER_SSH_ADDRESS must be host, host:port or [address]:port, got "${workerAddress}"`);
  let train: TrainSshConfig | null = null;
  if (on(env.TRAIN_SSH)) {
    const username = env.TRAIN_SSH_USER?.trim();
    const keyFile = env.TRAIN_SSH_KEY_FILE?.trim();
    if (!username || !keyFile) throw new Error('TRAIN_SSH=on needs TRAIN_SSH_USER and TRAIN_SSH_KEY_FILE');
    train = { username, keyFile: path.resolve(cwd, keyFile), passphrase: env.TRAIN_SSH_KEY_PASSPHRASE || null };
  }
  return { knownHostsFile: knownHosts ? path.resolve(cwd, knownHosts) : null, workerAddress, train };
}
