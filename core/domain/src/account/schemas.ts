import { z } from 'zod';
import { LIMITS } from '../common/limits';

/**
 * Account calls of the foundation (spec platform §5, §7). Validation messages are translation
 * keys (`validation.*`), translated by the client and by the server's error envelope.
 */

/** Username: 5-20 characters, letters, digits and underscore only (no special characters). */
export const usernameSchema = z
  .string()
  .min(LIMITS.usernameMin, 'validation.usernameLength')
  .max(LIMITS.usernameMax, 'validation.usernameLength')
  .regex(/^[A-Za-z0-9_\u4e00-\u9fa5]+$/, 'validation.usernameChars');

/** Plain password rule, checked in the browser before encryption and on the server after it. */
export const passwordSchema = z
  .string()
  .min(LIMITS.passwordMin, 'validation.passwordLength')
  .max(LIMITS.passwordMax, 'validation.passwordLength')
  .regex(/[0-9]/, 'validation.passwordDigit')
  .regex(/[a-z]/, 'validation.passwordLower')
  .regex(/[A-Z]/, 'validation.passwordUpper');

/** China mobile: 11 digits starting 13-19; foreign: digits with dashes, with a dialling code. */
export const mobileSchema = z
  .string()
  .regex(/^(1[3-9]\d{9}|\+?\d{1,4}-[\d-]{4,20})$/, 'validation.mobile');

export const emailSchema = z.string().max(100).email('validation.email');
export const campusEmailSchema = emailSchema.regex(/\.edu\.cn$/i, 'validation.campusEmail');
export const nicknameSchema = z
  .string()
  .min(1)
  .max(30)
  .regex(/^[A-Za-z0-9\u4e00-\u9fa5._-]+$/, 'validation.nickname');

export const OCCUPATIONS = [
  'algorithmEngineer',
  'student',
  'teacher',
  'itStaff',
  'publicServant',
  'maintenance',
  'other',
] as const;
export type Occupation = (typeof OCCUPATIONS)[number];

/** An RSA-OAEP(SHA-256) ciphertext of a password, base64. */
export const encryptedSchema = z.string().min(16).max(2048);

/** Step 1 of sign-up: basic info. */
export const signUpBasicSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  mobile: mobileSchema.optional(),
});
/** Step 2 of sign-up: personal info. */
export const signUpPersonalSchema = z.object({
  nickname: nicknameSchema.optional(),
  industry: z.string().max(50).optional(),
  occupation: z.enum(OCCUPATIONS),
  organisation: z.string().max(100).optional(),
  university: z.string().max(100).optional(),
  major: z.string().max(100).optional(),
  campusEmail: campusEmailSchema.optional(),
});
/** Step 3 in the browser: password twice and the agreement. */
export const signUpPasswordFormSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: z.string(),
    agreement: z.literal(true, { message: 'validation.agreement' }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'validation.passwordMismatch',
    path: ['confirmPassword'],
  });

/**
 * `index/signUp` body: basic + personal info, encrypted password, agreement, and the code sent
 * for `signUp` to the e-mail (`codeChannel: 'email'`, the default) or to the mobile number (`'sms'`).
 */
export const signUpRequestSchema = signUpBasicSchema
  .extend({
    ...signUpPersonalSchema.shape,
    password: encryptedSchema,
    agreement: z.literal(true, { message: 'validation.agreement' }),
    /** Invitation code of a tenant's sign-up link (`?invite=`): the account joins that tenant. */
    invite: z.string().trim().min(1).max(64).optional(),
    codeChannel: z.enum(['email', 'sms']).default('email'),
    code: z.string().trim().regex(/^[A-Za-z0-9]{6}$/, 'validation.emailCode'),
  })
  .refine((v) => v.codeChannel === 'email' || v.mobile !== undefined, { message: 'validation.required', path: ['mobile'] })
  .refine((v) => v.codeChannel === 'email' || /^\d{6}$/.test(v.code), { message: 'validation.smsCode', path: ['code'] });
export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

/** `index/signIn` body. The login name is a username, an e-mail or a mobile number. */
export const signInRequestSchema = z.object({
  username: z.string().min(1).max(100),
  password: encryptedSchema,
  /** A solved captcha (`captcha/captchaImage`): required after repeated failures (`captchaRequired`). */
  captchaId: z.string().regex(/^[0-9a-f]{32}$/, 'validation.captcha').optional(),
  captchaCode: z.string().trim().max(8, 'validation.captcha').optional(),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** `index/signIn` reply data. */
export interface SignInResponse {
  accessToken: string;
  userId: string;
  /** Expiry of the token, ISO date. */
  expiresAt: string;
  /**
   * The password is a temporary one an administrator set (add user, reset password): until the
   * user changes it (`user/modifyPassword`), every other signed-in call answers
   * `passwordChangeRequired`. Absent: false.
   */
  mustChangePassword?: boolean;
}

/**
 * `index/getPublicKey` reply data: the server's RSA-OAEP public key as SPKI base64, and a fresh
 * one-time nonce that an account password must carry (`encryptAccountPassword`).
 */
export interface PublicKeyResponse {
  keyId: string;
  spki: string;
  algorithm: 'RSA-OAEP-256';
  /** One-time nonce (base64url); accepted once, until `nonceExpiresAt`. */
  nonce: string;
  /** ISO date after which the nonce is refused (`passwordNonceInvalid`). */
  nonceExpiresAt: string;
}

/** The signed-in user as kept in the client (spec platform §3 "user data held in a cookie"). */
export interface CurrentUser {
  userId: string;
  username: string;
  nickname: string | null;
  tenantId: string;
  avatarUrl: string | null;
  email: string | null;
  mobile: string | null;
  menuGroupId: string | null;
  roleList: { id: string; code: string; name: string }[];
  isSystemRole: boolean;
  /** A certified student whose certification is still valid (see `studentUntil`). */
  isStudent: boolean;
  /** ISO date until which the student certification holds; null when never certified. */
  studentUntil?: string | null;
  isOperation: boolean;
  occupation: Occupation | null;
  createdAt: string;
  /** The password must be changed first (see `SignInResponse.mustChangePassword`). Absent: false. */
  mustChangePassword?: boolean;
}

/** `user/checkToken` reply data. */
export interface CheckTokenResponse {
  valid: boolean;
  userId: string;
  expiresAt: string;
}

/** Empty body of calls without payload. */
export const emptySchema = z.object({}).strict().or(z.undefined()).transform(() => ({}));
