/**
 * The Ed25519 key pair licences are signed with (node:crypto). Generated once per instance and
 * kept in `server_keys` (purpose `licence-signing`), so every server of one database signs with
 * the same key and the verifier's trusted public key stays valid across restarts.
 */
import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import type { LicenceFile, LicencePayload, LicencePublicKey } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';

const PURPOSE = 'licence-signing';

interface Pair {
  keyId: string;
  publicKeyPem: string;
  privateKeyPem: string;
}

export class LicenceSigner {
  private pair: Promise<Pair> | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The public key the offline verifier trusts. */
  async publicKey(): Promise<LicencePublicKey> {
    const { keyId, publicKeyPem } = await this.load();
    return { keyId, algorithm: 'Ed25519', publicKeyPem };
  }

  /** Signs a payload: the licence file (see `LicenceFile`). */
  async sign(payload: LicencePayload): Promise<LicenceFile> {
    const { keyId, privateKeyPem } = await this.load();
    const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
    const signature = sign(null, bytes, createPrivateKey(privateKeyPem));
    return { format: 'decisio-licence/1', keyId, payload: bytes.toString('base64url'), signature: signature.toString('base64url') };
  }

  private load(): Promise<Pair> {
    this.pair ??= this.readOrCreate().catch((err: unknown) => {
      this.pair = null;
      throw err;
    });
    return this.pair;
  }

  private async read(): Promise<Pair | null> {
    const row = (await this.db.knex('server_keys').where('purpose', PURPOSE).first()) as { id: string; public_key: string; private_key: string } | undefined;
    return row ? { keyId: row.id, publicKeyPem: row.public_key, privateKeyPem: row.private_key } : null;
  }

  private async readOrCreate(): Promise<Pair> {
    const existing = await this.read();
    if (existing) return existing;
    const { publicKey, privateKey } = generateKeyPairSync('ed25519', {
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const keyId = createHash('sha256').update(publicKey).digest('hex').slice(0, 32);
    try {
      await this.db.knex('server_keys').insert({ id: keyId, purpose: PURPOSE, algorithm: 'Ed25519', public_key: publicKey, private_key: privateKey, created_at: this.clock.now() });
      return { keyId, publicKeyPem: publicKey, privateKeyPem: privateKey };
    } catch (err) {
      const winner = await this.read();
      if (winner) return winner;
      throw err;
    }
  }
}
