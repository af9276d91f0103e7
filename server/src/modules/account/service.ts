import {
  AppError,
  passwordSchema,
  SYSTEM_ROLE,
  type CheckTokenResponse,
  type GetUserResponse,
  type SignInRequest,
  type SignInResponse,
  type SignUpRequest,
} from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { DEFAULT_TENANT_ID, newId } from '../../db/ids';
import { signUpTenant } from '../tenancy/sign-up';
import type { AuthUser } from '../../http/context';
import type { AccessService } from '../access/service';
import type { SessionService } from '../sessions/service';
import { TenantModel } from '../tenancy/models';
import { UserModel } from '../users/models';
import type { TransportKeys } from './keys';
import type { PasswordHasher } from './passwords';
import { presentCurrentUser } from './presenters';
import { accountKey, addressKey, unknownNameKey, type SignInThrottle, type ThrottleKey } from './throttle';
import type { CaptchaService } from '../codes/captcha';
import type { VerificationCodes } from '../codes/service';

/** Codes and captchas of sign-up and sign-in. */
export interface AccountGuards {
  codes: VerificationCodes;
  captcha: CaptchaService;
  /** Failed sign-ins of an account after which sign-in needs a captcha (0: never). */
  captchaAfter: number;
  /**
   * Failed sign-ins from one client address, over all login names, after which sign-in from it
   * needs a captcha whatever the name (0: never): a password sprayed over many accounts, one
   * try each, meets the captcha although no account reaches `captchaAfter`.
   */
  captchaAfterAddress: number;
}

/** Where a request came from, kept on the session. */
export interface ClientMeta {
  ip?: string;
  userAgent?: string;
}

/** `index/signUp` reply data. */
export interface SignUpResult {
  userId: string;
  username: string;
  /** True for the first account of an instance, which becomes its system administrator. */
  isSystemRole: boolean;
}

/** A successful sign-in: the reply plus what the route needs for the cookie and the log. */
export interface SignInResult {
  response: SignInResponse;
  user: { id: string; username: string; tenantId: string };
}

