/** User-centre calls (spec platform §7): endpoints `user-centre/<verb>` on the base api. */
import type {
  CaptchaImageResponse,
  DeleteImpact,
  EditUserInfoRequest,
  GenerateCodeResponse,
  GenerateEmailCodeRequest,
  GenerateSmsCodeRequest,
  ModifyPasswordRequest,
  OutboxListRequest,
  OutboxListResponse,
  PublicKeyResponse,
  SignInRecord,
  UpdateUserCenterRequest,
  UserInfo,
} from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const INFO = { type: 'UserInfo' as const, id: 'ME' };
const RECORDS = { type: 'SignInRecord' as const, id: 'LIST' };

/** The endpoint builder, also listed in the manifest's `endpoints`. */
export const userCentreEndpoints = (build: PluginEndpointBuilder) => ({
  'user-centre/info': build.query<UserInfo, void>({ query: () => ({ url: 'users/getUserInfo' }), providesTags: [INFO] }),
  'user-centre/edit': build.mutation<UserInfo, EditUserInfoRequest>({ query: (body) => ({ url: 'user/editUserInfo', body }), invalidatesTags: [INFO, 'User'] }),
  'user-centre/update': build.mutation<UserInfo, UpdateUserCenterRequest>({ query: (body) => ({ url: 'users/updateUserCenter', body }), invalidatesTags: [INFO, 'User'] }),
  'user-centre/records': build.query<SignInRecord[], { limit: number }>({ query: (body) => ({ url: 'user/getLastSignInRecord', body }), providesTags: [RECORDS] }),
  'user-centre/getPublicKey': build.mutation<PublicKeyResponse, void>({ query: () => ({ url: 'index/getPublicKey' }) }),
  'user-centre/modifyPassword': build.mutation<{ userId: string }, ModifyPasswordRequest>({ query: (body) => ({ url: 'user/modifyPassword', body }), invalidatesTags: [RECORDS, 'User'] }),
  'user-centre/deleteImpact': build.query<DeleteImpact, void>({ query: () => ({ url: 'user/getDeleteImpact' }) }),
  'user-centre/deleteUser': build.mutation<{ userId: string; deletedProjects: number }, { confirm: string }>({ query: (body) => ({ url: 'user/deleteUser', body }) }),
  'user-centre/captchaImage': build.mutation<CaptchaImageResponse, void>({ query: () => ({ url: 'captcha/captchaImage' }) }),
  'user-centre/generateEmailCode': build.mutation<GenerateCodeResponse, GenerateEmailCodeRequest>({ query: (body) => ({ url: 'index/generateEmailCode', body }) }),
  'user-centre/generateSmsCode': build.mutation<GenerateCodeResponse, GenerateSmsCodeRequest>({ query: (body) => ({ url: 'index/generateSmsCode', body }) }),
  'user-centre/outbox': build.query<OutboxListResponse, OutboxListRequest>({ query: (body) => ({ url: 'outbox/getOutboxList', body }) }),
});

/** The user-centre api with typed hooks. */
export const userCentreApi = definePluginApi('user-centre', userCentreEndpoints, { tagTypes: ['UserInfo', 'SignInRecord'] });
