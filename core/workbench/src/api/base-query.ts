/**
 * The transport under the base api: `fetchBaseQuery` with the spec's headers, a 30 s timeout,
 * envelope unwrapping, and the error catalogue's handling (spec platform §7, §8):
 *
 * - `SIGN_OUT_CODES` (except on `user/checkToken`): toast "please sign in again", clear the
 *   session (local storage, api cache), go to `/`; once: an answer that comes when the session is
 *   gone already (another call in flight, a page refetching after the cache reset) only goes to `/`.
 * - `passwordChangeRequired`: toast "change your password first", go to the password-change page.
 * - storage full, resource quota, file not found, timeout and network failure: a toast; a call
 *   the client aborted (a sign-out resets the api cache, aborting the calls in flight) is no
 *   network failure: no toast (`handled: true`).
 * - anything else: passed to the caller untouched (`handled: false`).
 */
import { fetchBaseQuery, type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import {
  codeName,
  ErrorCode,
  HEADER,
  LIMITS,
  SIGN_OUT_CODES,
  STORAGE_FULL_CODES,
  type Envelope,
} from '@decisio/domain';
import type { ApiError, ApiRequest, SdkBaseQuery } from '@decisio/sdk-plugin';

/** What the transport needs from the workbench. */
export interface HostBaseQueryDeps {
  /** Root of the api, default `/api/`. */
  baseUrl?: string;
  getToken(): string | null;
  getUserId(): string | null;
  getLanguage(): string;
  /** Translates a key of the `workbench` namespace. */
  t(key: string): string;
  /** Shows a toast (already translated text). */
  toast(message: string, intent: 'danger' | 'warning', key: string): void;
  /**
   * Drops the session and goes to `/`. Returns false when there was no session left to drop (an
   * earlier answer signed out already): no second toast then.
   */
  signOut(): boolean;
  /** A `passwordChangeRequired` answer: take the user to the password-change page. */
  passwordChangeRequired?(): void;
  /** Per-request id; default `crypto.randomUUID()`. */
  requestId?(): string;
  /** Default timeout in ms; `LIMITS.requestTimeoutMs` (30 s) unless set. */
  timeoutMs?: number;
  fetchFn?: typeof fetch;
}

function isEnvelope(x: unknown): x is Envelope<unknown> {
  return typeof x === 'object' && x !== null && typeof (x as { code?: unknown }).code === 'number';
}

/** Builds the host's base query. */
export function createHostBaseQuery(deps: HostBaseQueryDeps): SdkBaseQuery {
  const requestId = deps.requestId ?? (() => globalThis.crypto.randomUUID());
  const raw = fetchBaseQuery({
    baseUrl: deps.baseUrl ?? '/api/',
    fetchFn: deps.fetchFn ? (...a) => deps.fetchFn!(...a) : undefined,
    prepareHeaders: (headers) => {
      const token = deps.getToken();
      const userId = deps.getUserId();
      if (token) headers.set(HEADER.authorization, token);
      if (userId) headers.set(HEADER.userId, userId);
      headers.set(HEADER.requestId, requestId());
      headers.set(HEADER.language, deps.getLanguage());
      return headers;
    },
  });

  const fail = (e: Omit<ApiError, 'handled'>, url: string): ApiError => {
    const err: ApiError = { ...e, handled: false };
    const code = err.code;
    if (err.kind === 'timeout') {
      deps.toast(deps.t('workbench:errors.timeout'), 'danger', 'timeout');
      err.handled = true;
    } else if (err.kind === 'network') {
      deps.toast(deps.t('workbench:errors.network'), 'danger', 'network');
      err.handled = true;
    } else if (SIGN_OUT_CODES.has(code) && !url.endsWith('user/checkToken')) {
      if (deps.signOut()) deps.toast(deps.t('workbench:errors.signInAgain'), 'warning', 'sign-out');
      err.handled = true;
    } else if (code === ErrorCode.passwordChangeRequired) {
      deps.toast(deps.t('workbench:errors.passwordChangeRequired'), 'warning', 'password-change');
      deps.passwordChangeRequired?.();
      err.handled = true;
    } else if (STORAGE_FULL_CODES.has(code)) {
      deps.toast(deps.t('workbench:errors.storageFull'), 'danger', 'storage-full');
      err.handled = true;
    } else if (code === ErrorCode.resourceQuotaExceeded) {
      deps.toast(deps.t('workbench:errors.resourceQuota'), 'danger', 'resource-quota');
      err.handled = true;
    } else if (code === ErrorCode.fileNotFound) {
      deps.toast(deps.t('workbench:errors.fileNotFound'), 'danger', 'file-not-found');
      err.handled = true;
    } else if (code === ErrorCode.timeout) {
      deps.toast(deps.t('workbench:errors.timeout'), 'danger', 'timeout');
      err.handled = true;
    }
    return err;
  };

  const fromEnvelope = (env: Envelope<unknown>, status: number | undefined): Omit<ApiError, 'handled'> => ({
    kind: 'api',
    code: env.code,
    codeName: codeName(env.code),
    message: env.message,
    errors: env.errors,
    status,
  });

  return async (args, api, extraOptions) => {
    const req: ApiRequest = typeof args === 'string' ? { url: args } : args;
    const url = req.url.replace(/^\/+/, '');
    const timeout = req.timeoutMs ?? deps.timeoutMs ?? LIMITS.requestTimeoutMs;
    const result = await raw(
      {
        url,
        method: req.method ?? 'POST',
        body: req.method === 'GET' ? undefined : (req.body ?? {}),
        ...(timeout > 0 ? { timeout } : {}),
      },
      api,
      extraOptions as object,
    );
    if (result.error) {
      const e: FetchBaseQueryError = result.error;
      if (e.status === 'TIMEOUT_ERROR') {
        return { error: fail({ kind: 'timeout', code: ErrorCode.timeout, codeName: 'timeout', message: deps.t('workbench:errors.timeout') }, url) };
      }
      if (e.status === 'FETCH_ERROR') {
        // Aborted by the client (a sign-out resets the api cache, which aborts the calls in flight;
        // a navigation or unmount cut it off): no network failure, nothing to tell the user.
        if (api.signal?.aborted || /AbortError/.test(String((e as { error?: unknown }).error))) {
          return { error: { kind: 'network', code: -1, message: deps.t('workbench:errors.network'), handled: true } satisfies ApiError };
        }
        return { error: fail({ kind: 'network', code: -1, message: deps.t('workbench:errors.network') }, url) };
      }
      if (typeof e.status === 'number' && isEnvelope(e.data)) {
        return { error: fail(fromEnvelope(e.data, e.status), url) };
      }
      const status = typeof e.status === 'number' ? e.status : undefined;
      if (status === 502 || status === 503 || status === 504) {
        return { error: fail({ kind: 'network', code: -1, message: deps.t('workbench:errors.network'), status }, url) };
      }
      return {
        error: fail({ kind: 'http', code: ErrorCode.failure, codeName: 'failure', message: deps.t('workbench:errors.unexpected'), status }, url),
      };
    }
    if (!isEnvelope(result.data)) {
      return { error: fail({ kind: 'http', code: ErrorCode.failure, codeName: 'failure', message: deps.t('workbench:errors.unexpected'), status: result.meta?.response?.status }, url) };
    }
    if (result.data.code !== ErrorCode.success) {
      return { error: fail(fromEnvelope(result.data, result.meta?.response?.status), url) };
    }
    return { data: result.data.data, meta: result.meta };
  };
}
