import { z } from 'zod';
import { LIMITS } from '../common/limits';
import { emailSchema, mobileSchema } from '../account/schemas';
import { pageRequestSchema } from '../admin/schemas';

/**
 * SDK downloads, SDK licences and the authorisation service (spec platform §3 "Licence", §4,
 * §5 "Device file", §7 "User centre", "SDK", §9 "Licence").
 *
 * A licence is issued by the server as a licence file signed with Ed25519; the offline verifier
 * (`docs/licence-verifier`) checks it without the server. An online licence is bound to the
 * user key (`userCenter/createUserPrivateKey`), an offline one to the SHA-256 of a device file.
 */

const id32 = z.string().regex(/^[0-9a-f]{32}$/);

/** SDK editions offered for download (spec §9: trial 0.9.3 and Pro 1.2.0). */
export const SDK_EDITIONS = ['trial', 'pro'] as const;
export type SdkEdition = (typeof SDK_EDITIONS)[number];

/**
 * Licence kinds (spec platform §3: offline, student, online): online (bound to the user key),
 * offline (bound to a device file), or student: the free trial a student certificate gives
 * (spec §6), see {@link STUDENT_TRIAL_RULES}.
 */
export const LICENCE_TYPES = ['online', 'offline', 'student'] as const;
export type LicenceType = (typeof LICENCE_TYPES)[number];

/**
 * The student trial (spec platform §6 "A student certificate gives a free trial; student
 * authorisation is verified with a validity date", §9 "trial SDK licence valid 30 days"):
 * - only a user whose student certification (campus e-mail code) is valid today may apply for a
 *   `student` licence or a `student` authorisation (`studentOnly`; `studentCertificationExpired`
 *   once it ended); a self-declared occupation "student" is no certificate;
 * - a student licence is of the trial edition, free: it is issued at once, without review, bound
 *   to the device file when one is given, else to the user key;
 * - it is valid {@link STUDENT_TRIAL_DAYS} days and never past the certification's end; a
 *   student authorisation is valid a year and never past the certification's end either;
 * - renewal is offered while the certification is valid, on the same terms;
 * - one student licence at a time (`sdkLicenceExists`).
 */
export const STUDENT_TRIAL_RULES = {
  edition: 'trial' as const,
  reviewed: false,
};

/** Days a student trial licence lasts at most (the trial SDK licence's 30 days). */
export const STUDENT_TRIAL_DAYS = 30;

/**
 * End of a student's licence or authorisation: `start + days`, cut at the certification's end.
 * `null` when the certification is not valid at `start`.
 */
export function studentGrantEnd(start: Date, days: number, studentUntil: Date | null): Date | null {
  if (!studentUntil || studentUntil.getTime() <= start.getTime()) return null;
  return new Date(Math.min(start.getTime() + days * 86_400_000, studentUntil.getTime()));
}

/** Licence states (spec §4): on review (`audit`), `success`, finished (`end`), `expired`. */
export const LICENCE_STATUSES = ['audit', 'success', 'end', 'expired'] as const;
export type LicenceStatus = (typeof LICENCE_STATUSES)[number];

/** Validity of an issued licence in days (spec §9): offline 30, online one year, trial SDK 30. */
export function licenceValidityDays(type: LicenceType, edition: SdkEdition): number {
  if (type === 'student') return STUDENT_TRIAL_DAYS;
  if (edition === 'trial' || type === 'offline') return 30;
  return 365;
}

/** Days before the end at which "expires in N days" notices start. */
export const LICENCE_NOTICE_DAYS = 7;

/** Whole days from `now` to `endAt`, rounded up (0 once ended). */
export function licenceDaysLeft(endAt: Date | string, now: Date = new Date()): number {
  const ms = new Date(endAt).getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / 86_400_000);
}

