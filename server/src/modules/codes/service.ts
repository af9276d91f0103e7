import { createHash, randomInt } from 'node:crypto';
import {
  AppError,
  SIGNED_IN_PURPOSES,
  type CodeChannel,
  type CodePurpose,
  type ExpirationTimeResponse,
  type GenerateCodeResponse,
  type Locale,
} from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { CodesConfig } from './config';
import { codeMessage } from './messages';
import type { Outbox } from './outbox';

/** Characters of e-mail codes: letters and digits without the look-alikes 0/O and 1/I. */
const EMAIL_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Wrong tries of one code before it is void. */
export const CODE_MAX_ATTEMPTS = 5;
const HOUR_MS = 3600_000;

/** The stored digest of a code (by row id, so equal codes differ). */
export function codeDigest(id: string, code: string): string {
  return createHash('sha256').update(`${id}:${code.trim().toUpperCase()}`).digest('hex');
}

/** A fresh code: 6 digits for SMS, 6 letters or digits for e-mail. */
export function newCode(channel: CodeChannel): string {
  let out = '';
  for (let i = 0; i < 6; i++) out += channel === 'sms' ? String(randomInt(0, 10)) : EMAIL_CODE_ALPHABET[randomInt(0, EMAIL_CODE_ALPHABET.length)];
  return out;
}

/** How recipients are compared: e-mails lower-case, numbers without spaces. */
export function normaliseRecipient(channel: CodeChannel, recipient: string): string {
  return channel === 'email' ? recipient.trim().toLowerCase() : recipient.replace(/\s+/g, '');
}

/** `a***@example.com`, `138****0000`. */
export function maskRecipient(channel: CodeChannel, recipient: string): string {
  if (channel === 'email') {
    const [name, domain] = recipient.split('@');
    return `${name!.slice(0, 1)}***@${domain}`;
  }
  return recipient.length > 7 ? `${recipient.slice(0, 3)}****${recipient.slice(-4)}` : '****';
}

/** What a code is checked against. */
export interface CodeTarget {
  channel: CodeChannel;
  recipient: string;
  purpose: CodePurpose;
  /** For purposes bound to an account (`SIGNED_IN_PURPOSES`): the account that asked for it. */
  userId?: string | null;
}

interface CodeRow {
  id: string;
  user_id: string | null;
  code_hash: string;
  attempts: number | string;
  expires_at_ms: number | string;
  used_at_ms: number | string | null;
}

/**
 * Verification codes: sent through the outbox, kept as digests, valid for `ttlMs`, usable once,
 * void after `CODE_MAX_ATTEMPTS` wrong tries; sending is limited per recipient (a resend pause and
 * a number per hour) and per client address (a number per hour). Only the latest code of a
 * recipient and purpose counts.
 */
