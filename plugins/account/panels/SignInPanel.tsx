import { useState, type FormEvent } from 'react';
import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { encryptAccountPassword, ErrorCode, messageOf, validationMessage } from '@decisio/domain';
import { BusyButton, CaptchaPicture, isApiError, localeServiceRef, sessionServiceRef, themeServiceRef, useAppLocation, useCaptcha, useNavigate, useNotify, useService } from '@decisio/sdk-plugin';
import { accountApi } from '../api';
import { useAccountT } from '../i18n';
import { AuthFrame } from './AuthFrame';

/** Answers after which the sign-in needs a (new) captcha picture. */
const CAPTCHA_CODES: readonly number[] = [ErrorCode.captchaRequired, ErrorCode.captchaMismatch, ErrorCode.captchaExpired];

/** Sign-in screen (`/sign-in`): login name + password, encrypted before it is sent. */
export function SignInPanel() {
  const { t, locale } = useAccountT();
  const navigate = useNavigate();
  const notify = useNotify();
  const session = useService(sessionServiceRef);
  const localeService = useService(localeServiceRef);
  const themeService = useService(themeServiceRef);
  const [userInfo] = accountApi.endpoints['account/userInfo'].useMutation();
  const location = useAppLocation();
  const [username, setUsername] = useState(location.search.username ?? '');
  const [password, setPassword] = useState('');
  const [show, setShow] = useState(false);
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [getKey] = accountApi.endpoints['account/getPublicKey'].useMutation();
  const [signIn] = accountApi.endpoints['account/signIn'].useMutation();
  const [busy, setBusy] = useState(false);
  // After repeated failures the server asks for a captcha (`captchaRequired`); each picture answers
  // once, and the answer goes with the id of the picture it was typed for.
  const [captchaImage] = accountApi.endpoints['account/captchaImage'].useMutation();
  const captcha = useCaptcha(() => captchaImage().unwrap(), { loadNow: false });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: typeof errors = {};
    if (!username.trim()) errs.username = 'validation.required';
    if (!password) errs.password = 'validation.required';
    setErrors(errs);
    setFailure(null);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      // A fresh key answer per submission: its one-time nonce goes inside the ciphertext.
      const key = await getKey().unwrap();
      const encrypted = await encryptAccountPassword(key, password);
      const res = await signIn({ username: username.trim(), password: encrypted, ...(captcha.solved ?? {}) }).unwrap();
      session.signIn(res);
      // Settings kept with the account (user centre) follow the user to this device.
      const settings = await userInfo()
        .unwrap()
        .then((u) => u.settings)
        .catch(() => null);
      if (settings?.language) localeService.setLocale(settings.language);
      if (settings?.theme) themeService.setTheme(settings.theme);
      notify({ message: t('signIn.success'), intent: 'success', icon: 'tick-circle' });
      navigate('/dashboard');
    } catch (err) {
      if (isApiError(err)) {
        if (!err.handled) setFailure(err.message);
        if (captcha.active || CAPTCHA_CODES.includes(err.code)) captcha.renew();
        if (err.errors?.username) setErrors((x) => ({ ...x, username: err.errors!.username }));
      } else {
        setFailure(t('signIn.failed'));
      }
    } finally {
      setBusy(false);
    }
  };

  const msg = (m?: string) => (m ? (m.startsWith('validation.') ? validationMessage(m, locale) : m) : undefined);
  // The picture expired on screen (a new one replaced it), or none could be loaded.
  const captchaNote = captcha.loadError ?? (captcha.expired ? messageOf('captchaExpired', locale) : null);

  return (
    <AuthFrame testId="sign-in-page">
      <h1 className="dc-auth-title">{t('signIn.heading')}</h1>
      <p className="dc-muted">{t('signIn.subheading')}</p>
      {failure && (
        <Callout intent="danger" icon="error" className="dc-gap" data-testid="signin-error">
          {failure}
        </Callout>
      )}
      <form onSubmit={submit} noValidate>
        <FormGroup label={t('signIn.username')} labelFor="signin-username" intent={errors.username ? 'danger' : 'none'} helperText={msg(errors.username)}>
          <InputGroup
            id="signin-username"
            name="username"
            autoComplete="username"
            autoFocus
            large
            leftIcon="user"
            placeholder={t('signIn.usernamePlaceholder')}
            value={username}
            intent={errors.username ? 'danger' : 'none'}
            onValueChange={setUsername}
            data-testid="signin-username"
          />
        </FormGroup>
        <FormGroup label={t('signIn.password')} labelFor="signin-password" intent={errors.password ? 'danger' : 'none'} helperText={msg(errors.password)}>
          <InputGroup
            id="signin-password"
            name="password"
            type={show ? 'text' : 'password'}
            autoComplete="current-password"
            large
            leftIcon="lock"
            placeholder={t('signIn.passwordPlaceholder')}
            value={password}
            intent={errors.password ? 'danger' : 'none'}
            onValueChange={setPassword}
            data-testid="signin-password"
            rightElement={
              <Button
                variant="minimal"
                icon={show ? 'eye-off' : 'eye-open'}
                aria-label={show ? t('signIn.hidePassword') : t('signIn.showPassword')}
                onClick={() => setShow((s) => !s)}
                tabIndex={-1}
              />
            }
          />
        </FormGroup>
        {captcha.active && (
          <FormGroup
            label={t('verify.captcha')}
            labelFor="signin-captcha"
            intent={captchaNote ? 'danger' : 'none'}
            helperText={captchaNote ? <span data-testid="signin-captcha-error">{captchaNote}</span> : t('signIn.captchaHelp')}
          >
            <div className="dc-row-between" style={{ gap: 8 }}>
              <InputGroup id="signin-captcha" large value={captcha.answer} maxLength={8} autoComplete="off" onValueChange={captcha.setAnswer} data-testid="signin-captcha" data-captcha-id={captcha.picture?.captchaId ?? ''} />
              <CaptchaPicture picture={captcha.picture} onRenew={captcha.renew} label={t('verify.captcha')} refreshLabel={t('verify.captchaRefresh')} testId="signin-captcha-image" />
            </div>
          </FormGroup>
        )}
        <div className="dc-row-between dc-gap">
          <a href="/forgot-password" data-testid="signin-forgot" onClick={(e) => (e.preventDefault(), navigate('/forgot-password'))}>
            {t('signIn.forgot')}
          </a>
        </div>
        <BusyButton type="submit" intent="primary" large fill loading={busy} data-testid="signin-submit">
          {t('signIn.submit')}
        </BusyButton>
      </form>
      <p className="dc-auth-switch">
        {t('signIn.noAccount')}{' '}
        <a href="/sign-up" data-testid="signin-to-signup" onClick={(e) => (e.preventDefault(), navigate('/sign-up'))}>
          {t('signIn.toSignUp')}
        </a>
      </p>
    </AuthFrame>
  );
}
