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
  })
  .refine((v) => (v.authType === 'password' ? !!v.password : !!v.privateKey), { message: 'validation.required', path: ['password'] });
export type SshConnectRequest = z.input<typeof sshConnectSchema>;

/** `ssh/connect` answer. */
export interface SshConnectReply {
  sessionId: string;
  /** Single-use, valid `SSH_LIMITS.ticketSeconds`: `/api/ssh/terminal?ticket=<ticket>`. */
  ticket: string;
  idleMinutes: number;
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
