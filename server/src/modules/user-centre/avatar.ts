import { AVATAR_MAX_BYTES, AppError } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { BlobOwner, BlobStore } from '../storage/blob-store';
import { chargeStorage, releaseStorage } from '../storage/quota';
import { downloadUrlOf } from '../storage/routes';

/** The file name avatars have in the user's storage. */
export const AVATAR_PATH = '.avatar';

const MAGIC: Record<string, (b: Buffer) => boolean> = {
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  webp: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/**
 * Avatars kept in the user's own storage (a file `.avatar/avatar.<ext>` charged to the quota,
 * listed with their files), served by `GET /api/file/download/<id>`. A new picture replaces the
 * old file.
 */
export class AvatarStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * Stores a data-URL picture (or removes the avatar with `null`); returns the avatar URL.
   * @throws AppError `paramInvalid` when the bytes are not the picture type named, or too big;
   *   `storageInsufficient`.
   */
  async replace(owner: BlobOwner, dataUrl: string | null): Promise<string | null> {
    let bytes: Buffer | null = null;
    let ext = '';
    if (dataUrl !== null) {
      const m = /^data:image\/(png|jpeg|webp);base64,(.*)$/.exec(dataUrl)!;
      ext = m[1]!;
      bytes = Buffer.from(m[2]!, 'base64');
      if (bytes.length === 0 || bytes.length > AVATAR_MAX_BYTES || !MAGIC[ext]!(bytes)) throw new AppError('paramInvalid', { avatar: 'validation.avatar' });
    }
    const key = bytes ? `u/${owner.userId}/avatar/${newId()}.${ext}` : null;
    if (key && bytes) await this.blobs.put(key, bytes);
    const old: string[] = [];
    let url: string | null = null;
    try {
      await this.db.transaction(async (trx) => {
        const now = this.clock.now();
        const previous = (await trx('storage_files').where({ user_id: owner.userId, path: AVATAR_PATH }).whereNull('deleted_at').select('id', 'blob_key', 'size')) as {
          id: string;
          blob_key: string;
          size: number | string;
        }[];
        for (const p of previous) {
          await trx('storage_files').where('id', p.id).delete();
          await releaseStorage(trx, owner, Number(p.size));
          old.push(p.blob_key);
        }
        if (!key || !bytes) return;
        await chargeStorage(trx, owner, bytes.length);
        const id = newId();
        await trx('storage_files').insert({
          id,
          tenant_id: owner.tenantId,
          user_id: owner.userId,
          kind: 'upload',
          name: `avatar.${ext}`,
          path: AVATAR_PATH,
          blob_key: key,
          size: bytes.length,
          content_type: `image/${ext}`,
          upload_id: null,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        });
        url = downloadUrlOf(id);
      });
    } catch (err) {
      if (key) await this.blobs.remove(key);
      throw err;
    }
    for (const k of old) await this.blobs.remove(k);
    return url;
  }
}
