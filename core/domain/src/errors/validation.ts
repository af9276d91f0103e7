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
  cronFieldCount: 'A cron expression has 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first; this one has {{count}}',
  cronRange: 'The {{field}} field must be between {{min}} and {{max}}; got {{value}}',
  cronName: 'Unknown name "{{name}}" in the {{field}} field',
  cronAlias: 'Unknown shortcut "{{name}}": use @yearly, @monthly, @weekly, @daily or @hourly',
  cronInvalid: 'Not a valid cron expression: check the ranges and steps of each field',
  cronFieldSecond: 'second',
  cronFieldMinute: 'minute',
  cronFieldHour: 'hour',
  cronFieldDayOfMonth: 'day-of-month',
  cronFieldMonth: 'month',
  cronFieldDayOfWeek: 'day-of-week',
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
  cronFieldCount: 'Cron 表达式应有 5 个字段（分 时 日 月 周），或以秒开头的 6 个字段；当前为 {{count}} 个',
  cronRange: '“{{field}}”字段的取值范围为 {{min}} 到 {{max}}，当前为 {{value}}',
  cronName: '“{{field}}”字段中有无法识别的名称“{{name}}”',
  cronAlias: '无法识别的快捷写法“{{name}}”：可用 @yearly、@monthly、@weekly、@daily 或 @hourly',
  cronInvalid: 'Cron 表达式不合法：请检查各字段的范围和步长',
  cronFieldSecond: '秒',
  cronFieldMinute: '分',
  cronFieldHour: '时',
  cronFieldDayOfMonth: '日',
  cronFieldMonth: '月',
  cronFieldDayOfWeek: '周',
};

/** All validation messages of a locale, keyed without the `validation.` prefix. */
export const VALIDATION_MESSAGES: Record<Locale, Record<ValidationKey, string>> = {
  'en-US': en,
  'zh-CN': zh,
};

/**
 * A `validation.*` key with its parameters, for a field error that travels as a string (the
 * `details` of an `AppError`): `validation.<key>?name=value&...`. {@link validationMessage} reads
 * the parameters back; a parameter that is itself a `validation.*` key (a field's name) is
 * translated too.
 */
export function validationKey(key: ValidationKey, params: Record<string, string | number> = {}): string {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return query ? `validation.${key}?${query}` : `validation.${key}`;
}

/**
 * Translates a zod issue message, or a key made by {@link validationKey}. Keys look like
 * `validation.<key>`, optionally with `?name=value&...` parameters (merged over `params`);
 * anything else (zod's own English defaults) becomes the generic "invalid value" text of the
 * locale.
 */
export function validationMessage(
  message: string,
  locale: Locale,
  params: Record<string, string | number> = {},
): string {
  const table = VALIDATION_MESSAGES[locale] as Record<string, string>;
  const lookup = (k: string) => table[k.slice('validation.'.length)];
  let key = message;
  const all: Record<string, string | number> = { ...params };
  const q = message.indexOf('?');
  if (message.startsWith('validation.') && q >= 0) {
    key = message.slice(0, q);
    for (const [k, v] of new URLSearchParams(message.slice(q + 1))) all[k] = v.startsWith('validation.') ? (lookup(v) ?? v) : v;
  }
  const text = (key.startsWith('validation.') ? lookup(key) : undefined) ?? table['invalid']!;
  return text.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(all[p] ?? ''));
}
