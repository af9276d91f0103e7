import { useRef, useState } from 'react';
import { Button, Card, FormGroup, H4, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { OCCUPATIONS, validationMessage, type EditUserInfoRequest, type Occupation, type UserInfo } from '@decisio/domain';
import { BusyButton, isApiError, useLocale, useNotify, type PanelProps } from '@decisio/sdk-plugin';
import { userCentreApi } from '../api';
import { useUserCentreT } from '../i18n';
import { avatarProblem, readAsDataUrl } from '../model/forms';
import { ContactDialog } from './ContactDialog';
import { failureOf, Page, QueryState } from './shared';
import { StudentCard } from './StudentCard';

/** `/user-center/info`: profile and avatar, contact details, student certification. */
export function ProfilePanel(_props: PanelProps) {
  const info = userCentreApi.endpoints['user-centre/info'].useQuery();
  return (
    <Page testId="user-centre-profile">
      {info.data ? (
        <>
          <ProfileCard key={info.data.userId} info={info.data} />
          <ContactCard info={info.data} />
          <StudentCard info={info.data} />
        </>
      ) : (
        <QueryState loading={info.isLoading} error={info.error} retry={() => void info.refetch()} />
      )}
    </Page>
  );
}

type ProfileFields = { nickname: string; industry: string; occupation: Occupation | ''; organisation: string };

function ProfileCard({ info }: { info: UserInfo }) {
  const { t } = useUserCentreT();
  const locale = useLocale();
  const notify = useNotify();
  const [values, setValues] = useState<ProfileFields>({ nickname: info.nickname ?? '', industry: info.industry ?? '', occupation: info.occupation ?? '', organisation: info.organisation ?? '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [edit, state] = userCentreApi.endpoints['user-centre/edit'].useMutation();
  const fileRef = useRef<HTMLInputElement>(null);
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'long' });
  const msg = (m?: string) => (m ? (m.startsWith('validation.') ? validationMessage(m, locale) : m) : undefined);

  const save = async (body: EditUserInfoRequest) => {
    setErrors({});
    try {
      await edit(body).unwrap();
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick-circle' });
    } catch (err) {
      if (isApiError(err) && err.errors) setErrors(err.errors);
      const m = isApiError(err) && err.errors ? null : failureOf(err, t('common.failed'));
      if (m) notify({ message: m, intent: 'danger', icon: 'error' });
    }
  };
  const pickAvatar = async (file: File | undefined) => {
    if (!file) return;
    const problem = avatarProblem(file);
    if (problem) return setErrors({ avatar: problem === 'size' ? t('profile.avatarTooBig') : validationMessage('validation.avatar', locale) });
    await save({ avatar: await readAsDataUrl(file) });
  };
  const text = (name: 'nickname' | 'industry' | 'organisation', label: string) => (
    <FormGroup label={label} labelFor={`profile-${name}`} intent={errors[name] ? 'danger' : 'none'} helperText={msg(errors[name])}>
      <InputGroup id={`profile-${name}`} value={values[name]} onValueChange={(v) => setValues((o) => ({ ...o, [name]: v }))} data-testid={`profile-${name}`} />
    </FormGroup>
  );

  return (
    <Card>
      <H4>{t('profile.heading')}</H4>
      <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap' }}>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 8, alignItems: 'center', width: 160 }}>
          {info.avatarUrl ? (
            <img src={info.avatarUrl} alt={t('profile.avatar')} width={96} height={96} style={{ borderRadius: '50%', objectFit: 'cover' }} data-testid="profile-avatar" />
          ) : (
            <div aria-hidden style={{ width: 96, height: 96, borderRadius: '50%', display: 'grid', placeItems: 'center', fontSize: 40, background: 'var(--dc-border, rgba(128,128,128,0.2))' }}>
              {(info.nickname ?? info.username).slice(0, 1).toUpperCase()}
            </div>
          )}
          <input ref={fileRef} type="file" accept="image/png,image/jpeg,image/webp" hidden onChange={(e) => void pickAvatar(e.currentTarget.files?.[0])} data-testid="profile-avatar-file" />
          <Button small icon="media" onClick={() => fileRef.current?.click()} data-testid="profile-avatar-change">
            {t('profile.avatarChange')}
          </Button>
          {info.avatarUrl && (
            <Button small variant="minimal" icon="trash" onClick={() => void save({ avatar: null })} data-testid="profile-avatar-remove">
              {t('profile.avatarRemove')}
            </Button>
          )}
          <span className="dc-muted" style={{ fontSize: 12, textAlign: 'center' }} data-testid="profile-avatar-help">
            {errors.avatar ? msg(errors.avatar) : t('profile.avatarHelp')}
          </span>
        </div>
        <form
          style={{ flex: 1, minWidth: 280, maxWidth: 420 }}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save({ nickname: values.nickname.trim() || null, industry: values.industry.trim() || null, organisation: values.organisation.trim() || null, ...(values.occupation ? { occupation: values.occupation } : {}) });
          }}
        >
          <FormGroup label={t('profile.username')}>
            <InputGroup value={info.username} readOnly disabled data-testid="profile-username" />
          </FormGroup>
          {text('nickname', t('profile.nickname'))}
          {text('industry', t('profile.industry'))}
          <FormGroup label={t('profile.occupation')} labelFor="profile-occupation">
            <HTMLSelect
              id="profile-occupation"
              fill
              value={values.occupation}
              onChange={(e) => setValues((o) => ({ ...o, occupation: e.currentTarget.value as Occupation }))}
              options={[{ value: '', label: t('common.notSet'), disabled: true }, ...OCCUPATIONS.map((o) => ({ value: o, label: t(`occupation.${o}`) }))]}
              data-testid="profile-occupation"
            />
          </FormGroup>
          {text('organisation', t('profile.organisation'))}
          <p className="dc-muted">
            {t('profile.created', { date: day.format(new Date(info.createdAt)) })}
            {info.lastSignInAt ? ` · ${t('profile.lastSignIn', { date: day.format(new Date(info.lastSignInAt)) })}` : ''}
          </p>
          <BusyButton type="submit" intent="primary" loading={state.isLoading} data-testid="profile-save">
            {t('common.save')}
          </BusyButton>
        </form>
      </div>
    </Card>
  );
}

function ContactCard({ info }: { info: UserInfo }) {
  const { t } = useUserCentreT();
  const [changing, setChanging] = useState<'email' | 'mobile' | null>(null);
  const row = (kind: 'email' | 'mobile', value: string | null) => (
    <div className="dc-row-between" style={{ maxWidth: 520, padding: '6px 0' }}>
      <span>
        <strong>{t(kind === 'email' ? 'profile.email' : 'profile.mobile')}</strong>{' '}
        <span data-testid={`profile-${kind}`}>{value ?? t('common.notSet')}</span>
      </span>
      <Button small icon="edit" onClick={() => setChanging(kind)} data-testid={`profile-change-${kind}`}>
        {t('profile.change')}
      </Button>
    </div>
  );
  return (
    <Card>
      <H4>{t('profile.contact')}</H4>
      {row('email', info.email)}
      {row('mobile', info.mobile)}
      {changing && <ContactDialog kind={changing} onClose={() => setChanging(null)} />}
    </Card>
  );
}
