/**
 * The error catalogue shared by the server and the workbench.
 *
 * Every reply of the server is an envelope `{code, data, message}`. `code` is one of the numbers
 * below (`0` is success). Each code has an HTTP status and a message in both languages
 * (see `messages.ts`). Codes never change once published; new ones are appended per group.
 *
 * Groups (spec platform §8, workflow §8): 1xxx general, 2xxx user, 3xxx tenant, 4xxx project,
 * 5xxx table, 6xxx storage and quota, 7xxx licence/SDK, 8xxx modelling, 9xxx deploy, 10001-10019
 * feedback-control trial.
 */
export const ErrorCode = {
  success: 0,

  // general
  failure: 1000,
  timeout: 1001,
  internalError: 1002,
  rpcError: 1003,
  tokenExpired: 1004,
  tokenInvalid: 1005,
  tokenCreateFailed: 1006,
  unauthorized: 1007,
  paramInvalid: 1008,
  notFound: 1009,
  databaseError: 1010,
  nameUsed: 1011,
  codeUsed: 1012,
  sortKeyError: 1013,
  authorizationFailed: 1014,
  userNotPermission: 1015,
  dictionaryInvalid: 1016,
  wrongLoginMethod: 1017,
  accessKeyFailed: 1018,
  platformError: 1019,
  tooManyRequests: 1020,
  bodyTooLarge: 1021,
  // scheduled jobs (1030-1039)
  scheduleNotFound: 1030,
  cronInvalid: 1031,
  scheduleStateInvalid: 1032,
  datasetNotImported: 1033,

  // user
  emailRegistered: 2001,
  mobileRegistered: 2002,
  usernameRegistered: 2003,
  companyRegistered: 2004,
  campusEmailUsed: 2005,
  wrongLoginNameOrPassword: 2006,
  userLocked: 2007,
  userBanned: 2008,
  deleteAccountFailed: 2009,
  createAccountFailed: 2010,
  storageTenantCreateFailed: 2011,
  bucketCreateFailed: 2012,
  passwordError: 2013,
  verifyCodeMismatch: 2014,
  verifyCodeExpired: 2015,
  newPasswordSameAsOld: 2016,
  userNotFound: 2017,
  accountNotRegistered: 2018,
  mustHaveRole: 2019,
  originalPasswordWrong: 2020,
  passwordNonceInvalid: 2021,
  captchaRequired: 2022,
  captchaMismatch: 2023,
  codeSendFailed: 2024,
  accountBusy: 2025,
  captchaExpired: 2026,

  messageNotFound: 2040,
  workOrderNotFound: 2041,
  workOrderAlreadyReplied: 2042,
  contactMethodRequired: 2043,
  // student trial and contact-form entries (2060-2069)
  studentCertificationExpired: 2060,
  contactRequestNotFound: 2061,
  contactRequestHandled: 2062,

  // tenant
  tenantNotExists: 3001,
  // administration (3002-3019, 2050-2059)
  tenantHasData: 3002,
  tenantCodeUsed: 3003,
  inviteInvalid: 3004,
  roleNotFound: 2050,
  roleInUse: 2051,
  menuNotFound: 2052,
  menuHasChildren: 2053,
  orgNotFound: 2054,
  orgHasMembers: 2055,
  passwordChangeRequired: 2056,

  // project
  projectIdIllegal: 4001,
  projectLocked: 4002,
  projectNotFound: 4003,
  projectNameUsed: 4004,
  projectHasTraining: 4005,
  projectNoRight: 4006,
  // template storehouse and model market (issue 20, 4020-4039)
  recognitionNotFound: 4020,
  templateMappingInvalid: 4021,
  storehouseTemplateNotFound: 4022,
  marketModelNotFound: 4023,
  marketVersionNotFound: 4024,
  marketSourceNotTrained: 4025,
  marketSourceUnsupported: 4026,
  marketNameUsed: 4027,
  marketNoRight: 4028,
  marketOnnxMissing: 4029,
  marketPublicNotAllowed: 4030,
  marketKindMismatch: 4031,

  // table / dataset
  tableParamError: 5001,
  tableNotFound: 5002,
  tableNoData: 5003,
  tableNameUsed: 5004,
  tableFieldsMismatch: 5005,
  tableInUse: 5006,
  tableFileFormatError: 5007,
  tableRepeatedColumns: 5008,
  datasetEmpty: 5009,
  importFailed: 5010,
  importTimeout: 5011,
  dataSourceNotFound: 5012,
  dataSourceUnreachable: 5013,
  dataSourceNameUsed: 5014,
  importNotRunning: 5015,
  importTooManyRows: 5016,
  tableCopyFailed: 5017,

  // storage and quotas
  storageInsufficient: 6001,
  storageOutOfRange: 6002,
  poolQuotaExceeded: 6003,
  resourceQuotaExceeded: 6004,
  fileNotFound: 6005,
  platformQuotaExceeded: 6006,

  // licence / SDK
  sdkLicenceExists: 7001,
  licenceExpired: 7002,
  userKeyNotExpired: 7003,
  sdkVersionNotFound: 7004,
  sdkVersionExists: 7005,
  sdkPackageMissing: 7006,
  licenceNotFound: 7007,
  licenceDeviceFileInvalid: 7008,
  licenceStateInvalid: 7009,
  userKeyMissing: 7010,
  serviceManagementNotFound: 7011,
  serviceManagementExists: 7012,
  studentOnly: 7013,
  licenceRenewalTooEarly: 7014,
  verifyCodeUnavailable: 7015,

  // modelling
  solutionNotFound: 8001,
  schemeNotFound: 8002,
  simulatorNotFound: 8003,
  solutionNameUsed: 8004,
  objectiveNameUsed: 8005,
  reportNameUsed: 8006,
  environmentNameUsed: 8007,
  objectiveHasTraining: 8008,
  objectiveNoPrimaryFile: 8009,
  insufficientResources: 8010,
  schemeLimitReached: 8011,
  schemeTimeInvalid: 8012,
  graphInvalid: 8013,
  trainNoStopCondition: 8014,
  trainDurationInvalid: 8015,
  trainExpectedValueRange: 8016,
  trainSearchRange: 8017,
  trainZooptTrials: 8018,
  trainNameUsed: 8019,
  gitUrlInvalid: 8020,
  dataProcessUnfinished: 8021,
  trainNotFound: 8022,
  trainNotStoppable: 8023,
  objectiveNotFound: 8024,
  policyNotFound: 8025,
  hyperparameterNotFound: 8026,
  hyperparameterNameUsed: 8027,
  deductionNotFound: 8028,
  patternMissing: 8029,
  deleteNotAcknowledged: 8030,
  breakpointNotActive: 8031,
  reportNotFound: 8032,
  reportDecisionsSame: 8033,
  reportDecisionUnfinished: 8034,
  objectiveBroken: 8035,
  jobNotFound: 8036,
  // the project's default algorithm image version (8037-8038): its jobs run only on workers of it
  trainWorkerVersionMismatch: 8037,
  trainEngineVersionUnavailable: 8038,
  // SAC decides continuous fields only
  trainAlgorithmUnfit: 8039,
  // REVIVE folder import (issue 22, 8050-8059)
  reviveYamlInvalid: 8050,
  reviveFeatureUnsupported: 8051,
  reviveDataInvalid: 8052,

  // deploy
  deployAlreadyDeployed: 9001,
  deployPolicyUsed: 9002,
  deployDeleted: 9003,
  deployNotFound: 9004,
  deployNotRunning: 9005,
  deployServiceRunning: 9006,
  deployStateInvalid: 9007,
  deployTokenInvalid: 9008,
  deployInputInvalid: 9009,
  deployNameUsed: 9010,
  deployDecisionNotFound: 9011,
  deployNoRecords: 9012,
  deployTokenExpired: 9013,

  // feedback-control trial (10001-10019): data quality of a trial file (10000 + the spec's
  // status 1-10, see gfs/index.ts GFS_QUALITY) and saved results
  gfsFileMissing: 10001,
  gfsReadFailed: 10002,
  gfsKeyMissing: 10003,
  gfsTooShort: 10004,
  gfsNanValues: 10005,
  gfsNoVariation: 10006,
  gfsNotNumeric: 10007,
  gfsUnknown: 10010,
  pidDataNotFound: 10011,

  // SSH debug terminal (10020-10029, spec platform §8 SSH messages)
  sshWrongPassword: 10020,
  sshNoSession: 10021,
  sshInfoFailed: 10022,
  sshConnectFailed: 10023,
  sshHostRefused: 10024,
  sshTooManySessions: 10025,
  // SSH host keys (10026-10029): trust on first use per user and host, or the operator's known hosts
  sshHostKeyUnknown: 10026,
  sshHostKeyChanged: 10027,
  // trainSSH/getTrainSSH: the worker cannot confine a terminal (no bubblewrap there): none is opened
  sshTerminalUnconfined: 10028,
} as const;

