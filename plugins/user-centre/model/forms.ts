/** Headless checks of the user-centre forms (password change, avatar picture). No React here. */
import { AVATAR_MAX_BYTES, AVATAR_TYPES, passwordSchema } from '@decisio/domain';

/** The password-change form as typed. */
export interface PasswordForm {
  oriPassword: string;
  password: string;
  confirmPassword: string;
}

/** Field -> `validation.*` key; empty when the form may be sent. */
export function passwordFormErrors(v: PasswordForm): Partial<Record<keyof PasswordForm, string>> {
  const errs: Partial<Record<keyof PasswordForm, string>> = {};
  if (!v.oriPassword) errs.oriPassword = 'validation.required';
  if (!v.password) errs.password = 'validation.required';
  else {
    const rule = passwordSchema.safeParse(v.password);
    if (!rule.success) errs.password = rule.error.issues[0]!.message;
  }
  if (!errs.password && v.password !== v.confirmPassword) errs.confirmPassword = 'validation.passwordMismatch';
  return errs;
}

/** Why a picture cannot be an avatar (`type` or `size`), or null when it can. */
export function avatarProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > AVATAR_MAX_BYTES) return 'size';
  return null;
}

/** Reads a file as a data URL. */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}
