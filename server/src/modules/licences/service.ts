/**
 * SDK licences: application online (bound to the caller's user key) or offline (bound to the
 * SHA-256 of a device file), review by an administrator (`licences:write`), issue as an
 * Ed25519-signed licence file, renewal, and the "expires in N days" / "expired" notices.
 *
 * States (spec platform §4): `audit` (on review) -> `success` (issued) -> `expired` (past its
 * end); `end` (finished) when refused or replaced by an approved renewal.
 *
 * Student licences follow `STUDENT_TRIAL_RULES`: a certified student's free trial, issued at once
 * (no review) for at most `STUDENT_TRIAL_DAYS` days and never past the certification's end.
 */
import { createHash } from 'node:crypto';
import {
  AppError,
  LICENCE_NOTICE_DAYS,
  LIMITS,
  STUDENT_TRIAL_DAYS,
  licenceDaysLeft,
  studentGrantEnd,
  licenceValidityDays,
  type LicenceContact,
  type LicencePayload,
  type LicenceStatus,
  type LicenceType,
  type Page,
  type SdkEdition,
  type SdkLicenceItem,
} from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { isoDate, isoDateOrNull } from '../../db/iso';
import type { Notifier } from '../messages/service';
import { validStudentUntil } from '../user-centre/student';
import type { ContactCodeVerifier } from './codes';
import type { LicenceSigner } from './signing';

/** Reads the caller's valid user key (the authorisation service owns the keys). */
export interface UserKeyLookup {
  /** SHA-256 (hex) of the user's unexpired key, or `null`. */
  validKeySha256(userId: string): Promise<string | null>;
}

/** Who acts. */
export interface LicenceActor {
  id: string;
  tenantId: string;
}

interface LicenceRow {
  id: string;
  tenant_id: string;
  user_id: string;
  type: LicenceType;
  edition: SdkEdition;
  status: LicenceStatus;
  device_file_name: string | null;
  device_sha256: string | null;
  user_key_sha256: string | null;
  contact_channel: 'email' | 'mobile';
  contact_target: string;
  review_opinion: string | null;
  start_at: unknown;
  end_at: unknown;
  licence_file: string | null;
  renewal_of: string | null;
  created_at: unknown;
  username: string;
}

const DAY_MS = 86_400_000;

