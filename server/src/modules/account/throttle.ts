import { createHash } from 'node:crypto';
import net from 'node:net';
import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';

/** Limits of the sign-in throttle (see server/README.md "Sign-in"). */
export interface ThrottleLimits {
  /** Failed sign-ins per account (or unknown login name) before it is locked. */
  accountMaxFailures: number;
  /** Failed sign-ins per client address, over all login names, before it is refused. */
  addressMaxFailures: number;
  /** The window failures are counted in, and how long a lock lasts, ms. */
  windowMs: number;
}

/** A throttle key: the resolved account, an unknown login name, or a client address. */
export type ThrottleKey = string & { readonly __throttleKey: true };

const TABLE = 'signin_failures';
/** How often (in attempts, per process) rows whose window and lock are both over are deleted. */
const PRUNE_EVERY = 200;

/** Key of a resolved account: every alias (username, e-mail, mobile) shares it. */
export function accountKey(userId: string): ThrottleKey {
  return `user:${userId}` as ThrottleKey;
}

/** Key of a login name that matches no account (hashed: a mistyped password may be in it). */
export function unknownNameKey(name: string): ThrottleKey {
  return `name:${createHash('sha256').update(name.trim().toLowerCase()).digest('hex')}` as ThrottleKey;
}

/** The /64 network of an IPv6 address (`2001:db8:0:1::/64`), or null for anything else. */
export function ipv6Network(address: string): string | null {
  let a = address.split('%')[0]!;
  if (net.isIPv6(a) === false) return null;
  // IPv4 clients seen as IPv6 (mapped, NAT64) are one client per address, not per /64.
  if (/^(::ffff:|64:ff9b::)/i.test(a)) return null;
  const dot = a.lastIndexOf('.');
  if (dot >= 0) {
    // An IPv4 tail (`::ffff:1.2.3.4`, `64:ff9b::1.2.3.4`) as two groups.
    const cut = a.lastIndexOf(':');
    const [b0, b1, b2, b3] = a.slice(cut + 1).split('.').map(Number) as [number, number, number, number];
    a = `${a.slice(0, cut + 1)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.split('::') as [string, string | undefined];
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Key of a client address. An IPv6 client is counted by its /64 network: one subscriber usually
 * holds a whole /64 and could otherwise rotate through 2^64 addresses.
 */
export function addressKey(address: string): ThrottleKey {
  return `addr:${(ipv6Network(address) ?? address).slice(0, 90)}` as ThrottleKey;
}

/**
 * Brute-force brake for sign-in, kept in the `signin_failures` table so that it holds across
 * server processes and restarts. Each attempt is counted before the password is checked
 * (`attempt`), so parallel requests cannot slip past the limit; a success gives the count back.
 * Once a key has `max` failures within `windowMs`, it is locked for `windowMs` (`lockedUntil`).
 */
export class SignInThrottle {
  private attempts = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    readonly limits: ThrottleLimits,
  ) {}

  private get knex(): Knex {
    // The request's transaction if there is one (admin unlock; on SQLite a second connection
    // would wait for it forever). Sign-in runs without one, so its counts survive the refusal.
    return this.db.executor();
  }

  /** Epoch ms until which `key` is locked, or 0. */
  async lockedUntil(key: ThrottleKey): Promise<number> {
    const row = (await this.knex(TABLE).where('guard_key', key).first('locked_until_ms')) as { locked_until_ms: number | string } | undefined;
    const until = Number(row?.locked_until_ms ?? 0);
    return until > this.clock.now().getTime() ? until : 0;
  }

  /**
   * Counts one attempt for `key` (a new window starts when the last one is over) and answers
   * whether it is within `max`; an attempt over it locks the key.
   */
  async attempt(key: ThrottleKey, max: number): Promise<boolean> {
    const now = this.clock.now().getTime();
    if (this.attempts++ % PRUNE_EVERY === 0) await this.prune(now);
    const count = await this.increment(key, now);
    if (count > max) {
      await this.lock(key, now);
      return false;
    }
    return true;
  }

  /** Failed sign-ins counted for `key` in its current window. */
  async failures(key: ThrottleKey): Promise<number> {
    const row = (await this.knex(TABLE).where('guard_key', key).first('failures', 'window_start_ms')) as
      | { failures: number | string; window_start_ms: number | string }
      | undefined;
    if (!row || Number(row.window_start_ms) <= this.clock.now().getTime() - this.limits.windowMs) return 0;
    return Number(row.failures);
  }

  /** After a failed check: locks `key` when it has reached `max` failures. */
  async failed(key: ThrottleKey, max: number): Promise<void> {
    const row = (await this.knex(TABLE).where('guard_key', key).first('failures')) as { failures: number | string } | undefined;
    if (Number(row?.failures ?? 0) >= max) await this.lock(key, this.clock.now().getTime());
  }

  /** Gives back the attempt of a successful sign-in (the address keeps its other failures). */
  async giveBack(key: ThrottleKey): Promise<void> {
    await this.knex(TABLE).where('guard_key', key).andWhere('failures', '>', 0).update({ failures: this.knex.raw('failures - 1') });
  }

  /** The accounts among `userIds` that are locked now, with the end of their lock. */
  async lockedAccounts(userIds: readonly string[]): Promise<Map<string, Date>> {
    const locked = new Map<string, Date>();
    if (userIds.length === 0) return locked;
    const rows = (await this.knex(TABLE)
      .whereIn('guard_key', userIds.map(accountKey))
      .andWhere('locked_until_ms', '>', this.clock.now().getTime())
      .select('guard_key', 'locked_until_ms')) as { guard_key: string; locked_until_ms: number | string }[];
    for (const r of rows) locked.set(r.guard_key.slice('user:'.length), new Date(Number(r.locked_until_ms)));
    return locked;
  }

  /** Admin unlock (`users/unlockUser`): forgets the failed sign-ins and the lock of an account. */
  async unlockAccount(userId: string): Promise<void> {
    await this.clear(accountKey(userId));
  }

  /** Forgets every failure and the lock of `key` (successful sign-in of an account, admin unlock). */
  async clear(key: ThrottleKey): Promise<void> {
    await this.knex(TABLE).where('guard_key', key).del();
  }

  private async increment(key: ThrottleKey, now: number): Promise<number> {
    const cutoff = now - this.limits.windowMs;
    for (let tries = 0; ; tries++) {
      // One statement, so concurrent servers never lose a count. MySQL assigns left to right:
      // `failures` must come first, while `window_start_ms` still holds the old value.
      const updated = await this.knex(TABLE)
        .where('guard_key', key)
        .update({
          failures: this.knex.raw('case when window_start_ms <= ? then 1 else failures + 1 end', [cutoff]),
          window_start_ms: this.knex.raw('case when window_start_ms <= ? then ? else window_start_ms end', [cutoff, now]),
        });
      if (updated === 0) {
        try {
          await this.knex(TABLE).insert({ guard_key: key, failures: 1, window_start_ms: now, locked_until_ms: 0 });
          return 1;
        } catch (err) {
          // Another server inserted the row first: count on it.
          if (!isUniqueViolation(err) || tries > 2) throw err;
          continue;
        }
      }
      const row = (await this.knex(TABLE).where('guard_key', key).first('failures')) as { failures: number | string } | undefined;
      return Number(row?.failures ?? 1);
    }
  }

  private async prune(now: number): Promise<void> {
    await this.knex(TABLE)
      .where('window_start_ms', '<=', now - this.limits.windowMs)
      .andWhere('locked_until_ms', '<=', now)
      .del();
  }

  private async lock(key: ThrottleKey, now: number): Promise<void> {
    await this.knex(TABLE)
      .where('guard_key', key)
      .andWhere('locked_until_ms', '<=', now)
      .update({ locked_until_ms: now + this.limits.windowMs });
  }
}