/** Semantic-ish version string of an SDK package, e.g. `1.2.0`. */
export const sdkVersionSchema = z.string().trim().regex(/^\d{1,4}\.\d{1,4}\.\d{1,4}([-.][0-9A-Za-z.]{1,20})?$/);

/** `sdkVersion/createSdkVersion` (administrators): the version's row; the package is uploaded next. */
export const createSdkVersionSchema = z
  .object({
    version: sdkVersionSchema,
    edition: z.enum(SDK_EDITIONS),
    /** Release notes, plain text. */
    notes: z.string().trim().max(4000).default(''),
  })
  .strict();
export type CreateSdkVersionRequest = z.input<typeof createSdkVersionSchema>;

/** `sdkVersion/deleteSdkVersion`. */
export const sdkVersionIdSchema = z.object({ id: id32 }).strict();

/** Longest SDK package accepted, bytes. */
export const SDK_PACKAGE_MAX_BYTES = 2 * 1024 ** 3;

/** An SDK version as listed (`sdkVersion/getSdkVersionList`). */
export interface SdkVersionItem {
  id: string;
  version: string;
  edition: SdkEdition;
  notes: string;
  /** Package file name, `null` until uploaded. */
  fileName: string | null;
  size: number | null;
  /** SHA-256 of the package, hex. */
  sha256: string | null;
  createdAt: string;
}

/** A device file (offline licence): a name of at most 50 characters, base64 content of 1..1 MiB. */
export const deviceFileSchema = z
  .object({
    name: z.string().trim().min(1).max(LIMITS.fileNameMax),
    /** Base64 of the bytes; size and emptiness are checked on the decoded bytes. */
    content: z.string().max(Math.ceil((LIMITS.deviceFileMaxBytes * 4) / 3) + 8).regex(/^[A-Za-z0-9+/]*={0,2}$/),
  })
  .strict();

/** How the applicant is reached; the code was sent to that address (spec §5). */
export const licenceContactSchema = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('email'), target: emailSchema, code: z.string().trim().length(LIMITS.verifyCodeLength) }).strict(),
  z.object({ channel: z.literal('mobile'), target: mobileSchema, code: z.string().trim().length(LIMITS.verifyCodeLength) }).strict(),
]);
export type LicenceContact = z.infer<typeof licenceContactSchema>;

/**
 * `sdkLicense/createSdkLicense`. Offline needs the device file; online uses the caller's user key
 * (no device file); student is of the trial edition and takes a device file or the user key.
 */
export const createSdkLicenceSchema = z
  .object({
    type: z.enum(LICENCE_TYPES),
    edition: z.enum(SDK_EDITIONS),
    contact: licenceContactSchema,
    deviceFile: deviceFileSchema.optional(),
    /** The licence terms were ticked (spec §5). */
    termsAccepted: z.literal(true),
  })
  .strict()
  .refine((v) => v.type === 'student' || (v.type === 'offline') === !!v.deviceFile, { message: 'validation.required', path: ['deviceFile'] })
  .refine((v) => v.type !== 'student' || v.edition === STUDENT_TRIAL_RULES.edition, { message: 'validation.invalid', path: ['edition'] });
export type CreateSdkLicenceRequest = z.input<typeof createSdkLicenceSchema>;

/** `sdkLicense/getSdkLicenseList`: the caller's licences; `scope: 'all'` (licences:write) the tenant's. */
export const sdkLicenceListSchema = pageRequestSchema.extend({
  status: z.enum(LICENCE_STATUSES).optional(),
  scope: z.enum(['mine', 'all']).default('mine'),
});
export type SdkLicenceListRequest = z.input<typeof sdkLicenceListSchema>;

/** `sdkLicense/reviewSdkLicense` (administrators): approve issues the licence, refuse ends it. */
export const reviewSdkLicenceSchema = z
  .object({ id: id32, approve: z.boolean(), opinion: z.string().trim().max(500).default('') })
  .strict();
export type ReviewSdkLicenceRequest = z.input<typeof reviewSdkLicenceSchema>;

