/** Headless password reset: the form's values and their checks with the domain schemas. */
import { emailCodeSchema, emailSchema, mobileSchema, passwordSchema, smsCodeSchema } from '@decisio/domain';

/** The reset form as typed. */
export interface ResetValues {
  channel: 'email' | 'sms';
  email: string;
  mobile: string;
  code: string;
  password: string;
  confirmPassword: string;
}

/** Field -> `validation.*` key; empty when the form may be sent. */
export function resetFormErrors(v: ResetValues): Partial<Record<keyof ResetValues, string>> {
  const errs: Partial<Record<keyof ResetValues, string>> = {};
  const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? undefined : r.error!.issues[0]!.message);
  if (v.channel === 'email') errs.email = v.email.trim() ? first(emailSchema.safeParse(v.email.trim())) : 'validation.required';
  else errs.mobile = v.mobile.trim() ? first(mobileSchema.safeParse(v.mobile.trim())) : 'validation.required';
  errs.code = v.code.trim() ? first((v.channel === 'sms' ? smsCodeSchema : emailCodeSchema).safeParse(v.code)) : 'validation.required';
  errs.password = v.password ? first(passwordSchema.safeParse(v.password)) : 'validation.required';
  if (!errs.password && v.password !== v.confirmPassword) errs.confirmPassword = 'validation.passwordMismatch';
  for (const k of Object.keys(errs) as (keyof ResetValues)[]) if (!errs[k]) delete errs[k];
  return errs;
}
