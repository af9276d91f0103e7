/**
 * SDK versions for download: administrators (`licences:write`) add a version with its release
 * notes, then upload its package (kept in the blob store under `sdk/<id>/`); signed-in users list
 * the versions and download their packages.
 */
import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { AppError, SDK_PACKAGE_MAX_BYTES, type Page, type SdkEdition, type SdkVersionItem } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { isoDate } from '../../db/iso';
import type { BlobStore } from '../storage/blob-store';

interface VersionRow {
  id: string;
  version: string;
  edition: SdkEdition;
  notes: string;
  file_name: string | null;
  size: number | string | null;
  sha256: string | null;
  blob_key: string | null;
  created_at: unknown;
}

function present(r: VersionRow): SdkVersionItem {
  return {
    id: r.id,
    version: r.version,
    edition: r.edition,
    notes: r.notes,
    fileName: r.file_name,
    size: r.size === null ? null : Number(r.size),
    sha256: r.sha256,
    createdAt: isoDate(r.created_at),
  };
}

/** A package file name: letters, digits, dot, dash, underscore; at most 100 characters. */
const PACKAGE_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** Orders `1.10.0` after `1.9.3`. */
function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  const pb = b.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

export class SdkVersionsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly blobs: BlobStore,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  /** Every version, newest first within each edition (pro before trial); `withPackage` only downloadable ones. */
  async list(withPackage: boolean): Promise<Page<SdkVersionItem>> {
    const q = this.knex('sdk_versions');
    if (withPackage) q.whereNotNull('blob_key');
    const rows = ((await q.select('*')) as VersionRow[]).sort((a, b) => (a.edition === b.edition ? compareVersions(b.version, a.version) : a.edition === 'pro' ? -1 : 1));
    return { rows: rows.map(present), total: rows.length, page: 1, pageSize: rows.length };
  }

  /** @throws AppError `sdkVersionExists` when the edition already has this version. */
  async create(actorId: string, input: { version: string; edition: SdkEdition; notes: string }): Promise<SdkVersionItem> {
    if (await this.knex('sdk_versions').where({ edition: input.edition, version: input.version }).first('id')) throw new AppError('sdkVersionExists', { version: 'validation.invalid' });
    const id = newId();
    await this.knex('sdk_versions').insert({ id, version: input.version, edition: input.edition, notes: input.notes, file_name: null, size: null, sha256: null, blob_key: null, created_by: actorId, created_at: this.clock.now() });
    return present((await this.knex('sdk_versions').where({ id }).first())!);
  }

  private async row(id: string): Promise<VersionRow> {
    const r = (await this.knex('sdk_versions').where({ id }).first()) as VersionRow | undefined;
    if (!r) throw new AppError('sdkVersionNotFound');
    return r;
  }

  /**
   * Stores the package of a version from the request stream (replacing an earlier upload).
   * @throws AppError `sdkVersionNotFound`; `paramInvalid` for a bad file name or an empty body;
   *   `bodyTooLarge` past {@link SDK_PACKAGE_MAX_BYTES}.
   */
  async upload(id: string, fileName: string, body: Readable): Promise<SdkVersionItem> {
    if (!PACKAGE_NAME.test(fileName)) throw new AppError('paramInvalid', { name: 'validation.invalid' });
    const r = await this.row(id);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > SDK_PACKAGE_MAX_BYTES) return done(new AppError('bodyTooLarge'));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const key = `sdk/${r.id}/${newId()}`;
    body.pipe(meter);
    body.on('error', (err) => meter.destroy(err));
    await this.blobs.put(key, meter);
    if (size === 0) {
      await this.blobs.remove(key);
      throw new AppError('paramInvalid', { file: 'validation.required' });
    }
    const old = r.blob_key;
    await this.knex('sdk_versions').where({ id }).update({ file_name: fileName, size, sha256: hash.digest('hex'), blob_key: key });
    if (old) await this.blobs.remove(old).catch(() => undefined);
    return present(await this.row(id));
  }

  /** The package of a version to stream. @throws AppError `sdkVersionNotFound`, `sdkPackageMissing`. */
  async download(id: string): Promise<{ fileName: string; size: number; stream: NodeJS.ReadableStream }> {
    const r = await this.row(id);
    if (!r.blob_key || !r.file_name) throw new AppError('sdkPackageMissing');
    return { fileName: r.file_name, size: Number(r.size), stream: this.blobs.openRead(r.blob_key) };
  }

  /** Deletes a version and its package. @throws AppError `sdkVersionNotFound`. */
  async remove(id: string): Promise<{ id: string }> {
    const r = await this.row(id);
    await this.knex('sdk_versions').where({ id }).delete();
    if (r.blob_key) await this.blobs.remove(r.blob_key).catch(() => undefined);
    return { id };
  }
}
