import { z } from 'zod';

/**
 * The SSH debug terminal (spec platform §3 "SSH debug terminal", §5 "SSH: host and username
 * required", §8 SSH messages): `ssh/connect` opens an SSH session on the server for the caller
 * and answers a short-lived, single-use ticket; the browser's xterm attaches to it over a
 * WebSocket (`/api/ssh/terminal?ticket=`). Sessions belong to the user who opened them and end
 * after `SSH_LIMITS.idleMinutes` without input or output.
 */
export const SSH_LIMITS = {
  hostMax: 253,
  usernameMax: 64,
  secretMax: 1024,
  privateKeyMax: 16_384,
  /** Minutes without input or output before the server ends a session. */
  idleMinutes: 15,
  /** Seconds a ticket may wait for its WebSocket. */
  ticketSeconds: 30,
  /** Open sessions per user. */
  perUser: 4,
} as const;

/**
 * A host key fingerprint as OpenSSH prints it: `SHA256:` and the unpadded base64 of the SHA-256
 * of the key blob (`ssh-keygen -lf`).
 */
export const sshFingerprintSchema = z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'validation.invalid');

export const SSH_AUTH_TYPES = ['password', 'key'] as const;
export type SshAuthType = (typeof SSH_AUTH_TYPES)[number];

/** `ssh/connect`. */
export const sshConnectSchema = z
  .object({
    host: z.string({ message: 'validation.required' }).trim().min(1, 'validation.required').max(SSH_LIMITS.hostMax, 'validation.tooLong'),
    port: z.coerce.number().int().min(1).max(65535).default(22),
    username: z.string({ message: 'validation.required' }).trim().min(1, 'validation.required').max(SSH_LIMITS.usernameMax, 'validation.tooLong'),
    authType: z.enum(SSH_AUTH_TYPES).default('password'),
    password: z.string().max(SSH_LIMITS.secretMax, 'validation.tooLong').optional(),
    privateKey: z.string().max(SSH_LIMITS.privateKeyMax, 'validation.tooLong').optional(),
    passphrase: z.string().max(SSH_LIMITS.secretMax, 'validation.tooLong').optional(),
    cols: z.coerce.number().int().min(10).max(500).default(80),
    rows: z.coerce.number().int().min(5).max(200).default(24),
    /**
     * The host key the user checked and trusts (first connection to a host): the server goes on
     * only when the host presents this very key, and keeps it for this user and host.
     */
    trustFingerprint: sshFingerprintSchema.optional(),
  })
  .refine((v) => (v.authType === 'password' ? !!v.password : !!v.privateKey), { message: 'validation.required', path: ['password'] });
export type SshConnectRequest = z.input<typeof sshConnectSchema>;

/**
 * How the server trusted the host's key: `knownHosts` the operator's known-hosts file
 * (`SSH_KNOWN_HOSTS`), `stored` the key this user trusted before, `new` trusted just now (the
 * user confirmed its fingerprint).
 */
export type SshHostKeyTrust = 'knownHosts' | 'stored' | 'new';

/** The host key of a session. */
export interface SshHostKey {
  /** Key type, e.g. `ssh-ed25519`. */
  type: string;
  fingerprint: string;
  trust: SshHostKeyTrust;
}

/**
 * Details of the `sshHostKeyUnknown` / `sshHostKeyChanged` errors (the envelope's `errors`): the
 * key the host presented; `storedFingerprint` the key trusted before (changed key only).
 */
export interface SshHostKeyErrorDetails {
  host: string;
  port: string;
  keyType: string;
  fingerprint: string;
  storedFingerprint?: string;
}

/** `ssh/connect` answer. */
export interface SshConnectReply {
  sessionId: string;
  /** Single-use, valid `SSH_LIMITS.ticketSeconds`: `/api/ssh/terminal?ticket=<ticket>`. */
  ticket: string;
  idleMinutes: number;
  hostKey: SshHostKey;
}

/** `ssh/forgetHostKey`: drops the key the caller trusted for a host (e.g. after a reinstall). */
export const sshForgetHostKeySchema = z.object({
  host: z.string({ message: 'validation.required' }).trim().min(1, 'validation.required').max(SSH_LIMITS.hostMax, 'validation.tooLong'),
  port: z.coerce.number().int().min(1).max(65535).default(22),
});
export type SshForgetHostKeyRequest = z.input<typeof sshForgetHostKeySchema>;

/**
 * `trainSSH/getTrainSSH` (spec workflow §7): a terminal into the worker that runs one of the
 * caller's trainings, while it runs, when the operator enabled it (`TRAIN_SSH`). The server signs
 * in with the operator's account and key; the browser never sees them. Refused with
 * `sshInfoFailed` when disabled, when the training is not the caller's or not running, or when its
 * worker has no SSH address.
 */
export const trainSshSchema = z.object({
  jobId: z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid'),
  cols: z.coerce.number().int().min(10).max(500).default(80),
  rows: z.coerce.number().int().min(5).max(200).default(24),
  trustFingerprint: sshFingerprintSchema.optional(),
  /**
   * Only say whether a terminal would open now ({@link TrainSshProbeReply}), without connecting:
   * the detail shows its button only then. Not in the spec; answers 200 in every case.
   */
  probe: z.boolean().optional(),
});
export type TrainSshRequest = z.input<typeof trainSshSchema>;

/** `trainSSH/getTrainSSH` with `probe: true`. */
export interface TrainSshProbeReply {
  available: boolean;
}

/** `trainSSH/getTrainSSH` answer: a session like `ssh/connect`'s, and where it goes. */
export interface TrainSshReply extends SshConnectReply {
  /** `user@host:port` of the worker. */
  target: string;
  /** The worker's id (`virtualMachine/getVirtualMachineList`). */
  workerId: string;
}

/** `ssh/close`. */
export const sshCloseSchema = z.object({ sessionId: z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid') });

/** Messages the browser sends on the terminal socket besides raw keystrokes (text frames starting with `{`). */
export interface SshResizeMessage {
  type: 'resize';
  cols: number;
  rows: number;
}

/** WebSocket close codes of the terminal. */
export const SSH_CLOSE = {
  ended: 4000,
  noSession: 4404,
  idle: 4408,
} as const;
