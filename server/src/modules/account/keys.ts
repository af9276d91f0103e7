import { constants, createHash, generateKeyPair, privateDecrypt } from 'node:crypto';
import { promisify } from 'node:util';
import { ACCOUNT_PASSWORD_MARK, AppError, type PublicKeyResponse } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { PasswordNonces } from './nonces';

const generate = promisify(generateKeyPair);
const PURPOSE = 'password-transport';

interface KeyPair {
  keyId: string;
  spki: string;
  privatePem: string;
}

/**
 * The RSA-OAEP (2048 bit, SHA-256) key pair the browser encrypts passwords with. Generated once
 * per instance and kept in the `server_keys` table, so restarts (and every server sharing the
 * database) use the same key.
 *
 * Account passwords carry a one-time nonce of `publicKey()` inside the ciphertext
 * (`decryptAccountPassword`); other secrets (data-connection passwords) do not (`decrypt`).
 */
export class TransportKeys {
  private pair: Promise<KeyPair> | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly nonces: PasswordNonces,
  ) {}

  /** The public key as SPKI base64 with its id, and a fresh one-time nonce. */
  async publicKey(): Promise<PublicKeyResponse> {
    const { keyId, spki } = await this.load();
    const { nonce, expiresAt } = await this.nonces.issue();
    return { keyId, spki, algorithm: 'RSA-OAEP-256', nonce, nonceExpiresAt: expiresAt.toISOString() };
  }

  /**
   * Decrypts a base64 ciphertext made with `encryptPassword` (a secret that is not an account
   * password). A plaintext in the account-password format is refused, so a captured sign-in
   * ciphertext cannot be decrypted (and stored or sent elsewhere) through such a call.
   * @throws AppError `paramInvalid` (field `field`) when it is not a ciphertext of this key.
   */
  async decrypt(cipherBase64: string, field = 'password'): Promise<string> {
    const plain = await this.decryptRaw(cipherBase64, field);
    if (plain.startsWith(ACCOUNT_PASSWORD_MARK)) throw this.invalid(field);
    return plain;
  }

  /**
   * Decrypts an account password made with `encryptAccountPassword` and uses its nonce up.
   * @throws AppError `paramInvalid` (field `field`) when it is not a ciphertext of this key;
   *   `passwordNonceInvalid` when it carries no nonce, or one that is unknown, expired or used.
   */
  async decryptAccountPassword(cipherBase64: string, field = 'password'): Promise<string> {
    const plain = await this.decryptRaw(cipherBase64, field);
    const m = /^\u0000([A-Za-z0-9_-]{16,64})\u0000([\s\S]*)$/.exec(plain);
    if (!m) throw new AppError('passwordNonceInvalid', undefined, 'The password carries no nonce');
    await this.nonces.consume(m[1]!);
    return m[2]!;
  }

  private async decryptRaw(cipherBase64: string, field: string): Promise<string> {
    const { privatePem } = await this.load();
    try {
      return privateDecrypt(
        { key: privatePem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(cipherBase64, 'base64'),
      ).toString('utf8');
    } catch {
      throw this.invalid(field);
    }
  }

  private invalid(field: string): AppError {
    return new AppError('paramInvalid', { [field]: 'validation.invalid' }, 'Password is not encrypted with the current key');
  }

  private load(): Promise<KeyPair> {
    this.pair ??= this.readOrCreate().catch((err: unknown) => {
      this.pair = null;
      throw err;
    });
    return this.pair;
  }

  private async read(): Promise<KeyPair | null> {
    const row = (await this.db.knex('server_keys').where('purpose', PURPOSE).first()) as
      | { id: string; public_key: string; private_key: string }
      | undefined;
    return row ? { keyId: row.id, spki: row.public_key, privatePem: row.private_key } : null;
  }

  private async readOrCreate(): Promise<KeyPair> {
    const existing = await this.read();
    if (existing) return existing;
    const { publicKey, privateKey } = await generate('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const spki = publicKey.toString('base64');
    const keyId = createHash('sha256').update(publicKey).digest('hex').slice(0, 32);
    try {
      await this.db.knex('server_keys').insert({
        id: keyId,
        purpose: PURPOSE,
        algorithm: 'RSA-OAEP-256',
        public_key: spki,
        private_key: privateKey,
        created_at: this.clock.now(),
      });
      return { keyId, spki, privatePem: privateKey };
    } catch (err) {
      // Another server of the same database won the race: use its key.
      const winner = await this.read();
      if (winner) return winner;
      throw err;
    }
  }
}
