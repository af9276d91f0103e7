import { AppError, CODE_LIMITS, type CaptchaImageResponse } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { CAPTCHA_SIZE, drawCaptcha, randomCaptchaText } from './captcha-svg';

/** How often (in issued captchas, per process) expired rows are deleted. */
const PRUNE_EVERY = 50;
/**
 * How long an expired picture's row is kept before it is pruned, so that a late answer still
 * hears `captchaExpired` (read the new picture) rather than `captchaMismatch` (misread).
 */
const EXPIRED_KEPT_MS = 60 * 60 * 1000;

/**
 * Captcha pictures drawn by the server (`captcha/captchaImage`). The characters are kept in the
 * `captchas` table until the picture is answered once (right or wrong), or for an hour after it
 * expires, so every server of a database checks what any of them drew.
 */
export class CaptchaService {
  private issued = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ttlMs: number = CODE_LIMITS.captchaTtlSeconds * 1000,
  ) {}

  /** A fresh picture and its id. */
  async issue(): Promise<CaptchaImageResponse> {
    const now = this.clock.now().getTime();
    if (this.issued++ % PRUNE_EVERY === 0) await this.db.executor()('captchas').where('expires_at_ms', '<=', now - EXPIRED_KEPT_MS).del();
    const id = newId();
    const text = randomCaptchaText();
    const expiresAt = now + this.ttlMs;
    await this.db.executor()('captchas').insert({ id, answer: text, expires_at_ms: expiresAt });
    return {
      captchaId: id,
      image: `data:image/svg+xml;base64,${Buffer.from(drawCaptcha(text)).toString('base64')}`,
      width: CAPTCHA_SIZE.width,
      height: CAPTCHA_SIZE.height,
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /**
   * Checks an answer (case and spaces ignored) and uses the picture up, right or wrong.
   * @throws AppError `captchaRequired` without an answer; `captchaExpired` when the picture is past
   *   its `expiresAt` (whatever was typed: the user is told to read the new picture, not that
   *   they misread this one); `captchaMismatch` for a wrong, unknown or used one.
   */
  async check(captchaId: string | undefined, answer: string | undefined): Promise<void> {
    if (!captchaId || !answer?.trim()) throw new AppError('captchaRequired');
    const knex = this.db.executor();
    const row = (await knex('captchas').where('id', captchaId).first()) as { answer: string; expires_at_ms: number | string } | undefined;
    if (!row) throw new AppError('captchaMismatch');
    // Only the statement that deletes the row may pass: one answer per picture.
    const deleted = await knex('captchas').where('id', captchaId).del();
    const given = answer.replace(/\s+/g, '').toUpperCase();
    if (deleted !== 1) throw new AppError('captchaMismatch');
    if (Number(row.expires_at_ms) <= this.clock.now().getTime()) throw new AppError('captchaExpired');
    if (given !== row.answer) throw new AppError('captchaMismatch');
  }
}
