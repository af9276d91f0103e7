/**
 * The authorisation service of the user centre (`/user-center/service`): applications for the
 * platform's authorisation (common, enterprise, student) that an administrator reviews, and the
 * user key that online SDK licences are bound to. A user key is shown once, kept only as its
 * SHA-256, valid {@link USER_KEY_VALIDITY_DAYS} days, and cannot be replaced while valid.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  AppError,
  studentGrantEnd,
  USER_KEY_VALIDITY_DAYS,
  type CreateUserKeyResponse,
  type LicenceStatus,
  type ServiceManagementItem,
  type ServiceManagementListResponse,
  type ServiceType,
  type UserKeyInfo,
} from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { isoDate, isoDateOrNull } from '../../db/iso';
import type { Notifier } from '../messages/service';
import { validStudentUntil } from '../user-centre/student';

const DAY_MS = 86_400_000;
/** Validity of an approved authorisation, days (online authorisation: one year). */
export const SERVICE_VALIDITY_DAYS = 365;

interface ServiceRow {
  id: string;
  tenant_id: string;
  user_id: string;
  type: ServiceType;
  company: string;
  description: string;
  status: LicenceStatus;
  review_opinion: string | null;
  start_at: unknown;
  end_at: unknown;
  created_at: unknown;
  username: string;
}

/** Who acts. */
export interface ServiceActor {
  id: string;
  tenantId: string;
}

