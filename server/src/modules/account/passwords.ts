import { hash, verify } from '@node-rs/argon2';

/** Slow password hashing (argon2id, the library's default algorithm, OWASP parameters: 19 MiB, 2 passes). */
export class PasswordHasher {
  private dummy: Promise<string> | null = null;

  /** Hashes a plain password. */
  hash(plain: string): Promise<string> {
    return hash(plain, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  }

  /** Checks a password against a hash; with no hash, spends the same time and answers false. */
  async verify(hashed: string | null, plain: string): Promise<boolean> {
    if (!hashed) {
      this.dummy ??= this.hash('not-a-real-password-0A');
      await verify(await this.dummy, plain).catch(() => false);
      return false;
    }
    try {
      return await verify(hashed, plain);
    } catch {
      return false;
    }
  }
}