/** Name of an error code, e.g. `'tokenExpired'`. */
export type ErrorCodeName = keyof typeof ErrorCode;
/** Numeric value of an error code. */
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

const byValue = new Map<number, ErrorCodeName>(
  (Object.entries(ErrorCode) as [ErrorCodeName, number][]).map(([k, v]) => [v, k]),
);

/** Looks up the name of a numeric code; `undefined` for unknown numbers. */
export function codeName(code: number): ErrorCodeName | undefined {
  return byValue.get(code);
}

/**
 * Codes after which the client must drop the session: a toast asks to sign in again and the
 * user goes to `/` (spec platform §8), except for the `user/checkToken` call itself.
 */
export const SIGN_OUT_CODES: ReadonlySet<number> = new Set([
  ErrorCode.tokenExpired,
  ErrorCode.tokenInvalid,
  ErrorCode.tenantNotExists,
  ErrorCode.userNotPermission,
  ErrorCode.unauthorized,
  ErrorCode.projectIdIllegal,
]);

/** Codes shown as the full-storage toast. */
export const STORAGE_FULL_CODES: ReadonlySet<number> = new Set([
  ErrorCode.poolQuotaExceeded,
  ErrorCode.storageInsufficient,
  ErrorCode.storageOutOfRange,
]);