/** Sign-up, sign-in, sign-out and the current user. */
export class AccountService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly keys: TransportKeys,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly access: AccessService,
    private readonly throttle: SignInThrottle,
    private readonly guards: AccountGuards,
  ) {}

  /**
   * Creates an account in the tenant of its invitation code or e-mail domain rule, else the
   * default tenant (`signUpTenant`; `inviteInvalid` for an unknown code). The first account of the instance gets the system
   * role `admin`, later ones the role `user`. Everything is written in one transaction.
   * @throws AppError `paramInvalid` (password not decryptable or too weak),
   *   `passwordNonceInvalid` (nonce missing, expired or used), `usernameRegistered`,
   *   `emailRegistered`, `mobileRegistered`, `campusEmailUsed`.
   */
  async signUp(input: SignUpRequest): Promise<SignUpResult> {
    const plain = await this.keys.decryptAccountPassword(input.password);
    const rule = passwordSchema.safeParse(plain);
    if (!rule.success) throw new AppError('paramInvalid', { password: rule.error.issues[0]?.message ?? 'validation.invalid' });
    const passwordHash = await this.passwords.hash(plain);
    const email = input.email.trim().toLowerCase();
    const mobile = input.mobile?.trim() || null;
    const campusEmail = input.campusEmail?.trim().toLowerCase() || null;
    // The code is checked now (a wrong one writes nothing) and used up inside the transaction.
    await this.guards.codes.check(this.signUpCodeTarget(input), input.code);

    try {
      return await this.createAccount(input, { passwordHash, email, mobile, campusEmail });
    } catch (err) {
      // A concurrent sign-up took the name between the checks and the insert.
      if (isUniqueViolation(err)) {
        const message = String((err as Error).message);
        if (message.includes('email')) throw new AppError('emailRegistered');
        if (message.includes('mobile')) throw new AppError('mobileRegistered');
        throw new AppError('usernameRegistered');
      }
      throw err;
    }
  }

  private signUpCodeTarget(input: SignUpRequest) {
    const sms = input.codeChannel === 'sms';
    return { channel: sms ? ('sms' as const) : ('email' as const), recipient: sms ? input.mobile! : input.email, purpose: 'signUp' as const };
  }

  private createAccount(
    input: SignUpRequest,
    { passwordHash, email, mobile, campusEmail }: { passwordHash: string; email: string; mobile: string | null; campusEmail: string | null },
  ): Promise<SignUpResult> {
    return this.db.transaction(async (trx) => {
      // Serialise sign-ups on MySQL so only one account can be "the first" (SQLite writes are serial).
      if (this.db.kind === 'mysql') await trx('tenants').where('id', DEFAULT_TENANT_ID).forUpdate().first();
      if (await trx('users').whereRaw('lower(username) = ?', [input.username.toLowerCase()]).first('id')) {
        throw new AppError('usernameRegistered');
      }
      if (await trx('users').where('email', email).first('id')) throw new AppError('emailRegistered');
      if (mobile && (await trx('users').where('mobile', mobile).first('id'))) throw new AppError('mobileRegistered');
      // Only a campus e-mail proven by its code (a certification) is taken; one typed at sign-up is not.
      if (campusEmail && (await trx('users').where('campus_email', campusEmail).whereNotNull('student_until').first('id'))) throw new AppError('campusEmailUsed');

      const existing = (await trx('users').count({ n: '*' }).first()) as { n: number | string } | undefined;
      const first = Number(existing?.n ?? 0) === 0;
      const role = await this.access.systemRole(first ? SYSTEM_ROLE.admin : SYSTEM_ROLE.user);
      if (!role) throw new AppError('createAccountFailed', undefined, 'Seeded roles are missing');

      const now = this.clock.now();
      const id = newId();
      // The first account (the system admin) always lands in the default tenant.
      const tenantId = first ? DEFAULT_TENANT_ID : await signUpTenant(trx, input.invite, email);
      await trx('users').insert({
        id,
        tenant_id: tenantId,
        org_id: null,
        username: input.username,
        nickname: input.nickname ?? null,
        email,
        mobile,
        password_hash: passwordHash,
        industry: input.industry ?? null,
        occupation: input.occupation,
        organisation: input.organisation ?? null,
        // A student is made by the certification (campus e-mail code, user centre), not by the
        // occupation typed here (the student trial rules, STUDENT_TRIAL_RULES).
        is_student: false,
        university: input.university ?? null,
        major: input.major ?? null,
        campus_email: campusEmail,
        status: 'enabled',
        avatar: null,
        last_sign_in_at: null,
        created_at: now,
        updated_at: now,
      });
      await trx('user_roles').insert({ user_id: id, role_id: role.id });
      await this.guards.codes.consume(this.signUpCodeTarget(input), input.code);
      return { userId: id, username: input.username, isSystemRole: role.isSystem };
    });
  }

  /**
   * Signs in by username, e-mail or mobile number and issues a session token.
   *
   * Throttled (see `SignInThrottle`) by client address (all login names together) and by the
   * resolved account, so a username, its e-mail and its mobile share one count; a login name
   * that matches no account is counted (and locked) on its own, answering like an account.
   * A captcha is asked for once the account has `captchaAfter` failures, or the client address
   * `captchaAfterAddress` failures over all names (checked before anything is counted).
   * @throws AppError `tooManyRequests` (client address over its limit), `captchaRequired` /
   *   `captchaMismatch` / `captchaExpired` (a captcha is due and missing, wrong or expired),
   *   `userLocked` (account or unknown name locked), `paramInvalid` (password not decryptable), `passwordNonceInvalid`
   *   (nonce missing, expired or used), `wrongLoginNameOrPassword`, `userBanned`,
   *   `mustHaveRole`, `tenantNotExists`.
   */
  async signIn(input: SignInRequest, meta: ClientMeta): Promise<SignInResult> {
    const name = input.username.trim();
    const { accountMaxFailures, addressMaxFailures } = this.throttle.limits;
    const address = addressKey(meta.ip ?? 'unknown');
    if (await this.throttle.lockedUntil(address)) throw new AppError('tooManyRequests');
    const plain = await this.keys.decryptAccountPassword(input.password);
    const lower = name.toLowerCase();
    const user = await UserModel.query(this.db.executor())
      .where((q) => q.whereRaw('lower(username) = ?', [lower]).orWhere('email', lower).orWhere('mobile', name))
      .first();
    const account = user ? accountKey(user.id) : unknownNameKey(name);
    if (await this.throttle.lockedUntil(account)) throw new AppError('userLocked');
    // After repeated failures of the account (or unknown name), or of the client address over
    // all names, sign-in needs a captcha as well.
    if (await this.needsCaptcha(account, address)) await this.guards.captcha.check(input.captchaId, input.captchaCode);
    // Counted before the password is checked, so parallel attempts cannot pass the limits.
    if (!(await this.throttle.attempt(address, addressMaxFailures))) throw new AppError('tooManyRequests');
    if (!(await this.throttle.attempt(account, accountMaxFailures))) {
      // Refused without a password check: not a failure of this address.
      await this.throttle.giveBack(address);
      throw new AppError('userLocked');
    }
    const matches = await this.passwords.verify(user?.passwordHash ?? null, plain);
    if (!user || !matches) {
      await this.throttle.failed(account, accountMaxFailures);
      await this.throttle.failed(address, addressMaxFailures);
      throw new AppError('wrongLoginNameOrPassword');
    }
    await this.throttle.clear(account);
    await this.throttle.giveBack(address);
    if (user.status !== 'enabled') throw new AppError('userBanned');
    const roles = await this.access.rolesOf(user.id);
    if (roles.length === 0) throw new AppError('mustHaveRole');
    const tenant = await TenantModel.query(this.db.executor()).findById(user.tenantId);
    if (!tenant || tenant.status !== 'enabled') throw new AppError('tenantNotExists');
    const issued = await this.sessions.issue(user, meta);
    await this.db.executor()('users').where('id', user.id).update({ last_sign_in_at: this.clock.now() });
    return {
      response: { accessToken: issued.token, userId: user.id, expiresAt: issued.expiresAt.toISOString(), mustChangePassword: Boolean(user.mustChangePassword) },
      user: { id: user.id, username: user.username, tenantId: user.tenantId },
    };
  }

  /** Whether the account's or the address's failures in the throttle window call for a captcha. */
  private async needsCaptcha(account: ThrottleKey, address: ThrottleKey): Promise<boolean> {
    const { captchaAfter, captchaAfterAddress } = this.guards;
    if (captchaAfter > 0 && (await this.throttle.failures(account)) >= captchaAfter) return true;
    return captchaAfterAddress > 0 && (await this.throttle.failures(address)) >= captchaAfterAddress;
  }

  /** Revokes the caller's session token. */
  async signOut(user: AuthUser): Promise<void> {
    await this.sessions.revoke(user.sessionId);
  }

  /** The caller's token is valid (the auth step already checked it). */
  checkToken(user: AuthUser): CheckTokenResponse {
    return { valid: true, userId: user.id, expiresAt: user.expiresAt.toISOString() };
  }

  /** The caller with roles, permissions and the menu tree they may see. */
  async currentUser(user: AuthUser): Promise<GetUserResponse> {
    const row = await UserModel.query(this.db.executor()).findById(user.id);
    if (!row) throw new AppError('userNotFound');
    const roles = await this.access.rolesOf(user.id);
    const menus = await this.access.menuTreeFor(roles, user.permissions);
    return presentCurrentUser(row, roles, user.permissions, menus, await this.access.menuPaths());
  }
}
