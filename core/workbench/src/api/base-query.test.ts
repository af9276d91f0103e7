import { describe, expect, it, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import { ErrorCode, HEADER } from '@decisio/domain';
import { baseApi, definePluginApi, type ApiError } from '@decisio/sdk-plugin';
import { createHostBaseQuery, type HostBaseQueryDeps } from './base-query';

const testApi = definePluginApi('bq-test', (build) => ({
  'bq-test/echo': build.mutation<unknown, { url: string; body?: unknown; timeoutMs?: number }>({
    query: (a) => a,
  }),
}));

function setup(reply: (req: Request) => Promise<Response> | Response, over: Partial<HostBaseQueryDeps> = {}) {
  const seen: Request[] = [];
  const toasts: string[] = [];
  const signOut = vi.fn(() => true);
  const deps: HostBaseQueryDeps = {
    baseUrl: 'http://localhost/api/',
    getToken: () => 'tok-1',
    getUserId: () => 'user-1',
    getLanguage: () => 'en-US',
    t: (k) => k,
    toast: (m) => toasts.push(m),
    signOut,
    requestId: () => 'req-1',
    fetchFn: async (input) => {
      const req = input as Request;
      seen.push(req);
      return reply(req);
    },
    ...over,
  };
  const store = configureStore({
    reducer: { [baseApi.reducerPath]: baseApi.reducer },
    middleware: (gdm) => gdm({ thunk: { extraArgument: { baseQuery: createHostBaseQuery(deps) } } }).concat(baseApi.middleware),
  });
  const call = async (url: string, body?: unknown, timeoutMs?: number) => {
    const r = await store.dispatch(testApi.endpoints['bq-test/echo'].initiate({ url, body, timeoutMs }));
    return r as { data?: unknown; error?: ApiError };
  };
  return { seen, toasts, signOut, call, store };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('host base query', () => {
  it('sends POST with the spec headers and unwraps the envelope', async () => {
    const t = setup(() => json({ code: 0, data: { ok: 1 }, message: 'ok' }));
    const r = await t.call('user/getUser', { a: 1 });
    expect(r.data).toEqual({ ok: 1 });
    const req = t.seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('http://localhost/api/user/getUser');
    expect(req.headers.get(HEADER.authorization)).toBe('tok-1');
    expect(req.headers.get(HEADER.userId)).toBe('user-1');
    expect(req.headers.get(HEADER.requestId)).toBe('req-1');
    expect(req.headers.get(HEADER.language)).toBe('en-US');
    expect(await req.json()).toEqual({ a: 1 });
  });

  it('omits Authorization and UserId when signed out, and uses a fresh request id per call', async () => {
    let n = 0;
    const t = setup(() => json({ code: 0, data: null, message: '' }), {
      getToken: () => null,
      getUserId: () => null,
      requestId: () => `r${++n}`,
    });
    await t.call('index/getPublicKey');
    await t.call('index/getPublicKey');
    expect(t.seen[0]!.headers.has(HEADER.authorization)).toBe(false);
    expect(t.seen[0]!.headers.has(HEADER.userId)).toBe(false);
    expect(t.seen.map((r) => r.headers.get(HEADER.requestId))).toEqual(['r1', 'r2']);
  });

  it.each([ErrorCode.tokenExpired, ErrorCode.tokenInvalid, ErrorCode.unauthorized, ErrorCode.projectIdIllegal])(
    'signs out on code %i with a toast',
    async (code) => {
      const t = setup(() => json({ code, data: null, message: 'expired' }, 401));
      const r = await t.call('project/getProjectList');
      expect(r.error).toMatchObject({ kind: 'api', code, handled: true });
      expect(t.signOut).toHaveBeenCalledTimes(1);
      expect(t.toasts).toEqual(['workbench:errors.signInAgain']);
    },
  );

  it('toasts "sign in again" once: an answer that comes when the session is gone already only goes to /', async () => {
    let signedIn = true;
    const signOut = vi.fn(() => {
      const dropped = signedIn;
      signedIn = false;
      return dropped;
    });
    const t = setup(() => json({ code: ErrorCode.userNotPermission, data: null, message: 'no' }, 403), { signOut });
    const [a, b] = await Promise.all([t.call('admin/users'), t.call('admin/roles')]);
    expect(a.error).toMatchObject({ handled: true });
    expect(b.error).toMatchObject({ handled: true });
    expect(signOut).toHaveBeenCalledTimes(2);
    expect(t.toasts).toEqual(['workbench:errors.signInAgain']);
  });

  it('does not sign out on user/checkToken', async () => {
    const t = setup(() => json({ code: ErrorCode.tokenExpired, data: null, message: 'expired' }, 401));
    const r = await t.call('user/checkToken');
    expect(r.error).toMatchObject({ code: ErrorCode.tokenExpired, handled: false });
    expect(t.signOut).not.toHaveBeenCalled();
    expect(t.toasts).toEqual([]);
  });

  it.each([
    [ErrorCode.storageInsufficient, 'workbench:errors.storageFull'],
    [ErrorCode.poolQuotaExceeded, 'workbench:errors.storageFull'],
    [ErrorCode.resourceQuotaExceeded, 'workbench:errors.resourceQuota'],
    [ErrorCode.fileNotFound, 'workbench:errors.fileNotFound'],
  ])('toasts catalogue code %i', async (code, key) => {
    const t = setup(() => json({ code, data: null, message: 'x' }, 400));
    const r = await t.call('file/uploadOneFile');
    expect(r.error?.handled).toBe(true);
    expect(t.toasts).toEqual([key]);
    expect(t.signOut).not.toHaveBeenCalled();
  });

  it('passes other errors to the caller with field errors', async () => {
    const t = setup(() =>
      json({ code: ErrorCode.usernameRegistered, data: null, message: 'Username already registered', errors: { username: 'taken' } }, 400),
    );
    const r = await t.call('index/signUp');
    expect(r.error).toEqual({
      kind: 'api',
      code: ErrorCode.usernameRegistered,
      codeName: 'usernameRegistered',
      message: 'Username already registered',
      errors: { username: 'taken' },
      status: 400,
      handled: false,
    });
    expect(t.toasts).toEqual([]);
  });

  it('reports a timeout with the request-timed-out toast', async () => {
    const t = setup(
      (req) =>
        new Promise<Response>((_, reject) => {
          req.signal.addEventListener('abort', () => reject(req.signal.reason));
        }),
    );
    const r = await t.call('overview/getOverall', {}, 50);
    expect(r.error).toMatchObject({ kind: 'timeout', code: ErrorCode.timeout, handled: true });
    expect(t.toasts).toEqual(['workbench:errors.timeout']);
  });

  it('uses a 30 s timeout by default', async () => {
    vi.useFakeTimers();
    try {
      const t = setup(
        (req) =>
          new Promise<Response>((_, reject) => {
            req.signal.addEventListener('abort', () => reject(req.signal.reason));
          }),
      );
      const p = t.call('overview/getOverall');
      await vi.advanceTimersByTimeAsync(29_000);
      expect(t.toasts).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_500);
      const r = await p;
      expect(r.error?.kind).toBe('timeout');
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not report a call aborted by a sign-out (the api cache reset) as network unavailable', async () => {
    const t = setup(
      (req) =>
        new Promise<Response>((_, reject) => {
          req.signal.addEventListener('abort', () => reject(req.signal.reason));
        }),
    );
    const p = t.call('users/getUserList');
    await vi.waitFor(() => expect(t.seen).toHaveLength(1));
    // What the session's clear does on a sign-out code: every call in flight is aborted.
    t.store.dispatch(baseApi.util.resetApiState());
    expect((await p).error).toMatchObject({ name: 'AbortError' });
    // The transport goes on to its end behind the aborted thunk: it must not toast then either.
    await new Promise((r) => setTimeout(r, 20));
    expect(t.toasts).toEqual([]);
  });

  it('reports an unreachable server as network unavailable', async () => {
    const t = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    const r = await t.call('user/getUser');
    expect(r.error).toMatchObject({ kind: 'network', handled: true });
    expect(t.toasts).toEqual(['workbench:errors.network']);
  });
});
