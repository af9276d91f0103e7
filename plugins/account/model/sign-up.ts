/**
 * Headless sign-up: the three steps (spec platform §2, §5), their validation with the domain
 * schemas, and how server errors map back onto fields and steps. No React here.
 */
import {
  ErrorCode,
  emailCodeSchema,
  smsCodeSchema,
  signUpBasicSchema,
  signUpPasswordFormSchema,
  signUpPersonalSchema,
  type Occupation,
  type SignUpRequest,
} from '@decisio/domain';
import type { ApiError } from '@decisio/sdk-plugin';
import type { z } from 'zod';

/** The form's values, as typed (strings; empty means not given). */
export interface SignUpValues {
  username: string;
  email: string;
  mobile: string;
  /** Where the sign-up code goes: the e-mail (default) or the mobile number. */
  codeChannel: 'email' | 'sms';
  code: string;
  nickname: string;
  industry: string;
  occupation: Occupation | '';
  organisation: string;
  university: string;
  major: string;
  campusEmail: string;
  password: string;
  confirmPassword: string;
  agreement: boolean;
}

/** Empty form. */
export const EMPTY_SIGN_UP: SignUpValues = {
  username: '',
  email: '',
  mobile: '',
  codeChannel: 'email',
  code: '',
  nickname: '',
  industry: '',
  occupation: '',
  organisation: '',
  university: '',
  major: '',
  campusEmail: '',
  password: '',
  confirmPassword: '',
  agreement: false,
};

/** Step index: 0 basic info, 1 personal info, 2 set password. */
export type SignUpStep = 0 | 1 | 2;

/** Fields of each step, in focus order. */
export const STEP_FIELDS: Record<SignUpStep, (keyof SignUpValues)[]> = {
  0: ['username', 'email', 'mobile', 'code'],
  1: ['nickname', 'industry', 'occupation', 'organisation', 'university', 'major', 'campusEmail'],
  2: ['password', 'confirmPassword', 'agreement'],
};

/** Field -> message key (`validation.*`) or, for server errors, translated text. */
export type FieldErrors = Partial<Record<keyof SignUpValues, string>>;

const opt = (s: string) => (s.trim() === '' ? undefined : s.trim());

function issuesToErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as keyof SignUpValues | undefined;
    if (field && !out[field]) out[field] = issue.message;
  }
  return out;
}

/** Step 1 payload. */
export function basicOf(v: SignUpValues) {
  return { username: v.username.trim(), email: v.email.trim(), mobile: opt(v.mobile) };
}

/** Step 2 payload (student fields only for students). */
export function personalOf(v: SignUpValues) {
  const student = v.occupation === 'student';
  return {
    nickname: opt(v.nickname),
    industry: opt(v.industry),
    occupation: v.occupation,
    organisation: opt(v.organisation),
    university: student ? opt(v.university) : undefined,
    major: student ? opt(v.major) : undefined,
    campusEmail: student ? opt(v.campusEmail) : undefined,
  };
}

/**
 * Validates one step. Messages are `validation.*` keys (translate with `validationMessage`).
 * @returns an empty object when the step is valid.
 */
export function validateStep(step: SignUpStep, v: SignUpValues): FieldErrors {
  if (step === 0) {
    const r = signUpBasicSchema.safeParse(basicOf(v));
    const errs = r.success ? {} : issuesToErrors(r.error);
    if (!v.username.trim()) errs.username = 'validation.required';
    if (!v.email.trim()) errs.email = 'validation.required';
    if (v.codeChannel === 'sms' && !v.mobile.trim()) errs.mobile = 'validation.required';
    const code = (v.codeChannel === 'sms' ? smsCodeSchema : emailCodeSchema).safeParse(v.code);
    if (!v.code.trim()) errs.code = 'validation.required';
    else if (!code.success) errs.code = code.error.issues[0]!.message;
    return errs;
  }
  if (step === 1) {
    const p = personalOf(v);
    const r = signUpPersonalSchema.safeParse(p);
    const errs = r.success ? {} : issuesToErrors(r.error);
    if (!v.occupation) errs.occupation = 'validation.required';
    if (v.occupation === 'student') {
      if (!p.university) errs.university = 'validation.required';
      if (!p.major) errs.major = 'validation.required';
      if (!p.campusEmail) errs.campusEmail = 'validation.required';
    }
    return errs;
  }
  const r = signUpPasswordFormSchema.safeParse({ password: v.password, confirmPassword: v.confirmPassword, agreement: v.agreement });
  const errs = r.success ? {} : issuesToErrors(r.error);
  if (!v.password) errs.password = 'validation.required';
  // zod skips the object-level refine while another field fails; check the match directly.
  if (!errs.confirmPassword && v.password !== v.confirmPassword) errs.confirmPassword = 'validation.passwordMismatch';
  return errs;
}

/** The `index/signUp` body, given the encrypted password. */
export function toSignUpRequest(v: SignUpValues, encryptedPassword: string): SignUpRequest {
  const personal = personalOf(v);
  return {
    ...basicOf(v),
    ...personal,
    codeChannel: v.codeChannel,
    code: v.code.trim(),
    occupation: personal.occupation as Occupation,
    password: encryptedPassword,
    agreement: true,
  };
}

const CODE_FIELD: Partial<Record<number, keyof SignUpValues>> = {
  [ErrorCode.usernameRegistered]: 'username',
  [ErrorCode.emailRegistered]: 'email',
  [ErrorCode.mobileRegistered]: 'mobile',
  [ErrorCode.campusEmailUsed]: 'campusEmail',
  [ErrorCode.verifyCodeMismatch]: 'code',
  [ErrorCode.verifyCodeExpired]: 'code',
  [ErrorCode.codeUsed]: 'code',
};

/**
 * Maps a server error onto fields (from the envelope's `errors`, or from the code for
 * "already registered" answers) and picks the first step that shows one of them.
 * `general` holds the message when no field takes it.
 */
export function serverErrorsToFields(e: ApiError): { fields: FieldErrors; step: SignUpStep | null; general: string | null } {
  const fields: FieldErrors = {};
  for (const [k, msg] of Object.entries(e.errors ?? {})) {
    if (k in EMPTY_SIGN_UP) fields[k as keyof SignUpValues] = msg;
  }
  const byCode = CODE_FIELD[e.code];
  if (byCode && !fields[byCode]) fields[byCode] = e.message;
  const steps = ([0, 1, 2] as SignUpStep[]).filter((s) => STEP_FIELDS[s].some((f) => fields[f]));
  const step = steps[0] ?? null;
  return { fields, step, general: Object.keys(fields).length ? null : e.message };
}
