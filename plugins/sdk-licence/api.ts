/** SDK, licence and authorisation-service calls (spec platform §7): endpoints `sdk-licence/<verb>`. */
import type {
  CaptchaAnswer,
  CaptchaImageResponse,
  CreateSdkLicenceRequest,
  CreateSdkVersionRequest,
  CreateServiceManagementRequest,
  CreateUserKeyResponse,
  GenerateCodeResponse,
  Page,
  ReviewSdkLicenceRequest,
  SdkLicenceItem,
  SdkLicenceListRequest,
  SdkVersionItem,
  ServiceManagementItem,
  ServiceManagementListRequest,
  ServiceManagementListResponse,
} from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '@decisio/sdk-plugin';

const VERSIONS = { type: 'SdkVersion' as const, id: 'LIST' };
const LICENCES = { type: 'SdkLicence' as const, id: 'LIST' };
const SERVICES = { type: 'ServiceManagement' as const, id: 'LIST' };

/** The endpoint builder, also listed in the manifest's `endpoints`. */
export const licenceEndpoints = (build: PluginEndpointBuilder) => ({
  'sdk-licence/versions': build.query<Page<SdkVersionItem>, { withPackage?: boolean }>({ query: (body) => ({ url: 'sdkVersion/getSdkVersionList', body }), providesTags: [VERSIONS] }),
  'sdk-licence/createVersion': build.mutation<SdkVersionItem, CreateSdkVersionRequest>({ query: (body) => ({ url: 'sdkVersion/createSdkVersion', body }), invalidatesTags: [VERSIONS] }),
  'sdk-licence/deleteVersion': build.mutation<{ id: string }, { id: string }>({ query: (body) => ({ url: 'sdkVersion/deleteSdkVersion', body }), invalidatesTags: [VERSIONS] }),
  'sdk-licence/licences': build.query<Page<SdkLicenceItem>, SdkLicenceListRequest>({ query: (body) => ({ url: 'sdkLicense/getSdkLicenseList', body }), providesTags: [LICENCES] }),
  'sdk-licence/apply': build.mutation<SdkLicenceItem, CreateSdkLicenceRequest>({ query: (body) => ({ url: 'sdkLicense/createSdkLicense', body }), invalidatesTags: [LICENCES] }),
  'sdk-licence/review': build.mutation<SdkLicenceItem, ReviewSdkLicenceRequest>({ query: (body) => ({ url: 'sdkLicense/reviewSdkLicense', body }), invalidatesTags: [LICENCES] }),
  'sdk-licence/renew': build.mutation<SdkLicenceItem, { id: string }>({ query: (body) => ({ url: 'sdkLicense/renewSdkLicense', body }), invalidatesTags: [LICENCES] }),
  'sdk-licence/services': build.query<ServiceManagementListResponse, ServiceManagementListRequest>({ query: (body) => ({ url: 'userCenter/getServiceManagementList', body }), providesTags: [SERVICES] }),
  'sdk-licence/createService': build.mutation<ServiceManagementItem, CreateServiceManagementRequest>({ query: (body) => ({ url: 'userCenter/createServiceManagement', body }), invalidatesTags: [SERVICES] }),
  'sdk-licence/reviewService': build.mutation<ServiceManagementItem, ReviewSdkLicenceRequest>({ query: (body) => ({ url: 'userCenter/reviewServiceManagement', body }), invalidatesTags: [SERVICES] }),
  'sdk-licence/createKey': build.mutation<CreateUserKeyResponse, void>({ query: () => ({ url: 'userCenter/createUserPrivateKey', body: {} }), invalidatesTags: [SERVICES] }),
  'sdk-licence/captcha': build.mutation<CaptchaImageResponse, void>({ query: () => ({ url: 'captcha/captchaImage' }) }),
  'sdk-licence/sendEmailCode': build.mutation<GenerateCodeResponse, CaptchaAnswer & { email: string }>({ query: (b) => ({ url: 'index/generateEmailCode', body: { ...b, purpose: 'licence' } }) }),
  'sdk-licence/sendSmsCode': build.mutation<GenerateCodeResponse, CaptchaAnswer & { mobile: string }>({ query: (b) => ({ url: 'index/generateSmsCode', body: { ...b, purpose: 'licence' } }) }),
});

/** Cache tags of this plugin. */
export const LICENCE_TAG_TYPES = ['SdkVersion', 'SdkLicence', 'ServiceManagement'] as const;

/** The SDK-licence api with typed hooks. */
export const licenceApi = definePluginApi('sdk-licence', licenceEndpoints, { tagTypes: LICENCE_TAG_TYPES });
