import { constants, createHash, generateKeyPair, privateDecrypt } from 'node:crypto';
import { promisify } from 'node:util';
import { AppError, type PublicKeyResponse } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';

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
 */
export class TransportKeys {
  private pair: Promise<KeyPair> | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The public key as SPKI base64 with its id. */
  async publicKey(): Promise<PublicKeyResponse> {
    const { keyId, spki } = await this.load();
    return { keyId, spki, algorithm: 'RSA-OAEP-256' };
  }

  /**
   * Decrypts a base64 ciphertext made with `encryptPassword`.
   * @throws AppError `paramInvalid` (field `field`) when it is not a ciphertext of this key.
   */
  async decrypt(cipherBase64: string, field = 'password'): Promise<string> {
    const { privatePem } = await this.load();
    try {
      return privateDecrypt(
        { key: privatePem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(cipherBase64, 'base64'),
      ).toString('utf8');
    } catch {
      throw new AppError('paramInvalid', { [field]: 'validation.invalid' }, 'Password is not encrypted with the current key');
    }
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
