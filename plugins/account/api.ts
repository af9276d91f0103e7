/** Account calls (spec platform §7): endpoints `account/<verb>` on the base api. */
import type {
  CaptchaImageResponse,
  ExpirationTimeRequest,
  ExpirationTimeResponse,
  GenerateCodeResponse,
  GenerateEmailCodeRequest,
  GenerateSmsCodeRequest,
  PublicKeyResponse,
  ResetPasswordRequest,
  SignInRequest,
  SignInResponse,
  SignUpRequest,
  UserInfo,
  VerifyCodeResponse,
  VerifyEmailCodeRequest,
  VerifySmsCodeRequest,
} from '@decisio/domain';
import type { z } from 'zod';
import type { signUpRequestSchema } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

/** The `index/signUp` body as the client writes it (`codeChannel` defaults to e-mail). */
export type SignUpInput = z.input<typeof signUpRequestSchema>;

/** The endpoint builder, also listed in the manifest's `endpoints`. */
export const accountEndpoints = (build: PluginEndpointBuilder) => ({
  'account/getPublicKey': build.mutation<PublicKeyResponse, void>({ query: () => ({ url: 'index/getPublicKey' }) }),
  'account/signIn': build.mutation<SignInResponse, SignInRequest>({ query: (body) => ({ url: 'index/signIn', body }) }),
  'account/signUp': build.mutation<unknown, SignUpInput | SignUpRequest>({ query: (body) => ({ url: 'index/signUp', body }) }),
  'account/signOut': build.mutation<unknown, void>({ query: () => ({ url: 'user/signOut' }) }),
  'account/captchaImage': build.mutation<CaptchaImageResponse, void>({ query: () => ({ url: 'captcha/captchaImage' }) }),
  'account/generateEmailCode': build.mutation<GenerateCodeResponse, GenerateEmailCodeRequest>({ query: (body) => ({ url: 'index/generateEmailCode', body }) }),
  'account/generateSmsCode': build.mutation<GenerateCodeResponse, GenerateSmsCodeRequest>({ query: (body) => ({ url: 'index/generateSmsCode', body }) }),
  /** Checks a code without using it up (sign-up checks it before leaving its first step). */
  'account/verifyEmailCode': build.mutation<VerifyCodeResponse, VerifyEmailCodeRequest>({ query: (body) => ({ url: 'index/verifyEmailCode', body }) }),
  'account/verifySmsCode': build.mutation<VerifyCodeResponse, VerifySmsCodeRequest>({ query: (body) => ({ url: 'index/verifySmsCode', body }) }),
  /** Code lifetime, resend pause and, for a recipient, the seconds before another code may be sent. */
  'account/expirationTime': build.mutation<ExpirationTimeResponse, ExpirationTimeRequest>({ query: (body) => ({ url: 'index/expirationTime', body }) }),
  'account/userInfo': build.mutation<UserInfo, void>({ query: () => ({ url: 'users/getUserInfo' }) }),
  'account/resetPassword': build.mutation<{ userId: string }, ResetPasswordRequest>({ query: (body) => ({ url: 'index/resetPassword', body }) }),
});

/** The account api with typed hooks. */
export const accountApi = definePluginApi('account', accountEndpoints);
