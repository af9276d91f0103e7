/**
 * Field errors of a form checked with a `@decisio/domain` schema, in the catalogue's words
 * (the same messages the server sends back in `errors`).
 */
import type { z } from 'zod';
import { validationMessage, type Locale } from '@decisio/domain';

/** Dotted path -> translated message; the first issue of each field wins. */
export function formErrors(error: z.ZodError, locale: Locale, input: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    if (key in out) continue;
    let message = issue.message;
    const params: Record<string, number> = {};
    if (!message.startsWith('validation.')) {
      const value = issue.path.length ? input[String(issue.path[0])] : undefined;
      if (issue.code === 'invalid_type' && value === undefined) message = 'validation.required';
      else if (issue.code === 'too_big' && issue.origin === 'string') {
        message = 'validation.tooLong';
        params.max = Number(issue.maximum);
      } else if (issue.code === 'too_small' && issue.origin === 'string') {
        message = 'validation.tooShort';
        params.min = Number(issue.minimum);
      } else message = 'validation.invalid';
    }
    out[key] = validationMessage(message, locale, params);
  }
  return out;
}

/** Parses `input` with `schema`: `{ok: true, value}` or `{ok: false, errors}` (translated). */
export function checkForm<S extends z.ZodType>(
  schema: S,
  input: Record<string, unknown>,
  locale: Locale,
): { ok: true; value: z.output<S> } | { ok: false; errors: Record<string, string> } {
  const r = schema.safeParse(input);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, errors: formErrors(r.error, locale, input) };
}
