/** Account calls (spec platform §7): endpoints `account/<verb>` on the base api. */
import type { PublicKeyResponse, SignInRequest, SignInResponse, SignUpRequest } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

/** The endpoint builder, also listed in the manifest's `endpoints`. */
export const accountEndpoints = (build: PluginEndpointBuilder) => ({
  'account/getPublicKey': build.mutation<PublicKeyResponse, void>({ query: () => ({ url: 'index/getPublicKey' }) }),
  'account/signIn': build.mutation<SignInResponse, SignInRequest>({ query: (body) => ({ url: 'index/signIn', body }) }),
  'account/signUp': build.mutation<unknown, SignUpRequest>({ query: (body) => ({ url: 'index/signUp', body }) }),
  'account/signOut': build.mutation<unknown, void>({ query: () => ({ url: 'user/signOut' }) }),
});

/** The account api with typed hooks. */
export const accountApi = definePluginApi('account', accountEndpoints);