/** HTTP status that accompanies each code. Codes not listed answer 400 (business rule) . */
export function httpStatusOf(code: number): number {
  switch (code) {
    case ErrorCode.success:
      return 200;
    case ErrorCode.tokenExpired:
    case ErrorCode.tokenInvalid:
    case ErrorCode.unauthorized:
    case ErrorCode.tokenCreateFailed:
    case ErrorCode.deployTokenInvalid:
    case ErrorCode.deployTokenExpired:
      return 401;
    case ErrorCode.userNotPermission:
    case ErrorCode.authorizationFailed:
    case ErrorCode.mustHaveRole:
    case ErrorCode.userBanned:
    case ErrorCode.userLocked:
    case ErrorCode.tenantNotExists:
    case ErrorCode.projectNoRight:
    case ErrorCode.marketNoRight:
    case ErrorCode.marketPublicNotAllowed:
    case ErrorCode.passwordChangeRequired:
      return 403;
    case ErrorCode.notFound:
    case ErrorCode.scheduleNotFound:
    case ErrorCode.userNotFound:
    case ErrorCode.roleNotFound:
    case ErrorCode.menuNotFound:
    case ErrorCode.orgNotFound:
    case ErrorCode.projectNotFound:
    case ErrorCode.recognitionNotFound:
    case ErrorCode.storehouseTemplateNotFound:
    case ErrorCode.marketModelNotFound:
    case ErrorCode.marketVersionNotFound:
    case ErrorCode.marketOnnxMissing:
    case ErrorCode.tableNotFound:
    case ErrorCode.fileNotFound:
    case ErrorCode.solutionNotFound:
    case ErrorCode.schemeNotFound:
    case ErrorCode.simulatorNotFound:
    case ErrorCode.deployNotFound:
    case ErrorCode.deployDecisionNotFound:
    case ErrorCode.trainNotFound:
    case ErrorCode.jobNotFound:
    case ErrorCode.objectiveNotFound:
    case ErrorCode.policyNotFound:
    case ErrorCode.hyperparameterNotFound:
    case ErrorCode.deductionNotFound:
    case ErrorCode.reportNotFound:
    case ErrorCode.dataSourceNotFound:
    case ErrorCode.sdkVersionNotFound:
    case ErrorCode.licenceNotFound:
    case ErrorCode.serviceManagementNotFound:
    case ErrorCode.messageNotFound:
    case ErrorCode.workOrderNotFound:
    case ErrorCode.contactRequestNotFound:
    case ErrorCode.pidDataNotFound:
    case ErrorCode.sshNoSession:
    // trainSSH/getTrainSSH: nothing tells a job of another user or tenant from a missing one
    case ErrorCode.sshInfoFailed:
      return 404;
    case ErrorCode.bodyTooLarge:
      return 413;
    case ErrorCode.tooManyRequests:
      return 429;
    case ErrorCode.timeout:
      return 504;
    case ErrorCode.dataSourceUnreachable:
      return 502;
    case ErrorCode.internalError:
    case ErrorCode.databaseError:
    case ErrorCode.rpcError:
    case ErrorCode.platformError:
    case ErrorCode.failure:
      return 500;
    default:
      return 400;
  }
}
