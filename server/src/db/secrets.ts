import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Database } from './database';
import { newId } from './ids';

const PURPOSE = 'connection-secrets';

/**
 * Encrypts secrets kept in the database (data connection passwords, git passwords of trainings)
 * with AES-256-GCM. The key
 * is made once per instance and kept in `server_keys` (purpose `connection-secrets`), so every
 * server sharing the database reads what another wrote. Stored form: `v1:<iv>:<tag>:<data>`.
 */
export class SecretBox {
  private key: Promise<Buffer> | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Loads (or makes) the key. Call it before a transaction opens: the key row is read and
   * written on the pool, which on SQLite is the one connection a transaction holds.
   */
  async ready(): Promise<void> {
    await this.load();
  }

  async seal(plain: string): Promise<string> {
    if (!plain) return '';
    const key = await this.load();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
  }

  /** True for a value made by {@link seal}. */
  static isSealed(value: string): boolean {
    return value.startsWith('v1:');
  }

  async open(sealed: string): Promise<string> {
    if (!sealed) return '';
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', await this.load(), Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }

  private load(): Promise<Buffer> {
    this.key ??= this.readOrCreate().catch((err: unknown) => {
      this.key = null;
      throw err;
    });
    return this.key;
  }

  private async read(): Promise<Buffer | null> {
    const row = (await this.db.knex('server_keys').where('purpose', PURPOSE).first()) as { private_key: string } | undefined;
    return row ? Buffer.from(row.private_key, 'base64') : null;
  }

  private async readOrCreate(): Promise<Buffer> {
    const existing = await this.read();
    if (existing) return existing;
    const key = randomBytes(32);
    try {
      await this.db.knex('server_keys').insert({
        id: newId(),
        purpose: PURPOSE,
        algorithm: 'AES-256-GCM',
        public_key: '',
        private_key: key.toString('base64'),
        created_at: this.clock.now(),
      });
      return key;
    } catch (err) {
      const winner = await this.read();
      if (winner) return winner;
      throw err;
    }
  }
}
