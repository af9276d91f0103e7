import { AppError } from '@decisio/domain';
import type { Clock } from '../../clock';

interface Entry {
  failures: number;
  first: number;
  lockedUntil: number;
}

/**
 * Brute-force brake per login name (in memory, per server process): after `maxFailures` failed
 * sign-ins within `windowMs`, that name is refused with `tooManyRequests` for `windowMs`, whether
 * or not it exists. A successful sign-in clears its count.
 */
export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  /** @throws AppError `tooManyRequests` while `name` is locked. */
  check(name: string): void {
    const e = this.entries.get(this.key(name));
    if (e && e.lockedUntil > this.clock.now().getTime()) throw new AppError('tooManyRequests');
  }

  /** Counts a failure. */
  fail(name: string): void {
    const now = this.clock.now().getTime();
    const key = this.key(name);
    let e = this.entries.get(key);
    if (!e || now - e.first > this.windowMs) e = { failures: 0, first: now, lockedUntil: 0 };
    e.failures += 1;
    if (e.failures >= this.maxFailures) e.lockedUntil = now + this.windowMs;
    this.entries.set(key, e);
    if (this.entries.size > 10_000) this.prune(now);
  }

  /** Clears the count after a successful sign-in. */
  succeed(name: string): void {
    this.entries.delete(this.key(name));
  }

  private key(name: string): string {
    return name.trim().toLowerCase();
  }

  private prune(now: number): void {
    for (const [k, e] of this.entries) if (e.lockedUntil < now && now - e.first > this.windowMs) this.entries.delete(k);
  }
}
