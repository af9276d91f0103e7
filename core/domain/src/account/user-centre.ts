import { z } from 'zod';
import { campusEmailSchema, emailSchema, encryptedSchema, mobileSchema, nicknameSchema, OCCUPATIONS, type Occupation } from './schemas';
import { emailCodeSchema, smsCodeSchema } from './codes';

/**
 * User centre calls (spec platform §2 "user centre", §5, §7): profile, contact changes proven by
 * a code to the new address, password change, sign-in records, settings, student certification
 * and account deletion.
 */

/** Largest avatar picture, bytes (decoded). */
export const AVATAR_MAX_BYTES = 256 * 1024;
/** Avatar pictures the server accepts, as data URLs. */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** How long a student certification lasts from the day it is proven, days. */
export const STUDENT_VALID_DAYS = 365;

/** Personal settings kept with the account (the workbench applies them at sign-in). */
export const userSettingsSchema = z
  .object({
    language: z.enum(['zh-CN', 'en-US']).nullable().default(null),
    theme: z.enum(['light', 'dark']).nullable().default(null),
    /** Also send product messages by e-mail (when an e-mail transport is configured). */
    emailNotifications: z.boolean().default(false),
  })
  .strict();
export type UserSettings = z.infer<typeof userSettingsSchema>;
export const DEFAULT_USER_SETTINGS: UserSettings = { language: null, theme: null, emailNotifications: false };

/** An avatar picture as a data URL (`data:image/png;base64,...`), at most `AVATAR_MAX_BYTES`. */
export const avatarDataUrlSchema = z
  .string()
  .max(Math.ceil((AVATAR_MAX_BYTES * 4) / 3) + 64, 'validation.avatar')
  .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/, 'validation.avatar');

/** `user/editUserInfo` body: the fields given change; `avatar: null` removes the picture. */
export const editUserInfoRequestSchema = z
  .object({
    nickname: nicknameSchema.nullable().optional(),
    industry: z.string().trim().max(50).nullable().optional(),
    occupation: z.enum(OCCUPATIONS).optional(),
    organisation: z.string().trim().max(100).nullable().optional(),
    avatar: avatarDataUrlSchema.nullable().optional(),
    settings: userSettingsSchema.optional(),
  })
  .strict();
export type EditUserInfoRequest = z.infer<typeof editUserInfoRequestSchema>;

/**
 * `users/updateUserCenter` body: a new e-mail or mobile number, or a student certification, each
 * with the code sent to that address (purpose `changeContact`, or `student` for the campus e-mail).
 */
export const updateUserCenterRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('email'), email: emailSchema, code: emailCodeSchema }).strict(),
  z.object({ kind: z.literal('mobile'), mobile: mobileSchema, code: smsCodeSchema }).strict(),
  z
    .object({
      kind: z.literal('student'),
      university: z.string().trim().min(1, 'validation.required').max(100),
      major: z.string().trim().min(1, 'validation.required').max(100),
      campusEmail: campusEmailSchema,
      code: emailCodeSchema,
    })
    .strict(),
]);
export type UpdateUserCenterRequest = z.infer<typeof updateUserCenterRequestSchema>;

/** `users/getUserInfo` reply data (also the reply of the calls that change it). */
export interface UserInfo {
  userId: string;
  username: string;
  nickname: string | null;
  avatarUrl: string | null;
  email: string | null;
  mobile: string | null;
  industry: string | null;
  occupation: Occupation | null;
  organisation: string | null;
  university: string | null;
  major: string | null;
  campusEmail: string | null;
  /** A certified student whose certification is still valid. */
  isStudent: boolean;
  /** ISO date until which the student certification holds; null when never certified. */
  studentUntil: string | null;
  settings: UserSettings;
  createdAt: string;
  lastSignInAt: string | null;
}

/** `user/modifyPassword` body: both encrypted as at sign-in, each with its own nonce. */
export const modifyPasswordRequestSchema = z.object({
  oriPassword: encryptedSchema,
  password: encryptedSchema,
});
export type ModifyPasswordRequest = z.infer<typeof modifyPasswordRequestSchema>;

/** `user/getLastSignInRecord` body. */
export const signInRecordRequestSchema = z
  .object({ limit: z.coerce.number().int().min(1).max(50).default(10) })
  .strict()
  .or(z.undefined())
  .transform((v) => v ?? { limit: 10 });

/** One sign-in (a session the account opened). */
export interface SignInRecord {
  id: string;
  time: string;
  address: string | null;
  agent: string | null;
  /** The session of this call. */
  current: boolean;
  /** Still usable (not signed out, not expired). */
  active: boolean;
}

/** What deleting the account would do (`user/getDeleteImpact`) and why it may be refused now. */
export interface DeleteImpact {
  /** Projects the user owns: deleted with their solutions, trainings, policies and stopped services. */
  projects: number;
  /** Files in the user's storage: deleted, space given back. */
  files: number;
  /** Data connections: deleted with their saved passwords. */
  connections: number;
  /** Running trainings, deductions or imports of the user: deletion is refused while any run. */
  runningTrainings: number;
  /** Online services of the user's projects: deletion is refused while any serves. */
  runningServices: number;
}

/** `user/deleteUser` body: the username typed again. */
export const deleteUserRequestSchema = z.object({
  confirm: z.string().min(1, 'validation.confirmDelete').max(64),
});
export type DeleteUserRequest = z.infer<typeof deleteUserRequestSchema>;
