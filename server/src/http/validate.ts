import { z } from 'zod';
import { AppError, ErrorCode, validationMessage, type ErrorCodeName, type Locale } from '@decisio/domain';
import type { AppContext, AppMiddleware } from './context';

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/**
 * Turns zod issues into the envelope's `errors` map: dotted path -> message in `locale`. Messages
 * that are `validation.*` keys are translated; zod's own defaults become `required`, `tooShort`,
 * `tooLong` or `invalid`.
 */
export function zodFieldErrors(error: z.ZodError, locale: Locale, input: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    if (key in out) continue;
    let message = issue.message;
    const params: Record<string, string | number> = {};
    if (!message.startsWith('validation.')) {
      if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) message = 'validation.required';
      else if (issue.code === 'too_small' && issue.origin === 'string') {
        message = 'validation.tooShort';
        params.min = Number(issue.minimum);
      } else if (issue.code === 'too_big' && issue.origin === 'string') {
        message = 'validation.tooLong';
        params.max = Number(issue.maximum);
      } else message = 'validation.invalid';
    }
    out[key] = validationMessage(message, locale, params);
  }
  return out;
}

/**
 * Thrown by `validate`; carries the raw input so messages can tell "missing" from "wrong".
 * `codeName` is what the call answers: the catalogue code a domain rule names as the first
 * issue's message (`trainDurationInvalid`, `gitUrlInvalid`, ...), else `paramInvalid`.
 */
export class ValidationFailure extends Error {
  readonly codeName: ErrorCodeName;

  constructor(
    readonly zodError: z.ZodError,
    readonly input: unknown,
  ) {
    super('Validation failed');
    const first = zodError.issues[0]?.message ?? '';
    this.codeName = Object.hasOwn(ErrorCode, first) ? (first as ErrorCodeName) : 'paramInvalid';
  }
}

/** A validation step that also hands back the typed input of a call that passed it. */
export interface InputMiddleware<T> extends AppMiddleware {
  /** The validated input (throws if the route has no such step, a programming error). */
  input(ctx: AppContext): T;
  /** The schema it validates with and where it reads (the API description is generated from them). */
  schema: z.ZodType;
  source: 'body' | 'query';
}

/** The schema of each validation step, by its middleware (the generated route tests read it). */
export const validationSteps = new WeakMap<AppMiddleware, { schema: z.ZodType; source: 'body' | 'query' }>();

/**
 * Validates the JSON body (or the query string) with a schema of `@decisio/domain` and keeps the
 * parsed value for the handler: `const body = validate(schema)` then, in the chain,
 * `body, reply((ctx) => service.do(body.input(ctx)))`. A failure answers `paramInvalid` (400)
 * with translated field errors.
 */
export function validate<S extends z.ZodType>(schema: S, source: 'body' | 'query' = 'body'): InputMiddleware<z.output<S>> {
  const key = Symbol('input');
  const mw = (async (ctx, next) => {
    const raw = source === 'body' ? ctx.request.body : { ...ctx.query };
    const result = schema.safeParse(raw);
    if (!result.success) throw new ValidationFailure(result.error, raw);
    ctx.state.input = result.data;
    (ctx.state as unknown as Record<symbol, unknown>)[key] = result.data;
    await next();
  }) as InputMiddleware<z.output<S>>;
  validationSteps.set(mw, { schema, source });
  mw.schema = schema;
  mw.source = source;
  mw.input = (ctx) => {
    const state = ctx.state as unknown as Record<symbol, unknown>;
    if (!(key in state)) throw new AppError('internalError', undefined, 'validate(): input read on a route without this step');
    return state[key] as z.output<S>;
  };
  return mw;
}