/** `sdkLicense/renewSdkLicense`: a new application for the same device or key. */
export const licenceIdSchema = z.object({ id: id32 }).strict();

/** A licence as listed. */
export interface SdkLicenceItem {
  id: string;
  type: LicenceType;
  edition: SdkEdition;
  status: LicenceStatus;
  deviceFileName: string | null;
  /** SHA-256 of the device file, hex (offline). */
  deviceSha256: string | null;
  contactChannel: 'email' | 'mobile';
  contactTarget: string;
  reviewOpinion: string | null;
  startAt: string | null;
  endAt: string | null;
  /** Whole days left while `success`; 0 when expired; `null` before issue. */
  daysLeft: number | null;
  /** The licence this one renews. */
  renewalOf: string | null;
  createdAt: string;
  username: string;
  /** The signed licence file (JSON text) once issued. */
  licenceFile: string | null;
}

/**
 * The licence file (JSON): `payload` is base64url of the UTF-8 JSON of {@link LicencePayload};
 * `signature` is the Ed25519 signature of the payload's bytes (base64url); `keyId` names the key.
 */
export interface LicenceFile {
  format: 'decisio-licence/1';
  keyId: string;
  payload: string;
  signature: string;
}

/** What a licence file asserts. */
export interface LicencePayload {
  licenceId: string;
  type: LicenceType;
  edition: SdkEdition;
  /** Holder's user id and username. */
  userId: string;
  username: string;
  issuedAt: string;
  notBefore: string;
  notAfter: string;
  /** Offline: SHA-256 of the device file, hex. */
  deviceSha256?: string;
  /** Online: SHA-256 of the user key, hex. */
  userKeySha256?: string;
}

/** `sdkLicense/getLicencePublicKey` reply: the key the verifier trusts. */
export interface LicencePublicKey {
  keyId: string;
  algorithm: 'Ed25519';
  /** SPKI PEM. */
  publicKeyPem: string;
}

/** Authorisation-service types (spec §3: common, enterprise, student). */
export const SERVICE_TYPES = ['common', 'enterprise', 'student'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** `userCenter/createServiceManagement`: an application for the platform's authorisation service. */
export const createServiceManagementSchema = z
  .object({
    type: z.enum(SERVICE_TYPES),
    company: z.string().trim().max(100).default(''),
    description: z.string().trim().min(1).max(500),
  })
  .strict();
export type CreateServiceManagementRequest = z.input<typeof createServiceManagementSchema>;

/** `userCenter/getServiceManagementList`. */
export const serviceManagementListSchema = pageRequestSchema.extend({ scope: z.enum(['mine', 'all']).default('mine') });
export type ServiceManagementListRequest = z.input<typeof serviceManagementListSchema>;

/** `userCenter/reviewServiceManagement` (administrators). */
export const reviewServiceManagementSchema = reviewSdkLicenceSchema;

/** An authorisation-service application as listed. */
export interface ServiceManagementItem {
  id: string;
  type: ServiceType;
  company: string;
  description: string;
  status: LicenceStatus;
  reviewOpinion: string | null;
  startAt: string | null;
  endAt: string | null;
  createdAt: string;
  username: string;
}

/** The caller's user key, without the key itself (it is shown once, on creation). */
export interface UserKeyInfo {
  /** First characters of the key, to recognise it. */
  prefix: string;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
}

/** `userCenter/getServiceManagementList` reply. */
export interface ServiceManagementListResponse {
  rows: ServiceManagementItem[];
  total: number;
  page: number;
  pageSize: number;
  userKey: UserKeyInfo | null;
}

/** `userCenter/createUserPrivateKey` reply: the key, shown this once. */
export interface CreateUserKeyResponse extends UserKeyInfo {
  key: string;
}

/** Validity of a user key, days (the online authorisation's year). */
export const USER_KEY_VALIDITY_DAYS = 365;
