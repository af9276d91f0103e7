import { useState } from 'react';
import { Button, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { DIALOG_WIDTH, emailSchema, ErrorCode, mobileSchema, validationMessage, type CaptchaAnswer } from '@decisio/domain';
import { BusyButton, Dialog, isApiError, useLocale, useNotify, VerificationCodeField } from '@decisio/sdk-plugin';
import { userCentreApi } from '../api';
import { useUserCentreT } from '../i18n';
import { failureOf } from './shared';

/** Changes the e-mail or mobile number: a code to the new address proves it (`users/updateUserCenter`). */
export function ContactDialog(props: { kind: 'email' | 'mobile'; onClose(): void }) {
  const { kind, onClose } = props;
  const { t } = useUserCentreT();
  const locale = useLocale();
  const notify = useNotify();
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ address?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);
  const [captchaImage] = userCentreApi.endpoints['user-centre/captchaImage'].useMutation();
  const [emailCode] = userCentreApi.endpoints['user-centre/generateEmailCode'].useMutation();
  const [smsCode] = userCentreApi.endpoints['user-centre/generateSmsCode'].useMutation();
  const [update] = userCentreApi.endpoints['user-centre/update'].useMutation();
  const schema = kind === 'email' ? emailSchema : mobileSchema;
  const valid = schema.safeParse(address.trim()).success;
  const send = (captcha: CaptchaAnswer) =>
    kind === 'email' ? emailCode({ email: address.trim(), purpose: 'changeContact', ...captcha }).unwrap() : smsCode({ mobile: address.trim(), purpose: 'changeContact', ...captcha }).unwrap();

  const submit = async () => {
    const errs: typeof errors = {};
    if (!valid) errs.address = validationMessage(kind === 'email' ? 'validation.email' : 'validation.mobile', locale);
    if (!code.trim()) errs.code = validationMessage('validation.required', locale);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      await update(kind === 'email' ? { kind, email: address.trim(), code: code.trim() } : { kind, mobile: address.trim(), code: code.trim() }).unwrap();
      notify({ message: t('profile.contactChanged'), intent: 'success', icon: 'tick-circle' });
      onClose();
    } catch (err) {
      if (isApiError(err) && [ErrorCode.verifyCodeMismatch, ErrorCode.verifyCodeExpired, ErrorCode.codeUsed].includes(err.code as never)) setErrors({ code: err.message });
      else if (isApiError(err) && [ErrorCode.emailRegistered, ErrorCode.mobileRegistered].includes(err.code as never)) setErrors({ address: err.message });
      else if (isApiError(err) && err.errors) setErrors({ address: err.errors.email ?? err.errors.mobile, code: err.errors.code });
      else {
        const m = failureOf(err, t('common.failed'));
        if (m) notify({ message: m, intent: 'danger', icon: 'error' });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog isOpen onClose={onClose} title={t(kind === 'email' ? 'profile.changeEmail' : 'profile.changeMobile')} style={{ width: DIALOG_WIDTH.sm }}>
      <DialogBody>
        <p className="dc-muted">{t('profile.contactHelp')}</p>
        <FormGroup label={t(kind === 'email' ? 'profile.newEmail' : 'profile.newMobile')} labelFor="contact-address" intent={errors.address ? 'danger' : 'none'} helperText={errors.address}>
          <InputGroup id="contact-address" type={kind === 'email' ? 'email' : 'tel'} autoFocus value={address} onValueChange={(v) => (setAddress(v), setErrors({}))} data-testid="contact-address" />
        </FormGroup>
        <VerificationCodeField ns="user-centre" channel={kind === 'email' ? 'email' : 'sms'} canSend={valid} code={code} onCodeChange={setCode} loadCaptcha={() => captchaImage().unwrap()} send={send} error={errors.code} testId="contact" />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <BusyButton intent="primary" loading={busy} onClick={() => void submit()} data-testid="contact-submit">
              {t('common.save')}
            </BusyButton>
          </>
        }
      />
    </Dialog>
  );
}