export class LicencesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly signer: LicenceSigner,
    private readonly codes: ContactCodeVerifier,
    private readonly userKeys: UserKeyLookup,
    private readonly notifier: Notifier,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  /** A row as listed; a `success` licence past its end lists as `expired` before the sweep writes it. */
  private present(r: LicenceRow): SdkLicenceItem {
    const now = this.clock.now();
    const ended = r.end_at !== null && new Date(isoDate(r.end_at)).getTime() <= now.getTime();
    const status: LicenceStatus = r.status === 'success' && ended ? 'expired' : r.status;
    return {
      id: r.id,
      type: r.type,
      edition: r.edition,
      status,
      deviceFileName: r.device_file_name,
      deviceSha256: r.device_sha256,
      contactChannel: r.contact_channel,
      contactTarget: r.contact_target,
      reviewOpinion: r.review_opinion,
      startAt: isoDateOrNull(r.start_at),
      endAt: isoDateOrNull(r.end_at),
      daysLeft: status === 'success' || status === 'expired' ? (r.end_at === null ? null : licenceDaysLeft(isoDate(r.end_at), now)) : null,
      renewalOf: r.renewal_of,
      createdAt: isoDate(r.created_at),
      username: r.username,
      licenceFile: status === 'success' || status === 'expired' ? r.licence_file : null,
    };
  }

  private rows() {
    return this.knex('sdk_licences').join('users', 'users.id', 'sdk_licences.user_id');
  }

  private async row(id: string): Promise<LicenceRow | undefined> {
    return this.rows().where('sdk_licences.id', id).first('sdk_licences.*', 'users.username');
  }

  /**
   * Applies for a licence. A student licence (trial edition; the schema checks it) is issued at
   * once, bound to the device file when one is given, else to the user key.
   * @throws AppError `studentOnly` / `studentCertificationExpired` (student licence without a
   *   valid student certification), `licenceDeviceFileInvalid` (empty or over 1 MB device file),
   *   the code verifier's codes, `userKeyMissing` (online, or student without a device file,
   *   without a valid user key), `sdkLicenceExists` (the same device or key already has a
   *   licence on review or valid of this edition; a student one student licence at a time).
   */
  async apply(
    actor: LicenceActor,
    input: { type: LicenceType; edition: SdkEdition; contact: LicenceContact; deviceFile?: { name: string; content: string } },
  ): Promise<SdkLicenceItem> {
    const studentUntil = input.type === 'student' ? await validStudentUntil(this.knex, actor.id, this.clock.now()) : null;
    let device: { name: string; sha256: string; size: number } | null = null;
    if (input.deviceFile) {
      const bytes = Buffer.from(input.deviceFile!.content, 'base64');
      if (bytes.length === 0 || bytes.length > LIMITS.deviceFileMaxBytes) throw new AppError('licenceDeviceFileInvalid', { deviceFile: 'validation.invalid' });
      device = { name: input.deviceFile!.name, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
    }
    const byKey = input.type === 'online' || (input.type === 'student' && !device);
    const keySha = byKey ? await this.userKeys.validKeySha256(actor.id) : null;
    if (byKey && !keySha) throw new AppError('userKeyMissing');
    await this.assertNoLive(actor.id, input.type, input.edition, device?.sha256 ?? null);
    await this.codes.verify(input.contact.channel, input.contact.target, input.contact.code, actor.id);
    const id = await this.insert(actor, {
      type: input.type,
      edition: input.edition,
      device,
      keySha,
      contact: input.contact,
      renewalOf: null,
    });
    if (studentUntil) await this.issueStudentTrial(id, this.clock.now(), studentUntil);
    return this.present((await this.row(id))!);
  }

  /**
   * Issues a student licence at once (the certificate is the review): from `start` for
   * {@link STUDENT_TRIAL_DAYS} days, cut at the certification's end.
   * @throws AppError `studentCertificationExpired` when the certification ends before `start`.
   */
  private async issueStudentTrial(id: string, start: Date, studentUntil: Date): Promise<void> {
    const end = studentGrantEnd(start, STUDENT_TRIAL_DAYS, studentUntil);
    if (!end) throw new AppError('studentCertificationExpired');
    const r = (await this.row(id))!;
    const changed = await this.knex('sdk_licences')
      .where({ id, status: 'audit' })
      .update({ ...(await this.issued(r, start, end)), review_opinion: null, reviewed_by: null, updated_at: this.clock.now() });
    if (changed !== 1) throw new AppError('licenceStateInvalid');
    if (r.renewal_of) await this.knex('sdk_licences').where({ id: r.renewal_of }).whereIn('status', ['success', 'expired']).update({ status: 'end', updated_at: this.clock.now() });
  }

  /** The columns of an issued licence: state, dates and the signed licence file. */
  private async issued(r: LicenceRow, start: Date, end: Date): Promise<Record<string, unknown>> {
    const payload: LicencePayload = {
      licenceId: r.id,
      type: r.type,
      edition: r.edition,
      userId: r.user_id,
      username: r.username,
      issuedAt: this.clock.now().toISOString(),
      notBefore: start.toISOString(),
      notAfter: end.toISOString(),
      ...(r.device_sha256 ? { deviceSha256: r.device_sha256 } : {}),
      ...(r.user_key_sha256 ? { userKeySha256: r.user_key_sha256 } : {}),
    };
    const file = await this.signer.sign(payload);
    return { status: 'success', start_at: start, end_at: end, licence_file: JSON.stringify(file, null, 2) };
  }

  private async assertNoLive(userId: string, type: LicenceType, edition: SdkEdition, deviceSha: string | null) {
    const q = this.knex('sdk_licences').where({ user_id: userId, type, edition }).where((w) => {
      w.where('status', 'audit').orWhere((s) => s.where('status', 'success').where('end_at', '>', this.clock.now()));
    });
    if (type === 'offline') q.where('device_sha256', deviceSha);
    if (await q.first('id')) throw new AppError('sdkLicenceExists');
  }

  private async insert(
    actor: LicenceActor,
    v: { type: LicenceType; edition: SdkEdition; device: { name: string; sha256: string; size: number | null } | null; keySha: string | null; contact: { channel: 'email' | 'mobile'; target: string }; renewalOf: string | null },
  ): Promise<string> {
    const id = newId();
    const now = this.clock.now();
    await this.knex('sdk_licences').insert({
      id,
      tenant_id: actor.tenantId,
      user_id: actor.id,
      type: v.type,
      edition: v.edition,
      status: 'audit',
      device_file_name: v.device?.name ?? null,
      device_sha256: v.device?.sha256 ?? null,
      device_size: v.device?.size ?? null,
      user_key_sha256: v.keySha,
      contact_channel: v.contact.channel,
      contact_target: v.contact.target,
      review_opinion: null,
      reviewed_by: null,
      start_at: null,
      end_at: null,
      licence_file: null,
      renewal_of: v.renewalOf,
      expiring_notice_at: null,
      expired_notice_at: null,
      created_at: now,
      updated_at: now,
    });
    return id;
  }

  /** The caller's licences (`mine`) or the tenant's (`all`, administrators), newest first. */
  async list(actor: LicenceActor, input: { page: number; pageSize: number; status?: LicenceStatus; scope: 'mine' | 'all' }): Promise<Page<SdkLicenceItem>> {
    const now = this.clock.now();
    const base = () => {
      const q = this.rows().where('sdk_licences.tenant_id', actor.tenantId);
      if (input.scope === 'mine') q.where('sdk_licences.user_id', actor.id);
      if (input.status === 'expired') q.where((w) => w.where('sdk_licences.status', 'expired').orWhere((s) => s.where('sdk_licences.status', 'success').where('sdk_licences.end_at', '<=', now)));
      else if (input.status === 'success') q.where('sdk_licences.status', 'success').where('sdk_licences.end_at', '>', now);
      else if (input.status) q.where('sdk_licences.status', input.status);
      return q;
    };
    const [{ n }] = (await base().count({ n: '*' })) as [{ n: number | string }];
    const rows = (await base()
      .orderBy([{ column: 'sdk_licences.created_at', order: 'desc' }, { column: 'sdk_licences.id', order: 'desc' }])
      .offset((input.page - 1) * input.pageSize)
      .limit(input.pageSize)
      .select('sdk_licences.*', 'users.username')) as LicenceRow[];
    return { rows: rows.map((r) => this.present(r)), total: Number(n), page: input.page, pageSize: input.pageSize };
  }

  private async find(actor: LicenceActor, id: string, reach: 'own' | 'tenant'): Promise<LicenceRow> {
    const r = await this.row(id);
    if (!r || r.tenant_id !== actor.tenantId || (reach === 'own' && r.user_id !== actor.id)) throw new AppError('licenceNotFound');
    return r;
  }

  /**
   * Reviews an application: approval issues the signed licence file (valid from now for the
   * type's days; a renewal starts where the licence it renews ends, when that is later) and
   * ends the renewed licence; refusal ends the application. The applicant gets a message.
   * @throws AppError `licenceNotFound`, `licenceStateInvalid` (not on review).
   */
  async review(actor: LicenceActor, id: string, approve: boolean, opinion: string): Promise<SdkLicenceItem> {
    const r = await this.find(actor, id, 'tenant');
    if (r.status !== 'audit') throw new AppError('licenceStateInvalid');
    const now = this.clock.now();
    const patch: Record<string, unknown> = { review_opinion: opinion || null, reviewed_by: actor.id, updated_at: now };
    if (approve) {
      let start = now;
      if (r.renewal_of) {
        const old = await this.knex('sdk_licences').where({ id: r.renewal_of }).first('end_at');
        if (old?.end_at && new Date(isoDate(old.end_at)).getTime() > now.getTime()) start = new Date(isoDate(old.end_at));
      }
      const end = new Date(start.getTime() + licenceValidityDays(r.type, r.edition) * DAY_MS);
      Object.assign(patch, await this.issued(r, start, end));
      if (r.renewal_of) await this.knex('sdk_licences').where({ id: r.renewal_of }).whereIn('status', ['success', 'expired']).update({ status: 'end', updated_at: now });
    } else {
      patch.status = 'end';
    }
    const changed = await this.knex('sdk_licences').where({ id, status: 'audit' }).update(patch);
    if (changed !== 1) throw new AppError('licenceStateInvalid');
    await this.notifier.notify(r.user_id, 'licenceReviewed', { licenceId: id, approved: approve, type: r.type, edition: r.edition, opinion: opinion || null }, { dedupeKey: `licenceReviewed:${id}` });
    return this.present((await this.row(id))!);
  }

  /**
   * Applies to renew one of the caller's licences: in its last {@link LICENCE_NOTICE_DAYS} days
   * or after it expired; the new application keeps its device or key and contact. A student
   * licence is renewed at once while the certification is valid (from the old end when that is
   * later, cut at the certification's end).
   * @throws AppError `licenceNotFound`, `licenceStateInvalid` (never issued, finished, or already
   *   being renewed), `licenceRenewalTooEarly`, `userKeyMissing` (bound to the key, no valid key
   *   now), `studentOnly` / `studentCertificationExpired` (student licence).
   */
  async renew(actor: LicenceActor, id: string): Promise<SdkLicenceItem> {
    const r = await this.find(actor, id, 'own');
    if ((r.status !== 'success' && r.status !== 'expired') || r.end_at === null) throw new AppError('licenceStateInvalid');
    const now = this.clock.now();
    const left = licenceDaysLeft(isoDate(r.end_at), now);
    if (left > LICENCE_NOTICE_DAYS) throw new AppError('licenceRenewalTooEarly');
    if (await this.knex('sdk_licences').where({ renewal_of: id, status: 'audit' }).first('id')) throw new AppError('licenceStateInvalid');
    const studentUntil = r.type === 'student' ? await validStudentUntil(this.knex, actor.id, now) : null;
    const byKey = r.user_key_sha256 !== null;
    const keySha = byKey ? await this.userKeys.validKeySha256(actor.id) : null;
    if (byKey && !keySha) throw new AppError('userKeyMissing');
    const newId = await this.insert(actor, {
      type: r.type,
      edition: r.edition,
      device: r.device_sha256 ? { name: r.device_file_name ?? 'device', sha256: r.device_sha256, size: null } : null,
      keySha,
      contact: { channel: r.contact_channel, target: r.contact_target },
      renewalOf: id,
    });
    if (studentUntil) {
      const oldEnd = new Date(isoDate(r.end_at));
      await this.issueStudentTrial(newId, oldEnd.getTime() > now.getTime() ? oldEnd : now, studentUntil);
    }
    return this.present((await this.row(newId))!);
  }

  /**
   * The caller's issued licence file.
   * @throws AppError `licenceNotFound`, `licenceStateInvalid` (not issued), `licenceExpired`.
   */
  async licenceFile(actor: LicenceActor, id: string): Promise<{ fileName: string; content: string }> {
    const item = this.present(await this.find(actor, id, 'own'));
    if (item.status === 'expired') throw new AppError('licenceExpired');
    if (item.status !== 'success' || !item.licenceFile) throw new AppError('licenceStateInvalid');
    return { fileName: `decisio-licence-${item.id}.json`, content: item.licenceFile };
  }

  /**
   * Marks issued licences past their end `expired` and writes each holder one "expires in N
   * days" message (last {@link LICENCE_NOTICE_DAYS} days) and one "expired" message. Runs at
   * start and hourly; safe to run on every server at once (per-licence dedupe keys).
   * @returns how many notices were written.
   */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    let sent = 0;
    const expiring = (await this.knex('sdk_licences')
      .where('status', 'success')
      .whereNull('expiring_notice_at')
      .where('end_at', '>', now)
      .where('end_at', '<=', new Date(now.getTime() + LICENCE_NOTICE_DAYS * DAY_MS))
      .select('id', 'user_id', 'type', 'edition', 'end_at')) as { id: string; user_id: string; type: string; edition: string; end_at: unknown }[];
    for (const r of expiring) {
      const days = licenceDaysLeft(isoDate(r.end_at), now);
      if (await this.notifier.notify(r.user_id, 'licenceExpiring', { licenceId: r.id, type: r.type, edition: r.edition, days, endAt: isoDate(r.end_at) }, { dedupeKey: `licenceExpiring:${r.id}` })) sent += 1;
      await this.knex('sdk_licences').where({ id: r.id }).update({ expiring_notice_at: now });
    }
    const expired = (await this.knex('sdk_licences')
      .whereIn('status', ['success', 'expired'])
      .whereNull('expired_notice_at')
      .where('end_at', '<=', now)
      .select('id', 'user_id', 'type', 'edition', 'end_at')) as { id: string; user_id: string; type: string; edition: string; end_at: unknown }[];
    for (const r of expired) {
      if (await this.notifier.notify(r.user_id, 'licenceExpired', { licenceId: r.id, type: r.type, edition: r.edition, endAt: isoDate(r.end_at) }, { dedupeKey: `licenceExpired:${r.id}` })) sent += 1;
      await this.knex('sdk_licences').where({ id: r.id }).update({ status: 'expired', expired_notice_at: now, updated_at: now });
    }
    return sent;
  }
}
