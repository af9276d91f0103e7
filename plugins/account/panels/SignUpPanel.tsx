import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Callout, Checkbox, FormGroup, HTMLSelect, InputGroup, SegmentedControl } from '@blueprintjs/core';
import { emailSchema, encryptAccountPassword, mobileSchema, OCCUPATIONS, validationMessage, type CaptchaAnswer, type Occupation } from '@decisio/domain';
import { BusyButton, isApiError, useAppLocation, useNavigate, useNotify, VerificationCodeField } from '@decisio/sdk-plugin';
import { accountApi } from '../api';
import { useAccountT } from '../i18n';
import { EMPTY_SIGN_UP, serverErrorsToFields, STEP_FIELDS, toSignUpRequest, validateStep, type FieldErrors, type SignUpStep, type SignUpValues } from '../model/sign-up';
import { AuthFrame } from './AuthFrame';

type TextField = Exclude<keyof SignUpValues, 'agreement' | 'occupation' | 'codeChannel'>;

/** Sign-up in three steps (`/sign-up`): basic info, personal info, set password. */
export function SignUpPanel() {
  const { t, locale } = useAccountT();
  const navigate = useNavigate();
  const notify = useNotify();
  // A tenant's invitation link (`/sign-up?invite=<code>`): the account joins that tenant.
  const invite = useAppLocation().search.invite;
  const [step, setStep] = useState<SignUpStep>(0);
  const [values, setValues] = useState<SignUpValues>(EMPTY_SIGN_UP);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [getKey] = accountApi.endpoints['account/getPublicKey'].useMutation();
  const [signUp] = accountApi.endpoints['account/signUp'].useMutation();
  const [captchaImage] = accountApi.endpoints['account/captchaImage'].useMutation();
  const [emailCode] = accountApi.endpoints['account/generateEmailCode'].useMutation();
  const [smsCode] = accountApi.endpoints['account/generateSmsCode'].useMutation();
  const [verifyEmail] = accountApi.endpoints['account/verifyEmailCode'].useMutation();
  const [verifySms] = accountApi.endpoints['account/verifySmsCode'].useMutation();
  const sendCode = (captcha: CaptchaAnswer) =>
    values.codeChannel === 'sms'
      ? smsCode({ mobile: values.mobile.trim(), purpose: 'signUp', ...captcha }).unwrap()
      : emailCode({ email: values.email.trim(), purpose: 'signUp', ...captcha }).unwrap();
  const [expiration] = accountApi.endpoints['account/expirationTime'].useMutation();
  const recipient = values.codeChannel === 'sms' ? values.mobile.trim() : values.email.trim();
  const recipientValid = values.codeChannel === 'sms' ? mobileSchema.safeParse(values.mobile.trim()).success : emailSchema.safeParse(values.email.trim()).success;
  const formRef = useRef<HTMLFormElement>(null);

  const set = <K extends keyof SignUpValues>(k: K, v: SignUpValues[K]) => {
    setValues((o) => ({ ...o, [k]: v }));
    if (errors[k]) setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const msg = (m?: string) => (m ? (m.startsWith('validation.') ? validationMessage(m, locale) : m) : undefined);

  const focusFirstError = (errs: FieldErrors, s: SignUpStep) => {
    const first = STEP_FIELDS[s].find((f) => errs[f]);
    if (first) setTimeout(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus(), 0);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const errs = validateStep(step, values);
    setErrors(errs);
    if (Object.keys(errs).length) {
      focusFirstError(errs, step);
      return;
    }
    if (step === 0) {
      // The code is checked (not used up) before leaving the step that asked for it.
      setBusy(true);
      try {
        const code = values.code.trim();
        await (values.codeChannel === 'sms' ? verifySms({ mobile: values.mobile.trim(), purpose: 'signUp', code }) : verifyEmail({ email: values.email.trim(), purpose: 'signUp', code })).unwrap();
        setStep(1);
      } catch (err) {
        if (isApiError(err)) {
          if (err.handled) return;
          const mapped = serverErrorsToFields(err);
          setErrors(mapped.fields);
          setFailure(mapped.general);
          focusFirstError(mapped.fields, 0);
        } else {
          setFailure(t('signUp.failed'));
        }
      } finally {
        setBusy(false);
      }
      return;
    }
    if (step < 2) {
      setStep((step + 1) as SignUpStep);
      return;
    }
    setBusy(true);
    try {
      const key = await getKey().unwrap();
      const encrypted = await encryptAccountPassword(key, values.password);
      await signUp({ ...toSignUpRequest(values, encrypted), ...(invite ? { invite } : {}) }).unwrap();
      notify({ message: t('signUp.success'), intent: 'success', icon: 'tick-circle' });
      navigate('/sign-in', { search: { username: values.username.trim() } });
    } catch (err) {
      if (isApiError(err)) {
        if (err.handled) return;
        const mapped = serverErrorsToFields(err);
        setErrors(mapped.fields);
        setFailure(mapped.general);
        if (mapped.step !== null) {
          setStep(mapped.step);
          focusFirstError(mapped.fields, mapped.step);
        }
      } else {
        setFailure(t('signUp.failed'));
      }
    } finally {
      setBusy(false);
    }
  };

  const text = (name: TextField, label: string, opts: { type?: string; optional?: boolean; help?: string; placeholder?: string; autoComplete?: string; autoFocus?: boolean; testId: string }) => (
    <FormGroup
      label={label}
      labelFor={`signup-${name}`}
      labelInfo={opts.optional ? t('signUp.optional') : undefined}
      intent={errors[name] ? 'danger' : 'none'}
      helperText={errors[name] ? <span data-testid={`${opts.testId}-error`}>{msg(errors[name])}</span> : opts.help}
    >
      <InputGroup
        id={`signup-${name}`}
        name={name}
        type={opts.type ?? 'text'}
        value={values[name]}
        placeholder={opts.placeholder}
        autoComplete={opts.autoComplete}
        autoFocus={opts.autoFocus}
        intent={errors[name] ? 'danger' : 'none'}
        onValueChange={(v) => set(name, v)}
        data-testid={opts.testId}
      />
    </FormGroup>
  );

  const steps = [t('signUp.stepBasic'), t('signUp.stepPersonal'), t('signUp.stepPassword')];
  let body: ReactNode;
  if (step === 0) {
    body = (
      <>
        {text('username', t('signUp.username'), { help: t('signUp.usernameHelp'), autoComplete: 'username', autoFocus: true, testId: 'signup-username' })}
        {text('email', t('signUp.email'), { type: 'email', autoComplete: 'email', testId: 'signup-email' })}
        {text('mobile', t('signUp.mobile'), { type: 'tel', optional: values.codeChannel === 'email', autoComplete: 'tel', testId: 'signup-mobile' })}
        <FormGroup label={t('signUp.verifyBy')}>
          <SegmentedControl
            small
            value={values.codeChannel}
            onValueChange={(v) => (set('codeChannel', v as 'email' | 'sms'), set('code', ''))}
            options={[
              { value: 'email', label: t('signUp.verifyByEmail') },
              { value: 'sms', label: t('signUp.verifyBySms') },
            ]}
            data-testid="signup-code-channel"
          />
        </FormGroup>
        <VerificationCodeField
          key={values.codeChannel}
          ns="account"
          channel={values.codeChannel}
          canSend={recipientValid}
          code={values.code}
          onCodeChange={(v) => set('code', v)}
          loadCaptcha={() => captchaImage().unwrap()}
          send={sendCode}
          error={msg(errors.code)}
          testId="signup"
          recipient={recipient}
          resendIn={async () => (await expiration({ channel: values.codeChannel, recipient }).unwrap()).resendInSeconds}
        />
      </>
    );
  } else if (step === 1) {
    body = (
      <>
        {text('nickname', t('signUp.nickname'), { optional: true, autoComplete: 'nickname', autoFocus: true, testId: 'signup-nickname' })}
        {text('industry', t('signUp.industry'), { optional: true, placeholder: t('signUp.industryPlaceholder'), testId: 'signup-industry' })}
        <FormGroup
          label={t('signUp.occupation')}
          labelFor="signup-occupation"
          intent={errors.occupation ? 'danger' : 'none'}
          helperText={errors.occupation ? <span data-testid="signup-occupation-error">{msg(errors.occupation)}</span> : undefined}
        >
          <HTMLSelect
            id="signup-occupation"
            name="occupation"
            fill
            value={values.occupation}
            onChange={(e) => set('occupation', e.currentTarget.value as Occupation | '')}
            data-testid="signup-occupation"
            options={[
              { value: '', label: t('signUp.occupationPlaceholder'), disabled: true },
              ...OCCUPATIONS.map((o) => ({ value: o, label: t(`occupation.${o}`) })),
            ]}
          />
        </FormGroup>
        {text('organisation', t('signUp.organisation'), { optional: true, autoComplete: 'organization', testId: 'signup-organisation' })}
        {values.occupation === 'student' && (
          <div className="dc-subsection" data-testid="signup-student-fields">
            {text('university', t('signUp.university'), { testId: 'signup-university' })}
            {text('major', t('signUp.major'), { testId: 'signup-major' })}
            {text('campusEmail', t('signUp.campusEmail'), { type: 'email', help: t('signUp.campusEmailHelp'), testId: 'signup-campus-email' })}
          </div>
        )}
      </>
    );
  } else {
    body = (
      <>
        {/* Lets password managers pair the new password with the username. */}
        <input type="text" name="username-hint" autoComplete="username" value={values.username} readOnly hidden />
        {text('password', t('signUp.password'), { type: 'password', help: t('signUp.passwordHelp'), autoComplete: 'new-password', autoFocus: true, testId: 'signup-password' })}
        {text('confirmPassword', t('signUp.confirmPassword'), { type: 'password', autoComplete: 'new-password', testId: 'signup-confirm-password' })}
        <FormGroup
          intent={errors.agreement ? 'danger' : 'none'}
          helperText={errors.agreement ? <span data-testid="signup-agreement-error">{msg(errors.agreement)}</span> : undefined}
        >
          <Checkbox name="agreement" checked={values.agreement} onChange={(e) => set('agreement', e.currentTarget.checked)} data-testid="signup-agreement">
            {t('signUp.agreementPrefix')}{' '}
            <a href="/agreement" target="_blank" rel="noopener">
              {t('signUp.agreementLink')}
            </a>{' '}
            {t('signUp.and')}{' '}
            <a href="/privacy" target="_blank" rel="noopener">
              {t('signUp.privacyLink')}
            </a>
          </Checkbox>
        </FormGroup>
      </>
    );
  }

  return (
    <AuthFrame testId="sign-up-page">
      <h1 className="dc-auth-title">{t('signUp.heading')}</h1>
      <p className="dc-muted">{t('signUp.stepOf', { current: step + 1, total: 3 })}</p>
      <ol className="dc-steps" aria-label={t('signUp.subheading')}>
        {steps.map((label, i) => (
          <li
            key={label}
            className={i === step ? 'dc-step dc-step-current' : i < step ? 'dc-step dc-step-done' : 'dc-step'}
            aria-current={i === step ? 'step' : undefined}
            data-testid={`signup-step-${i + 1}`}
          >
            <span className="dc-step-dot">{i + 1}</span>
            <span className="dc-step-label">{label}</span>
          </li>
        ))}
      </ol>
      {failure && (
        <Callout intent="danger" icon="error" className="dc-gap" data-testid="signup-error">
          {failure}
        </Callout>
      )}
      <form ref={formRef} onSubmit={submit} noValidate key={step}>
        {body}
        <div className="dc-row-between dc-gap-top">
          {step > 0 ? (
            <Button icon="arrow-left" onClick={() => (setErrors({}), setStep((step - 1) as SignUpStep))} data-testid="signup-back">
              {t('signUp.back')}
            </Button>
          ) : (
            <span />
          )}
          {step < 2 ? (
            <BusyButton type="submit" intent="primary" endIcon="arrow-right" loading={busy} data-testid="signup-next">
              {t('signUp.next')}
            </BusyButton>
          ) : (
            <BusyButton type="submit" intent="primary" loading={busy} data-testid="signup-submit">
              {t('signUp.submit')}
            </BusyButton>
          )}
        </div>
      </form>
      <p className="dc-auth-switch">
        {t('signUp.haveAccount')}{' '}
        <a href="/sign-in" data-testid="signup-to-signin" onClick={(e) => (e.preventDefault(), navigate('/sign-in'))}>
          {t('signUp.toSignIn')}
        </a>
      </p>
    </AuthFrame>
  );
}
