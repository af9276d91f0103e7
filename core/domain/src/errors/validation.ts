import type { Locale } from './messages';

/**
 * Messages of field validation rules. Zod schemas in this package use these keys as their
 * messages (`'validation.usernameLength'`); the server translates them into the envelope's
 * `errors` map and the workbench shows them under the field.
 */
const en = {
  required: 'This field is required',
  usernameLength: 'Username must be 5-20 characters',
  usernameChars: 'Username may contain only letters, digits and underscores',
  passwordLength: 'Password must be 8-32 characters',
  passwordDigit: 'Password must contain a digit',
  passwordLower: 'Password must contain a lowercase letter',
  passwordUpper: 'Password must contain an uppercase letter',
  passwordMismatch: 'The passwords do not match',
  agreement: 'Please read and accept the user agreement and privacy policy',
  mobile: 'Enter a valid mobile number',
  email: 'Enter a valid e-mail address',
  campusEmail: 'The campus e-mail must end with edu.cn',
  nickname: 'Nickname may contain letters, digits, Chinese, dot, dash and underscore',
  smsCode: 'The SMS code is 6 digits',
  emailCode: 'The e-mail code is 6 letters or digits',
  captcha: 'Enter the characters of the picture',
  confirmDelete: 'Type your username exactly to confirm',
  avatar: 'The avatar must be a PNG, JPEG or WebP picture of at most 256 KB',
  verifyCode: 'The verification code has 6 digits',
  tooLong: 'Too long: at most {{max}} characters',
  tooShort: 'Too short: at least {{min}} characters',
  invalid: 'Invalid value',
  jdbcUrl: 'Enter a JDBC URL such as jdbc:mysql://host:3306/db or jdbc:postgresql://host:5432/db, matching the type',
  tokenExpiry: 'Choose an expiry date in the future, at most 10 years ahead',
  imageVersion: 'Choose one of the listed engine versions (those of the online machines)',
} as const;

export type ValidationKey = keyof typeof en;

const zh: Record<ValidationKey, string> = {
  required: '此项为必填项',
  usernameLength: '用户名长度为 5-20 个字符',
  usernameChars: '用户名只能包含字母、数字和下划线',
  passwordLength: '密码长度为 8-32 个字符',
  passwordDigit: '密码必须包含数字',
  passwordLower: '密码必须包含小写字母',
  passwordUpper: '密码必须包含大写字母',
  passwordMismatch: '两次输入的密码不一致',
  agreement: '请阅读并同意用户协议和隐私政策',
  mobile: '请输入有效的手机号',
  email: '请输入有效的邮箱地址',
  campusEmail: '校园邮箱必须以 edu.cn 结尾',
  nickname: '昵称只能包含字母、数字、中文、点、短横线和下划线',
  smsCode: '短信验证码为 6 位数字',
  emailCode: '邮箱验证码为 6 位字母或数字',
  captcha: '请输入图片中的字符',
  confirmDelete: '请准确输入您的用户名以确认',
  avatar: '头像须为 PNG、JPEG 或 WebP 图片，最大 256 KB',
  verifyCode: '验证码为 6 位',
  tooLong: '过长：最多 {{max}} 个字符',
  tooShort: '过短：至少 {{min}} 个字符',
  invalid: '值不合法',
  jdbcUrl: '请输入与类型一致的 JDBC URL，例如 jdbc:mysql://host:3306/db 或 jdbc:postgresql://host:5432/db',
  tokenExpiry: '请选择未来 10 年内的过期日期',
  imageVersion: '请选择列表中的引擎版本（在线机器的版本）',
};

/** All validation messages of a locale, keyed without the `validation.` prefix. */
export const VALIDATION_MESSAGES: Record<Locale, Record<ValidationKey, string>> = {
  'en-US': en,
  'zh-CN': zh,
};

/**
 * Translates a zod issue message. Keys look like `validation.<key>`; anything else (zod's own
 * English defaults) becomes the generic "invalid value" text of the locale.
 */
export function validationMessage(
  message: string,
  locale: Locale,
  params: Record<string, string | number> = {},
): string {
  const key = message.startsWith('validation.') ? message.slice('validation.'.length) : 'invalid';
  const table = VALIDATION_MESSAGES[locale];
  const text = (table as Record<string, string>)[key] ?? table.invalid;
  return text.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params[p] ?? ''));
}
