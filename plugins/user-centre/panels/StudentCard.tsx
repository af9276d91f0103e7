import { useState } from 'react';
import { Callout, Card, FormGroup, H4, InputGroup } from '@blueprintjs/core';
import { campusEmailSchema, ErrorCode, STUDENT_TRIAL_DAYS, validationMessage, type CaptchaAnswer, type UserInfo } from '@decisio/domain';
import { BusyButton, isApiError, useLocale, useNotify, VerificationCodeField } from '@decisio/sdk-plugin';
import { userCentreApi } from '../api';
import { useUserCentreT } from '../i18n';
import { failureOf } from './shared';

/** Student certification by a code sent to a campus e-mail (ending with edu.cn), valid for a year. */
export function StudentCard(props: { info: UserInfo }) {
  const { info } = props;
  const { t } = useUserCentreT();
  const locale = useLocale();
  const notify = useNotify();
  const [values, setValues] = useState({ university: info.university ?? '', major: info.major ?? '', campusEmail: '', code: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof values, string>>>({});
  const [busy, setBusy] = useState(false);
  const [captchaImage] = userCentreApi.endpoints['user-centre/captchaImage'].useMutation();
  const [emailCode] = userCentreApi.endpoints['user-centre/generateEmailCode'].useMutation();
  const [update] = userCentreApi.endpoints['user-centre/update'].useMutation();
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'long' });
  const set = (k: keyof typeof values, v: string) => (setValues((o) => ({ ...o, [k]: v })), setErrors((e) => ({ ...e, [k]: undefined })));
  const campusValid = campusEmailSchema.safeParse(values.campusEmail.trim()).success;
  const send = (captcha: CaptchaAnswer) => emailCode({ email: values.campusEmail.trim(), purpose: 'student', ...captcha }).unwrap();

  const submit = async () => {
    const req = validationMessage('validation.required', locale);
    const errs: typeof errors = {};
    if (!values.university.trim()) errs.university = req;
    if (!values.major.trim()) errs.major = req;
    if (!campusValid) errs.campusEmail = validationMessage('validation.campusEmail', locale);
    if (!values.code.trim()) errs.code = req;
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      const res = await update({ kind: 'student', university: values.university.trim(), major: values.major.trim(), campusEmail: values.campusEmail.trim(), code: values.code.trim() }).unwrap();
      notify({ message: t('student.done', { date: day.format(new Date(res.studentUntil!)) }), intent: 'success', icon: 'learning' });
      setValues((v) => ({ ...v, campusEmail: '', code: '' }));
    } catch (err) {
      if (isApiError(err) && [ErrorCode.verifyCodeMismatch, ErrorCode.verifyCodeExpired, ErrorCode.codeUsed].includes(err.code as never)) setErrors({ code: err.message });
      else if (isApiError(err) && err.code === ErrorCode.campusEmailUsed) setErrors({ campusEmail: err.message });
      else {
        const m = failureOf(err, t('common.failed'));
        if (m) notify({ message: m, intent: 'danger', icon: 'error' });
      }
    } finally {
      setBusy(false);
    }
  };

  const until = info.studentUntil ? new Date(info.studentUntil) : null;
  const text = (name: 'university' | 'major' | 'campusEmail', label: string) => (
    <FormGroup label={label} labelFor={`student-${name}`} intent={errors[name] ? 'danger' : 'none'} helperText={errors[name]}>
      <InputGroup id={`student-${name}`} value={values[name]} onValueChange={(v) => set(name, v)} data-testid={`student-${name}`} />
    </FormGroup>
  );
  return (
    <Card data-testid="student-card">
      <H4>{t('student.heading')}</H4>
      <Callout intent={info.isStudent ? 'success' : until ? 'warning' : 'none'} icon="learning" className="dc-gap" data-testid="student-status">
        {info.isStudent ? t('student.certified', { date: day.format(until!) }) : until ? t('student.expired', { date: day.format(until) }) : t('student.none')}
      </Callout>
      <div className="dc-gap" data-testid="student-rules">
        <strong>{t('student.rulesHeading')}</strong>
        <ul style={{ margin: '4px 0 12px', paddingLeft: 20 }}>
          <li>{t('student.ruleLicence', { days: STUDENT_TRIAL_DAYS })}</li>
          <li>{t('student.ruleService')}</li>
          <li>{t('student.ruleEnd')}</li>
        </ul>
      </div>
      <div style={{ maxWidth: 420 }}>
        {text('university', t('student.university'))}
        {text('major', t('student.major'))}
        {text('campusEmail', t('student.campusEmail'))}
        <VerificationCodeField ns="user-centre" channel="email" canSend={campusValid} code={values.code} onCodeChange={(v) => set('code', v)} loadCaptcha={() => captchaImage().unwrap()} send={send} error={errors.code} testId="student" />
        <BusyButton intent="primary" icon="learning" loading={busy} onClick={() => void submit()} data-testid="student-submit">
          {t('student.submit')}
        </BusyButton>
      </div>
    </Card>
  );
}
