import {
  AppError,
  DEFAULT_USER_SETTINGS,
  STUDENT_VALID_DAYS,
  userSettingsSchema,
  type DeleteImpact,
  type EditUserInfoRequest,
  type SignInRecord,
  type UpdateUserCenterRequest,
  type UserInfo,
  type UserSettings,
} from '@decisio/domain';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { AuthUser } from '../../http/context';
import { finalStates } from '../../jobs/states';
import { deleteRefusal } from '../projects/access';
import type { ProjectsService } from '../projects/service';
import type { BlobStore } from '../storage/blob-store';
import { releaseStorage } from '../storage/quota';
import type { VerificationCodes } from '../codes/service';
import { toDate } from '../storage/service';
import type { AvatarStore } from './avatar';

/** Service states that count as serving. */
const ONLINE_SERVICES = ['running', 'starting', 'deploying'];

interface UserRow {
  id: string;
  username: string;
  nickname: string | null;
  avatar: string | null;
  email: string | null;
  mobile: string | null;
  industry: string | null;
  occupation: UserInfo['occupation'];
  organisation: string | null;
  university: string | null;
  major: string | null;
  campus_email: string | null;
  student_until: unknown;
  settings: string | null;
  created_at: unknown;
  last_sign_in_at: unknown;
}

function settingsOf(text: string | null): UserSettings {
  if (!text) return DEFAULT_USER_SETTINGS;
  const parsed = userSettingsSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : DEFAULT_USER_SETTINGS;
}

/**
 * The user centre: the caller's profile, contact changes proven by a code to the new address,
 * student certification by a campus e-mail code, sign-in records, settings and account deletion.
 * Every call acts on the caller's own account.
 */
