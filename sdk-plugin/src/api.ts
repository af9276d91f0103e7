/**
 * The one RTK Query api of the product. Plugins add endpoints with {@link definePluginApi};
 * the workbench installs the transport (headers, timeout, envelope, error catalogue) through
 * the store's thunk extra argument ({@link HostApiExtra}), so the SDK stays free of any
 * browser or host detail and tests can swap the transport (see `@decisio/sdk-plugin/testing`).
 */
import { createApi, type BaseQueryFn, type EndpointBuilder, type EndpointDefinitions } from '@reduxjs/toolkit/query/react';
import type { CheckTokenResponse, ErrorCodeName } from '@decisio/domain';
import type { WorkbenchUser } from './services';

/** One call: `url` is relative to `/api/` (e.g. `index/signIn`); method defaults to POST. */
export interface ApiRequest {
  url: string;
  body?: unknown;
  method?: 'POST' | 'GET' | 'PUT' | 'DELETE';
  /** Overrides the 30 s default (`LIMITS.requestTimeoutMs`); `0` means no timeout (uploads). */
  timeoutMs?: number;
}

/**
 * A failed call as seen by the caller.
 * - `kind: 'api'`: the server answered an envelope with `code !== 0` (`code`, `message`, `errors`).
 * - `kind: 'timeout'`: no answer within the timeout (`code` = `ErrorCode.timeout`).
 * - `kind: 'network'`: no answer at all (offline, server down).
 * - `kind: 'http'`: an answer that is not an envelope.
 * `handled` is `true` when the workbench already told the user (toast, sign-out redirect):
 * callers should then not show their own message.
 */
export interface ApiError {
  kind: 'api' | 'timeout' | 'network' | 'http';
  code: number;
  codeName?: ErrorCodeName;
  /** Translated message (from the server in the `Accept-Language` language, or the client). */
  message: string;
  /** Field -> translated message, for validation failures. */
  errors?: Record<string, string>;
  /** HTTP status when there was an answer. */
  status?: number;
  handled: boolean;
}

/** The base query type every endpoint of {@link baseApi} runs on. */
export type SdkBaseQuery = BaseQueryFn<ApiRequest | string, unknown, ApiError>;

/** What the host puts in the store's thunk `extraArgument` so that {@link baseApi} can call the server. */
export interface HostApiExtra {
  baseQuery: SdkBaseQuery;
}

/** Narrows an unknown error (from `unwrap()` or a hook's `error`) to an {@link ApiError}. */
export function isApiError(e: unknown): e is ApiError {
  return typeof e === 'object' && e !== null && 'kind' in e && 'code' in e && 'handled' in e;
}

const delegatingBaseQuery: SdkBaseQuery = (args, api, extraOptions) => {
  const extra = api.extra as Partial<HostApiExtra> | undefined;
  if (!extra?.baseQuery) {
    return {
      error: {
        kind: 'network',
        code: -1,
        message: 'no transport: the store was created without HostApiExtra',
        handled: false,
      },
    };
  }
  return extra.baseQuery(args, api, extraOptions);
};

/** Tag types known to the base api; plugins add theirs with `definePluginApi(id, {tagTypes})`. */
export const CORE_TAG_TYPES = ['User'] as const;

/**
 * The single RTK Query api (`reducerPath: 'api'`). Its own endpoints are the session calls
 * every plugin may need: `core/getUser` (`user/getUser`) and `core/checkToken`
 * (`user/checkToken`). Do not call `createApi` anywhere else.
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: delegatingBaseQuery,
  tagTypes: CORE_TAG_TYPES as readonly string[],
  endpoints: (build) => ({
    'core/getUser': build.query<WorkbenchUser, void>({
      query: () => ({ url: 'user/getUser' }),
      providesTags: ['User'],
    }),
    'core/checkToken': build.query<CheckTokenResponse, void>({
      query: () => ({ url: 'user/checkToken' }),
    }),
  }),
});

/** The endpoint builder handed to plugins. */
export type PluginEndpointBuilder = EndpointBuilder<SdkBaseQuery, string, 'api'>;

const injected = new WeakMap<object, unknown>();

/**
 * Adds a plugin's endpoints to {@link baseApi} and returns the api with typed hooks
 * (`api.endpoints['<pluginId>/<verb>'].useQuery()` / `.useMutation()` / `.initiate()`).
 * Endpoint names must be `<pluginId>/<verb>`; payload types should be `z.infer` of the
 * `@decisio/domain` schemas. Calling it twice with the same builder returns the same api.
 *
 * @throws Error when an endpoint name does not start with `<pluginId>/`.
 * @example
 * ```ts
 * export const projectsApi = definePluginApi('projects', (build) => ({
 *   'projects/list': build.query<Project[], void>({ query: () => ({ url: 'project/getProjectList' }) }),
 * }), { tagTypes: ['Project'] });
 * ```
 */
export function definePluginApi<D extends EndpointDefinitions>(
  pluginId: string,
  endpoints: (build: PluginEndpointBuilder) => D,
  options: { tagTypes?: readonly string[] } = {},
) {
  const cached = injected.get(endpoints);
  if (cached) return cached as ReturnType<typeof inject>;
  const checked = (build: PluginEndpointBuilder): D => {
    const defs = endpoints(build);
    for (const name of Object.keys(defs)) {
      if (!name.startsWith(`${pluginId}/`)) {
        throw new Error(`endpoint "${name}" of plugin "${pluginId}" must be named "${pluginId}/<verb>"`);
      }
    }
    return defs;
  };
  const inject = () =>
    baseApi
      .enhanceEndpoints({ addTagTypes: (options.tagTypes ?? []) as string[] })
      .injectEndpoints({ endpoints: checked, overrideExisting: false });
  const api = inject();
  injected.set(endpoints, api);
  return api;
}
