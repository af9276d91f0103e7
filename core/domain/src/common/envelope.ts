import { z } from 'zod';
import { ErrorCode, type ErrorCodeName } from '../errors/codes';

/** The reply of every call: `{code, data, message}`; `code === 0` is success. */
export interface Envelope<T> {
  code: number;
  data: T;
  message: string;
  /** Field-level details for validation errors: path -> message. */
  errors?: Record<string, string>;
}

/** Builds a zod schema of a reply whose `data` follows `data`. */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number(), data, message: z.string() });
}

/**
 * A failure carrying a catalogue code. Thrown by services, turned into an envelope by the
 * server's error middleware and by the client's base api.
 */
export class AppError extends Error {
  readonly code: number;
  readonly codeName: ErrorCodeName;
  readonly details?: Record<string, string>;
  constructor(name: ErrorCodeName, details?: Record<string, string>, message?: string) {
    super(message ?? name);
    this.codeName = name;
    this.code = ErrorCode[name];
    this.details = details;
  }
}

/** Headers every call carries (spec platform §7). */
export const HEADER = {
  authorization: 'Authorization',
  userId: 'UserId',
  requestId: 'RequestId',
  language: 'Accept-Language',
} as const;

/**
 * Name of the session cookie (set by the server on sign-in, HttpOnly: scripts cannot read it; it
 * authenticates what the browser fetches by itself: event streams, downloads, TensorBoard), the
 * local-storage keys of the token the workbench sends as `Authorization` and its expiry, and the
 * local-storage key of the user id.
 */
export const TOKEN_COOKIE = 'token';
export const TOKEN_STORAGE_KEY = 'token';
export const TOKEN_EXPIRES_STORAGE_KEY = 'tokenExpiresAt';
export const USER_ID_STORAGE_KEY = 'userId';

/** An empty id is 32 zeros (spec platform §3). */
export const EMPTY_ID = '0'.repeat(32);
