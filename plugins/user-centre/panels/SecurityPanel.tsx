import { useState, type FormEvent } from 'react';
import { Callout, Card, FormGroup, H4, HTMLTable, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { encryptAccountPassword, ErrorCode, validationMessage } from '@decisio/domain';
import { BusyButton, isApiError, useCurrentUser, useLocale, useNavigate, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { userCentreApi } from '../api';
import { useUserCentreT } from '../i18n';
import { passwordFormErrors, type PasswordForm } from '../model/forms';
import { failureOf, Page, QueryState } from './shared';

const EMPTY: PasswordForm = { oriPassword: '', password: '', confirmPassword: '' };

/**
 * `/user-center/security`: change the password (the current and the new one each encrypted with
 * their own one-time nonce, as at sign-in), and the latest sign-ins with address and browser.
 * A user with a temporary password (an administrator's add user or reset) is kept here, told
 * why, until the change; then they go on to the console's home.
 */
export function SecurityPanel(_props: PanelProps) {
  const { t } = useUserCentreT();
  const locale = useLocale();
  const notify = useNotify();
  const navigate = useNavigate();
  // Until a temporary password is changed, every other call of this page would be refused.
  const user = useCurrentUser();
  const mustChange = !!user.data?.mustChangePassword;
  const [form, setForm] = useState<PasswordForm>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof PasswordForm, string>>>({});
  const [busy, setBusy] = useState(false);
  const [getKey] = userCentreApi.endpoints['user-centre/getPublicKey'].useMutation();
  const [modify] = userCentreApi.endpoints['user-centre/modifyPassword'].useMutation();
  const records = userCentreApi.endpoints['user-centre/records'].useQuery({ limit: 10 }, { skip: user.isLoading || mustChange });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
  const msg = (m?: string) => (m ? (m.startsWith('validation.') ? validationMessage(m, locale) : m) : undefined);
  const set = (k: keyof PasswordForm, v: string) => (setForm((f) => ({ ...f, [k]: v })), setErrors((e) => ({ ...e, [k]: undefined })));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = passwordFormErrors(form);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      // Each password carries its own nonce: two key answers.
      const oriPassword = await encryptAccountPassword(await getKey().unwrap(), form.oriPassword);
      const password = await encryptAccountPassword(await getKey().unwrap(), form.password);
      await modify({ oriPassword, password }).unwrap();
      setForm(EMPTY);
      if (mustChange) {
        // `user/getUser` (refetched: the call invalidates it) lifts the workbench's hold.
        await user.refetch();
        notify({ message: t('password.mustChangeDone'), intent: 'success', icon: 'tick-circle' });
        navigate('/');
        return;
      }
      notify({ message: t('password.changed'), intent: 'success', icon: 'tick-circle' });
    } catch (err) {
      if (isApiError(err) && err.code === ErrorCode.originalPasswordWrong) setErrors({ oriPassword: err.message });
      else if (isApiError(err) && (err.code === ErrorCode.newPasswordSameAsOld || err.errors?.password)) setErrors({ password: err.errors?.password ?? err.message });
      else {
        const m = failureOf(err, t('common.failed'));
        if (m) notify({ message: m, intent: 'danger', icon: 'error' });
      }
    } finally {
      setBusy(false);
    }
  };

  const field = (name: keyof PasswordForm, label: string, autoComplete: string, help?: string) => (
    <FormGroup label={label} labelFor={`password-${name}`} intent={errors[name] ? 'danger' : 'none'} helperText={errors[name] ? <span data-testid={`password-${name}-error`}>{msg(errors[name])}</span> : help}>
      <InputGroup id={`password-${name}`} name={name} type="password" autoComplete={autoComplete} value={form[name]} intent={errors[name] ? 'danger' : 'none'} onValueChange={(v) => set(name, v)} data-testid={`password-${name}`} />
    </FormGroup>
  );

  return (
    <Page testId="user-centre-security">
      <Card>
        <H4>{t('password.heading')}</H4>
        {mustChange && (
          <Callout intent="warning" icon="key" style={{ marginBottom: 12 }} data-testid="password-must-change">
            {t('password.mustChange')}
          </Callout>
        )}
        <form onSubmit={submit} noValidate style={{ maxWidth: 420 }}>
          {field('oriPassword', t('password.old'), 'current-password')}
          {field('password', t('password.new'), 'new-password', t('password.help'))}
          {field('confirmPassword', t('password.confirm'), 'new-password')}
          <BusyButton type="submit" intent="primary" loading={busy} data-testid="password-submit">
            {t('password.submit')}
          </BusyButton>
        </form>
      </Card>
      <Card>
        <H4>{t('records.heading')}</H4>
        {mustChange ? null : !records.data ? (
          <QueryState loading={records.isLoading} error={records.error} retry={() => void records.refetch()} />
        ) : records.data.length === 0 ? (
          <NonIdealState icon="history" title={t('records.empty')} />
        ) : (
          <HTMLTable compact striped style={{ width: '100%' }} data-testid="signin-records">
            <thead>
              <tr>
                <th>{t('records.time')}</th>
                <th>{t('records.address')}</th>
                <th>{t('records.agent')}</th>
                <th>{t('records.state')}</th>
              </tr>
            </thead>
            <tbody>
              {records.data.map((r) => (
                <tr key={r.id} data-testid="signin-record">
                  <td>{date.format(new Date(r.time))}</td>
                  <td>{r.address ?? t('records.unknown')}</td>
                  <td style={{ maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={r.agent ?? ''}>
                    {r.agent ?? t('records.unknown')}
                  </td>
                  <td>{r.current ? <Tag intent="primary">{t('records.current')}</Tag> : r.active ? <Tag intent="success">{t('records.active')}</Tag> : <Tag minimal>{t('records.ended')}</Tag>}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
    </Page>
  );
}