export class UserCentreService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly codes: VerificationCodes,
    private readonly avatars: AvatarStore,
    private readonly projects: ProjectsService,
    private readonly blobs: BlobStore,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  /** The caller's profile. */
  async info(userId: string): Promise<UserInfo> {
    const row = (await this.knex('users').where('id', userId).first()) as UserRow | undefined;
    if (!row) throw new AppError('userNotFound');
    const until = toDate(row.student_until);
    return {
      userId: row.id,
      username: row.username,
      nickname: row.nickname,
      avatarUrl: row.avatar,
      email: row.email,
      mobile: row.mobile,
      industry: row.industry,
      occupation: row.occupation,
      organisation: row.organisation,
      university: row.university,
      major: row.major,
      campusEmail: row.campus_email,
      isStudent: until !== null && until.getTime() > this.clock.now().getTime(),
      studentUntil: until?.toISOString() ?? null,
      settings: settingsOf(row.settings),
      createdAt: toDate(row.created_at)!.toISOString(),
      lastSignInAt: toDate(row.last_sign_in_at)?.toISOString() ?? null,
    };
  }

  /** Changes the fields given (`user/editUserInfo`); the avatar goes to the caller's storage. */
  async edit(user: AuthUser, input: EditUserInfoRequest): Promise<UserInfo> {
    const update: Record<string, unknown> = {};
    if (input.nickname !== undefined) update.nickname = input.nickname;
    if (input.industry !== undefined) update.industry = input.industry || null;
    if (input.occupation !== undefined) update.occupation = input.occupation;
    if (input.organisation !== undefined) update.organisation = input.organisation || null;
    if (input.settings !== undefined) update.settings = JSON.stringify(input.settings);
    if (input.avatar !== undefined) update.avatar = await this.avatars.replace({ tenantId: user.tenantId, userId: user.id }, input.avatar);
    if (Object.keys(update).length > 0) await this.knex('users').where('id', user.id).update({ ...update, updated_at: this.clock.now() });
    return this.info(user.id);
  }

  /**
   * `users/updateUserCenter`: a new e-mail or mobile number, or a student certification valid
   * `STUDENT_VALID_DAYS` days, each with the code sent to that address for this account.
   * @throws AppError `verifyCodeMismatch`, `verifyCodeExpired`, `codeUsed`, `emailRegistered`,
   *   `mobileRegistered`, `campusEmailUsed`.
   */
  async update(user: AuthUser, input: UpdateUserCenterRequest): Promise<UserInfo> {
    const now = this.clock.now();
    await this.db.transaction(async () => {
      if (input.kind === 'email') {
        const email = input.email.trim().toLowerCase();
        if (await this.knex('users').where('email', email).whereNot('id', user.id).first('id')) throw new AppError('emailRegistered');
        await this.codes.consume({ channel: 'email', recipient: email, purpose: 'changeContact', userId: user.id }, input.code);
        await this.knex('users').where('id', user.id).update({ email, updated_at: now });
      } else if (input.kind === 'mobile') {
        const mobile = input.mobile.trim();
        if (await this.knex('users').where('mobile', mobile).whereNot('id', user.id).first('id')) throw new AppError('mobileRegistered');
        await this.codes.consume({ channel: 'sms', recipient: mobile, purpose: 'changeContact', userId: user.id }, input.code);
        await this.knex('users').where('id', user.id).update({ mobile, updated_at: now });
      } else {
        const campusEmail = input.campusEmail.trim().toLowerCase();
        // Taken only by another account that proved it (a campus e-mail typed at sign-up is unproven).
        if (await this.knex('users').where('campus_email', campusEmail).whereNotNull('student_until').whereNot('id', user.id).first('id')) throw new AppError('campusEmailUsed');
        await this.codes.consume({ channel: 'email', recipient: campusEmail, purpose: 'student', userId: user.id }, input.code);
        await this.knex('users')
          .where('id', user.id)
          .update({
            campus_email: campusEmail,
            university: input.university,
            major: input.major,
            is_student: true,
            student_until: new Date(now.getTime() + STUDENT_VALID_DAYS * 86_400_000),
            updated_at: now,
          });
      }
    });
    return this.info(user.id);
  }

  /** The caller's latest sign-ins (sessions opened), newest first. */
  async signInRecords(user: AuthUser, limit: number): Promise<SignInRecord[]> {
    const rows = (await this.knex('sessions')
      .where('user_id', user.id)
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(limit)
      .select('id', 'ip', 'user_agent', 'created_at', 'expires_at', 'revoked_at')) as {
      id: string;
      ip: string | null;
      user_agent: string | null;
      created_at: unknown;
      expires_at: unknown;
      revoked_at: unknown;
    }[];
    const now = this.clock.now().getTime();
    return rows.map((r) => ({
      id: r.id,
      time: toDate(r.created_at)!.toISOString(),
      address: r.ip,
      agent: r.user_agent,
      current: r.id === user.sessionId,
      active: !r.revoked_at && toDate(r.expires_at)!.getTime() > now,
    }));
  }

  private async ownedProjects(userId: string): Promise<string[]> {
    const rows = (await this.knex('projects').where('owner_id', userId).whereNull('deleted_at').select('id')) as { id: string }[];
    return rows.map((r) => r.id);
  }

  private async count(q: Knex.QueryBuilder): Promise<number> {
    const row = (await q.count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  }

  /** What deleting the caller's account would do, and what stands in its way. */
  async deleteImpact(userId: string): Promise<DeleteImpact> {
    const projectIds = await this.ownedProjects(userId);
    const knex = this.knex;
    return {
      projects: projectIds.length,
      files: await this.count(knex('storage_files').where('user_id', userId).whereNull('deleted_at')),
      connections: await this.count(knex('data_connections').where('owner_id', userId)),
      runningTrainings: await this.count(knex('jobs').where('user_id', userId).whereNotIn('state', finalStates)),
      runningServices: await this.count(
        knex('model_services')
          .whereNull('deleted_at')
          .whereIn('status', ONLINE_SERVICES)
          .where((q) => (projectIds.length ? q.where('created_by', userId).orWhereIn('project_id', projectIds) : q.where('created_by', userId))),
      ),
    };
  }

  /**
   * Deletes the caller's account (`user/deleteUser`) after the username was typed again: refused
   * while a training of theirs runs or a service of theirs serves (`accountBusy`); their projects
   * go as a project delete does (solutions, trainings, policies, stopped services, files); their
   * data connections, storage files and datasets (rows and data) are deleted; the account keeps no personal data, no role
   * and no session, and its name and addresses are free again.
   * @throws AppError `paramInvalid` (confirmation), `accountBusy`.
   */
  async deleteAccount(user: AuthUser, confirm: string): Promise<{ userId: string; deletedProjects: number }> {
    if (confirm !== user.username) throw new AppError('paramInvalid', { confirm: 'validation.confirmDelete' });
    const impact = await this.deleteImpact(user.id);
    if (impact.runningTrainings > 0 || impact.runningServices > 0) throw new AppError('accountBusy');
    const projectIds = await this.ownedProjects(user.id);
    for (const projectId of projectIds) {
      if (await deleteRefusal(this.knex, { projectId })) throw new AppError('accountBusy');
    }
    for (const projectId of projectIds) await this.projects.remove(user, projectId);
    const now = this.clock.now();
    await this.db.transaction(async () => {
      const knex = this.knex;
      await knex('data_connections').where('owner_id', user.id).delete();
      const files = (await knex('storage_files').where('user_id', user.id).whereNull('deleted_at').sum({ bytes: 'size' }).first()) as { bytes: number | string | null } | undefined;
      await knex('storage_files').where('user_id', user.id).whereNull('deleted_at').update({ deleted_at: now, updated_at: now });
      await releaseStorage(knex, { tenantId: user.tenantId, userId: user.id }, Number(files?.bytes ?? 0));
      // Their datasets go too (their Parquet copies are under the prefix removed below): a row
      // left behind would point at a removed file.
      const datasets = (await knex('datasets').where('user_id', user.id).sum({ bytes: 'columnar_size' }).first()) as { bytes: number | string | null } | undefined;
      await knex('datasets').where('user_id', user.id).delete();
      await releaseStorage(knex, { tenantId: user.tenantId, userId: user.id }, Number(datasets?.bytes ?? 0));
      await knex('user_roles').where('user_id', user.id).delete();
      await knex('sessions').where('user_id', user.id).delete();
      await knex('users')
        .where('id', user.id)
        .update({
          username: `deleted_${user.id}`,
          nickname: null,
          email: null,
          mobile: null,
          campus_email: null,
          university: null,
          major: null,
          organisation: null,
          industry: null,
          avatar: null,
          settings: null,
          student_until: null,
          password_hash: `!deleted!${randomBytes(16).toString('hex')}`,
          status: 'disabled',
          updated_at: now,
        });
    });
    // Every file of the user lives under `u/<id>/` (uploads, datasets, modelling artefacts, avatar).
    await this.blobs.removePrefix(`u/${user.id}/`);
    return { userId: user.id, deletedProjects: projectIds.length };
  }
}
