import type { CodePurpose, Locale } from '@decisio/domain';

const PURPOSE: Record<Locale, Record<CodePurpose, string>> = {
  'en-US': { signUp: 'sign up', resetPassword: 'reset your password', changeContact: 'change your contact details', student: 'certify your student status', licence: 'confirm your SDK licence application' },
  'zh-CN': { signUp: '注册账号', resetPassword: '重置密码', changeContact: '修改联系方式', student: '学生认证', licence: '确认 SDK 授权申请' },
};

/** Subject and text of a code message, in the asker's language. */
export function codeMessage(locale: Locale, purpose: CodePurpose, code: string, minutes: number): { subject: string; body: string } {
  const what = PURPOSE[locale][purpose];
  if (locale === 'en-US') {
    return {
      subject: 'Your verification code',
      body: `Your verification code to ${what} is ${code}. It is valid for ${minutes} minutes and can be used once. If you did not ask for it, ignore this message.`,
    };
  }
  return {
    subject: '您的验证码',
    body: `您正在${what}，验证码为 ${code}，${minutes} 分钟内有效，仅可使用一次。如非本人操作，请忽略本消息。`,
  };
}