/** SHA-256 hex of a user key. */
export function userKeyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export class ServiceManagementService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly notifier: Notifier,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  private present(r: ServiceRow): ServiceManagementItem {
    const ended = r.end_at !== null && new Date(isoDate(r.end_at)).getTime() <= this.clock.now().getTime();
    return {
      id: r.id,
      type: r.type,
      company: r.company,
      description: r.description,
      status: r.status === 'success' && ended ? 'expired' : r.status,
      reviewOpinion: r.review_opinion,
      startAt: isoDateOrNull(r.start_at),
      endAt: isoDateOrNull(r.end_at),
      createdAt: isoDate(r.created_at),
      username: r.username,
    };
  }

  private rows() {
    return this.knex('service_managements').join('users', 'users.id', 'service_managements.user_id');
  }

  /**
   * Applies for the authorisation service.
   * @throws AppError `studentOnly` (student type without a student certificate),
   *   `studentCertificationExpired` (its certificate ended), `serviceManagementExists` (same
   *   type on review or valid).
   */
  async create(actor: ServiceActor, input: { type: ServiceType; company: string; description: string }): Promise<ServiceManagementItem> {
    if (input.type === 'student') await validStudentUntil(this.knex, actor.id, this.clock.now());
    const live = await this.knex('service_managements')
      .where({ user_id: actor.id, type: input.type })
      .where((w) => w.where('status', 'audit').orWhere((s) => s.where('status', 'success').where('end_at', '>', this.clock.now())))
      .first('id');
    if (live) throw new AppError('serviceManagementExists');
    const id = newId();
    const now = this.clock.now();
    await this.knex('service_managements').insert({
      id,
      tenant_id: actor.tenantId,
      user_id: actor.id,
      type: input.type,
      company: input.company,
      description: input.description,
      status: 'audit',
      review_opinion: null,
      reviewed_by: null,
      start_at: null,
      end_at: null,
      created_at: now,
      updated_at: now,
    });
    return this.present((await this.rows().where('service_managements.id', id).first('service_managements.*', 'users.username')) as ServiceRow);
  }

  /** The caller's applications (`mine`, with their user key) or the tenant's (`all`). */
  async list(actor: ServiceActor, input: { page: number; pageSize: number; scope: 'mine' | 'all' }): Promise<ServiceManagementListResponse> {
    const base = () => {
      const q = this.rows().where('service_managements.tenant_id', actor.tenantId);
      if (input.scope === 'mine') q.where('service_managements.user_id', actor.id);
      return q;
    };
    const [{ n }] = (await base().count({ n: '*' })) as [{ n: number | string }];
    const rows = (await base()
      .orderBy([{ column: 'service_managements.created_at', order: 'desc' }, { column: 'service_managements.id', order: 'desc' }])
      .offset((input.page - 1) * input.pageSize)
      .limit(input.pageSize)
      .select('service_managements.*', 'users.username')) as ServiceRow[];
    return { rows: rows.map((r) => this.present(r)), total: Number(n), page: input.page, pageSize: input.pageSize, userKey: await this.keyInfo(actor.id) };
  }

  /**
   * Approves (valid one year from now; a student authorisation never past the applicant's
   * student certification) or refuses an application of the tenant; the applicant gets a message.
   * @throws AppError `serviceManagementNotFound`, `licenceStateInvalid` (not on review),
   *   `studentOnly` / `studentCertificationExpired` (approving a student authorisation whose
   *   applicant is no longer a certified student).
   */
  async review(actor: ServiceActor, id: string, approve: boolean, opinion: string): Promise<ServiceManagementItem> {
    const r = (await this.rows().where('service_managements.id', id).first('service_managements.*', 'users.username')) as ServiceRow | undefined;
    if (!r || r.tenant_id !== actor.tenantId) throw new AppError('serviceManagementNotFound');
    if (r.status !== 'audit') throw new AppError('licenceStateInvalid');
    const now = this.clock.now();
    let end = new Date(now.getTime() + SERVICE_VALIDITY_DAYS * DAY_MS);
    if (approve && r.type === 'student') end = studentGrantEnd(now, SERVICE_VALIDITY_DAYS, await validStudentUntil(this.knex, r.user_id, now))!;
    const patch = approve ? { status: 'success', start_at: now, end_at: end } : { status: 'end' };
    const changed = await this.knex('service_managements')
      .where({ id, status: 'audit' })
      .update({ ...patch, review_opinion: opinion || null, reviewed_by: actor.id, updated_at: now });
    if (changed !== 1) throw new AppError('licenceStateInvalid');
    await this.notifier.notify(r.user_id, 'serviceReviewed', { serviceId: id, type: r.type, approved: approve, opinion: opinion || null }, { dedupeKey: `serviceReviewed:${id}` });
    return this.present((await this.rows().where('service_managements.id', id).first('service_managements.*', 'users.username')) as ServiceRow);
  }

  private async validKeyRow(userId: string) {
    return this.knex('user_keys').where({ user_id: userId }).whereNull('revoked_at').where('expires_at', '>', this.clock.now()).orderBy('created_at', 'desc').first();
  }

  /** The user's latest key (valid or expired), without the key. */
  async keyInfo(userId: string): Promise<UserKeyInfo | null> {
    const row = await this.knex('user_keys').where({ user_id: userId }).whereNull('revoked_at').orderBy('created_at', 'desc').first();
    if (!row) return null;
    const expiresAt = isoDate(row.expires_at);
    return { prefix: row.prefix, createdAt: isoDate(row.created_at), expiresAt, expired: new Date(expiresAt).getTime() <= this.clock.now().getTime() };
  }

  /** SHA-256 of the user's valid key, or `null` (for online licences). */
  async validKeySha256(userId: string): Promise<string | null> {
    const row = await this.validKeyRow(userId);
    return row ? (row.key_sha256 as string) : null;
  }

  /**
   * Creates the user key and answers it this once.
   * @throws AppError `userKeyNotExpired` while the current key is valid.
   */
  async createKey(userId: string): Promise<CreateUserKeyResponse> {
    if (await this.validKeyRow(userId)) throw new AppError('userKeyNotExpired');
    const key = `dk_${randomBytes(32).toString('base64url')}`;
    const now = this.clock.now();
    const expires = new Date(now.getTime() + USER_KEY_VALIDITY_DAYS * DAY_MS);
    const prefix = key.slice(0, 10);
    await this.knex('user_keys').insert({ id: newId(), user_id: userId, key_sha256: userKeyHash(key), prefix, created_at: now, expires_at: expires, revoked_at: null });
    return { key, prefix, createdAt: now.toISOString(), expiresAt: expires.toISOString(), expired: false };
  }
}