export class VerificationCodes {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    readonly config: CodesConfig,
  ) {}

  /**
   * Sends a new code.
   * @throws AppError `tooManyRequests` (resend pause, recipient's or address's hourly number),
   *   `codeSendFailed` (the transport refused it).
   */
  async send(target: CodeTarget, clientKey: string, locale: Locale): Promise<GenerateCodeResponse> {
    const knex = this.db.executor();
    const now = this.clock.now().getTime();
    const recipient = normaliseRecipient(target.channel, target.recipient);
    const recent = (await knex('verification_codes')
      .where({ channel: target.channel, recipient })
      .andWhere('created_at_ms', '>', now - HOUR_MS)
      .select('created_at_ms', 'purpose')) as { created_at_ms: number | string; purpose: string }[];
    // The resend pause is per purpose (a sign-up code does not delay a reset); the hourly number is not.
    if (recent.some((r) => r.purpose === target.purpose && Number(r.created_at_ms) > now - this.config.resendMs)) throw new AppError('tooManyRequests');
    if (recent.length >= this.config.perRecipientPerHour) throw new AppError('tooManyRequests');
    const fromClient = (await knex('verification_codes').where('client_key', clientKey).andWhere('created_at_ms', '>', now - HOUR_MS).count({ n: '*' }).first()) as
      | { n: number | string }
      | undefined;
    if (Number(fromClient?.n ?? 0) >= this.config.perAddressPerHour) throw new AppError('tooManyRequests');

    const id = newId();
    const code = newCode(target.channel);
    const expiresAt = now + this.config.ttlMs;
    await knex('verification_codes').insert({
      id,
      channel: target.channel,
      recipient,
      purpose: target.purpose,
      user_id: target.userId ?? null,
      code_hash: codeDigest(id, code),
      attempts: 0,
      client_key: clientKey.slice(0, 100),
      created_at_ms: now,
      expires_at_ms: expiresAt,
      used_at_ms: null,
    });
    const text = codeMessage(locale, target.purpose, code, Math.round(this.config.ttlMs / 60_000));
    try {
      await this.outbox.send({ channel: target.channel, to: recipient, purpose: target.purpose, subject: text.subject, text: text.body, secret: code });
    } catch (err) {
      // Not delivered: the code can never be used (the send still counts for the limits).
      await knex('verification_codes').where('id', id).update({ used_at_ms: now });
      throw err;
    }
    return { sentTo: maskRecipient(target.channel, recipient), expiresAt: new Date(expiresAt).toISOString(), resendSeconds: Math.ceil(this.config.resendMs / 1000) };
  }

  /**
   * Checks a code without using it up; a wrong one counts as a try.
   * @throws AppError `verifyCodeMismatch` (wrong, none sent, or sent for another account),
   *   `verifyCodeExpired` (expired or too many wrong tries), `codeUsed`.
   */
  async check(target: CodeTarget, code: string): Promise<{ id: string; expiresAt: Date }> {
    const knex = this.db.executor();
    const recipient = normaliseRecipient(target.channel, target.recipient);
    const row = (await knex('verification_codes')
      .where({ channel: target.channel, recipient, purpose: target.purpose })
      .orderBy([{ column: 'created_at_ms', order: 'desc' }, { column: 'id', order: 'desc' }])
      .first()) as CodeRow | undefined;
    if (!row) throw new AppError('verifyCodeMismatch');
    if (SIGNED_IN_PURPOSES.includes(target.purpose) && row.user_id !== (target.userId ?? null)) throw new AppError('verifyCodeMismatch');
    if (row.used_at_ms !== null) throw new AppError('codeUsed');
    if (Number(row.expires_at_ms) <= this.clock.now().getTime() || Number(row.attempts) >= CODE_MAX_ATTEMPTS) throw new AppError('verifyCodeExpired');
    if (codeDigest(row.id, code) !== row.code_hash) {
      await knex('verification_codes').where('id', row.id).update({ attempts: knex.raw('attempts + 1') });
      throw new AppError('verifyCodeMismatch');
    }
    return { id: row.id, expiresAt: new Date(Number(row.expires_at_ms)) };
  }

  /**
   * Checks a code and uses it up (one statement: of two concurrent uses, one wins).
   * @throws AppError as `check`; `codeUsed` when another request used it first.
   */
  async consume(target: CodeTarget, code: string): Promise<void> {
    const { id } = await this.check(target, code);
    const updated = await this.db.executor()('verification_codes').where('id', id).whereNull('used_at_ms').update({ used_at_ms: this.clock.now().getTime() });
    if (updated !== 1) throw new AppError('codeUsed');
  }

  /** Code lifetime, resend pause, and the seconds left before `recipient` may get another code. */
  async expiration(channel?: CodeChannel, recipient?: string): Promise<ExpirationTimeResponse> {
    let resendIn = 0;
    if (channel && recipient) {
      const now = this.clock.now().getTime();
      const last = (await this.db
        .executor()('verification_codes')
        .where({ channel, recipient: normaliseRecipient(channel, recipient) })
        .max({ at: 'created_at_ms' })
        .first()) as { at: number | string | null } | undefined;
      if (last?.at !== null && last?.at !== undefined) resendIn = Math.max(0, Math.ceil((Number(last.at) + this.config.resendMs - now) / 1000));
    }
    return { codeTtlSeconds: Math.round(this.config.ttlMs / 1000), resendSeconds: Math.round(this.config.resendMs / 1000), resendInSeconds: resendIn };
  }
}
