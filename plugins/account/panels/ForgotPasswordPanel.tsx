import { useState, type FormEvent } from 'react';
import { Callout, FormGroup, InputGroup, SegmentedControl } from '@blueprintjs/core';
import { emailSchema, encryptAccountPassword, ErrorCode, mobileSchema, validationMessage, type CaptchaAnswer } from '@decisio/domain';
import { BusyButton, isApiError, useNavigate, useNotify, VerificationCodeField } from '@decisio/sdk-plugin';
import { accountApi } from '../api';
import { useAccountT } from '../i18n';
import { resetFormErrors, type ResetValues } from '../model/reset-password';
import { AuthFrame } from './AuthFrame';

/**
 * Forgot password (`/forgot-password`): a code to the account's e-mail or mobile number (after a
 * captcha), then a new password encrypted as at sign-in (`index/resetPassword`).
 */
export function ForgotPasswordPanel() {
  const { t, locale } = useAccountT();
  const navigate = useNavigate();
  const notify = useNotify();
  const [values, setValues] = useState<ResetValues>({ channel: 'email', email: '', mobile: '', code: '', password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof ResetValues, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [getKey] = accountApi.endpoints['account/getPublicKey'].useMutation();
  const [captchaImage] = accountApi.endpoints['account/captchaImage'].useMutation();
  const [emailCode] = accountApi.endpoints['account/generateEmailCode'].useMutation();
  const [smsCode] = accountApi.endpoints['account/generateSmsCode'].useMutation();
  const [reset] = accountApi.endpoints['account/resetPassword'].useMutation();
  const sms = values.channel === 'sms';
  const set = <K extends keyof ResetValues>(k: K, v: ResetValues[K]) => {
    setValues((o) => ({ ...o, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const msg = (m?: string) => (m ? (m.startsWith('validation.') ? validationMessage(m, locale) : m) : undefined);
  const send = (captcha: CaptchaAnswer) =>
    sms ? smsCode({ mobile: values.mobile.trim(), purpose: 'resetPassword', ...captcha }).unwrap() : emailCode({ email: values.email.trim(), purpose: 'resetPassword', ...captcha }).unwrap();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const errs = resetFormErrors(values);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      const password = await encryptAccountPassword(await getKey().unwrap(), values.password);
      const body = sms ? { mobile: values.mobile.trim(), code: values.code.trim(), password } : { email: values.email.trim(), code: values.code.trim(), password };
      await reset(body).unwrap();
      notify({ message: t('forgot.success'), intent: 'success', icon: 'tick-circle' });
      navigate('/sign-in');
    } catch (err) {
      if (!isApiError(err)) return setFailure(t('forgot.failed'));
      if (err.handled) return;
      if ([ErrorCode.verifyCodeMismatch, ErrorCode.verifyCodeExpired, ErrorCode.codeUsed].includes(err.code as never)) setErrors({ code: err.message });
      else if (err.code === ErrorCode.newPasswordSameAsOld || err.errors?.password) setErrors({ password: err.errors?.password ?? err.message });
      else setFailure(err.message);
    } finally {
      setBusy(false);
    }
  };

  const field = (name: 'email' | 'mobile' | 'password' | 'confirmPassword', label: string, type: string, autoComplete: string) => (
    <FormGroup label={label} labelFor={`reset-${name}`} intent={errors[name] ? 'danger' : 'none'} helperText={errors[name] ? <span data-testid={`reset-${name}-error`}>{msg(errors[name])}</span> : undefined}>
      <InputGroup
        id={`reset-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={values[name]}
        intent={errors[name] ? 'danger' : 'none'}
        onValueChange={(v) => set(name, v)}
        data-testid={`reset-${name}`}
      />
    </FormGroup>
  );

  return (
    <AuthFrame testId="forgot-password-page">
      <h1 className="dc-auth-title">{t('forgot.heading')}</h1>
      <p className="dc-muted">{t('forgot.description')}</p>
      {failure && (
        <Callout intent="danger" icon="error" className="dc-gap" data-testid="reset-error">
          {failure}
        </Callout>
      )}
      <form onSubmit={submit} noValidate>
        <FormGroup>
          <SegmentedControl
            small
            value={values.channel}
            onValueChange={(v) => (set('channel', v as 'email' | 'sms'), set('code', ''))}
            options={[
              { value: 'email', label: t('forgot.byEmail') },
              { value: 'sms', label: t('forgot.bySms') },
            ]}
            data-testid="reset-channel"
          />
        </FormGroup>
        {sms ? field('mobile', t('forgot.mobile'), 'tel', 'tel') : field('email', t('forgot.email'), 'email', 'email')}
        <VerificationCodeField
          key={values.channel}
          ns="account"
          channel={values.channel}
          canSend={sms ? mobileSchema.safeParse(values.mobile.trim()).success : emailSchema.safeParse(values.email.trim()).success}
          code={values.code}
          onCodeChange={(v) => set('code', v)}
          loadCaptcha={() => captchaImage().unwrap()}
          send={send}
          error={msg(errors.code)}
          testId="reset"
        />
        {field('password', t('forgot.password'), 'password', 'new-password')}
        {field('confirmPassword', t('forgot.confirmPassword'), 'password', 'new-password')}
        <BusyButton type="submit" intent="primary" large fill loading={busy} data-testid="reset-submit">
          {t('forgot.submit')}
        </BusyButton>
      </form>
      <p className="dc-auth-switch">
        <a href="/sign-in" data-testid="reset-to-signin" onClick={(e) => (e.preventDefault(), navigate('/sign-in'))}>
          {t('forgot.toSignIn')}
        </a>
      </p>
    </AuthFrame>
  );
}
