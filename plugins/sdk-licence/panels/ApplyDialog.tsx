import { useState, type FormEvent } from 'react';
import { Button, Callout, Checkbox, DialogBody, DialogFooter, FileInput, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup } from '@blueprintjs/core';
import { SDK_EDITIONS, STUDENT_TRIAL_DAYS, STUDENT_TRIAL_RULES, type LicenceType, type SdkEdition } from '@decisio/domain';
import { Dialog, BusyButton, isApiError, useCurrentUser, useLocale, useNotify, VerificationCodeField } from '@decisio/sdk-plugin';
import { licenceApi } from '../api';
import { useLicenceT } from '../i18n';
import { deviceFileProblem, toBase64 } from '../model/device-file';

const PROBLEM_KEY = { empty: 'apply.deviceEmpty', tooLarge: 'apply.deviceTooLarge', nameTooLong: 'apply.deviceNameTooLong' } as const;

/**
 * Applies for a licence: online (the user key), offline (a device file) or, for a certified
 * student, the free student trial (trial edition, issued at once; a device file or the user key);
 * contact with a code, terms.
 */
export function ApplyDialog(props: { isOpen: boolean; onClose: () => void }) {
  const { t } = useLicenceT();
  const notify = useNotify();
  const locale = useLocale();
  const me = useCurrentUser().data;
  const studentUntil = me?.isStudent && me.studentUntil ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(me.studentUntil)) : null;
  const [type, setType] = useState<LicenceType>('offline');
  const [edition, setEdition] = useState<SdkEdition>('pro');
  const [file, setFile] = useState<File | null>(null);
  const [channel, setChannel] = useState<'email' | 'mobile'>('email');
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const [terms, setTerms] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [apply, applying] = licenceApi.endpoints['sdk-licence/apply'].useMutation();
  const [captcha] = licenceApi.endpoints['sdk-licence/captcha'].useMutation();
  const [sendEmail] = licenceApi.endpoints['sdk-licence/sendEmailCode'].useMutation();
  const [sendSms] = licenceApi.endpoints['sdk-licence/sendSmsCode'].useMutation();
  const problem = file ? deviceFileProblem(file) : null;
  const canSend = channel === 'email' ? /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(target.trim()) : /^[\d+-]{6,}$/.test(target.trim());

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const local: Record<string, string> = {};
    if (type === 'offline' && !file) local.deviceFile = t('apply.deviceRequired');
    if (problem && type !== 'online') local.deviceFile = t(PROBLEM_KEY[problem]);
    if (!terms) local.termsAccepted = t('apply.termsRequired');
    if (Object.keys(local).length > 0) return setErrors(local);
    try {
      const deviceFile = type !== 'online' && file ? { name: file.name, content: toBase64(new Uint8Array(await file.arrayBuffer())) } : undefined;
      const chosenEdition = type === 'student' ? STUDENT_TRIAL_RULES.edition : edition;
      const made = await apply({ type, edition: chosenEdition, contact: { channel, target: target.trim(), code: code.trim() }, deviceFile, termsAccepted: true }).unwrap();
      notify({ message: made.status === 'success' ? t('apply.issued') : t('apply.submitted'), intent: 'success', icon: 'tick-circle' });
      setFile(null);
      setCode('');
      props.onClose();
    } catch (err) {
      if (isApiError(err)) {
        setErrors(err.errors ?? {});
        setFailure(err.errors && Object.keys(err.errors).length ? null : err.message);
      } else setFailure(t('apply.failed'));
    }
  };

  return (
    <Dialog isOpen={props.isOpen} onClose={props.onClose} title={t('apply.title')} style={{ width: 600 }}>
      <form onSubmit={submit} noValidate>
        <DialogBody>
          {failure && (
            <Callout intent="danger" icon="error" data-testid="apply-error" style={{ marginBottom: 12 }}>
              {failure}
            </Callout>
          )}
          <RadioGroup label={t('apply.type')} inline selectedValue={type} onChange={(e) => setType(e.currentTarget.value as LicenceType)}>
            <Radio value="offline" label={t('types.offline')} data-testid="apply-offline" />
            <Radio value="online" label={t('types.online')} data-testid="apply-online" />
            <Radio value="student" label={t('types.student')} disabled={!studentUntil} data-testid="apply-student" />
          </RadioGroup>
          <Callout intent={type === 'student' ? 'primary' : 'none'} icon="learning" style={{ marginBottom: 12 }} data-testid="apply-student-note">
            {studentUntil ? t('apply.studentHelp', { days: STUDENT_TRIAL_DAYS, date: studentUntil }) : t('apply.studentOnly')}
          </Callout>
          <FormGroup label={t('apply.edition')} labelFor="apply-edition">
            <HTMLSelect
              id="apply-edition"
              value={type === 'student' ? STUDENT_TRIAL_RULES.edition : edition}
              disabled={type === 'student'}
              onChange={(e) => setEdition(e.target.value as SdkEdition)}
              data-testid="apply-edition"
            >
              {SDK_EDITIONS.map((ed) => (
                <option key={ed} value={ed}>
                  {t(`editions.${ed}`)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          {type !== 'online' ? (
            <FormGroup
              label={type === 'student' ? t('apply.deviceFileOptional') : t('apply.deviceFile')}
              labelFor="apply-device"
              intent={errors.deviceFile || problem ? 'danger' : 'none'}
              helperText={errors.deviceFile || (problem ? t(PROBLEM_KEY[problem]) : type === 'student' ? t('apply.studentDeviceHelp') : t('apply.deviceHelp'))}
            >
              <FileInput
                fill
                text={file?.name ?? t('apply.deviceFile')}
                buttonText={t('browse')}
                inputProps={{ id: 'apply-device', 'data-testid': 'apply-device' } as never}
                onInputChange={(e) => (setFile(e.currentTarget.files?.[0] ?? null), setErrors({}))}
              />
            </FormGroup>
          ) : (
            <Callout icon="key" style={{ marginBottom: 12 }}>
              {t('apply.onlineHelp')}
            </Callout>
          )}
          <FormGroup label={t('apply.contactChannel')} labelFor="apply-channel">
            <div style={{ display: 'flex', gap: 8 }}>
              <HTMLSelect
                id="apply-channel"
                // A select shrinks to nothing in a flex row (its width is a percentage): kept wide enough for its longest option.
                style={{ minWidth: '7em' }}
                value={channel}
                onChange={(e) => (setChannel(e.target.value as 'email' | 'mobile'), setCode(''))}
                data-testid="apply-channel"
              >
                <option value="email">{t('apply.email')}</option>
                <option value="mobile">{t('apply.mobile')}</option>
              </HTMLSelect>
              <InputGroup fill aria-label={t('apply.target')} value={target} maxLength={100} intent={errors['contact.target'] ? 'danger' : 'none'} onChange={(e) => setTarget(e.target.value)} data-testid="apply-target" />
            </div>
          </FormGroup>
          <VerificationCodeField
            ns="sdk-licence"
            channel={channel === 'email' ? 'email' : 'sms'}
            canSend={canSend}
            code={code}
            onCodeChange={setCode}
            loadCaptcha={() => captcha().unwrap()}
            send={(a) => (channel === 'email' ? sendEmail({ ...a, email: target.trim() }) : sendSms({ ...a, mobile: target.trim() })).unwrap()}
            error={errors['contact.code']}
            testId="apply"
          />
          <Checkbox checked={terms} onChange={(e) => (setTerms(e.currentTarget.checked), setErrors({}))} label={t('apply.terms')} data-testid="apply-terms" />
          {errors.termsAccepted && <div className="bp6-text-small" style={{ color: 'var(--bp-intent-danger-rest, #cd4246)' }}>{errors.termsAccepted}</div>}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={props.onClose}>{t('apply.cancel')}</Button>
              <BusyButton type="submit" intent="primary" loading={applying.isLoading} disabled={code.trim().length !== 6} data-testid="apply-submit">
                {t('apply.submit')}
              </BusyButton>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
