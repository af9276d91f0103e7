import { useState } from 'react';
import { Callout, Card, FormGroup, H4, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import type { UserInfo, UserSettings } from '@decisio/domain';
import { BusyButton, isApiError, localeServiceRef, sessionServiceRef, themeServiceRef, useNavigate, useNotify, useService, type PanelProps } from '@decisio/sdk-plugin';
import { userCentreApi } from '../api';
import { useUserCentreT } from '../i18n';
import { failureOf, Page, QueryState } from './shared';

/** `/user-center/settings`: personal settings kept with the account, and account deletion. */
export function SettingsPanel(_props: PanelProps) {
  const info = userCentreApi.endpoints['user-centre/info'].useQuery();
  return (
    <Page testId="user-centre-settings">
      {info.data ? (
        <>
          <SettingsCard key={info.data.userId} info={info.data} />
          <DeleteCard info={info.data} />
        </>
      ) : (
        <QueryState loading={info.isLoading} error={info.error} retry={() => void info.refetch()} />
      )}
    </Page>
  );
}

function SettingsCard({ info }: { info: UserInfo }) {
  const { t } = useUserCentreT();
  const notify = useNotify();
  const locale = useService(localeServiceRef);
  const theme = useService(themeServiceRef);
  const [settings, setSettings] = useState<UserSettings>(info.settings);
  const [edit, state] = userCentreApi.endpoints['user-centre/edit'].useMutation();
  const save = async () => {
    try {
      await edit({ settings }).unwrap();
      if (settings.language) locale.setLocale(settings.language);
      if (settings.theme) theme.setTheme(settings.theme);
      notify({ message: t('common.saved'), intent: 'success', icon: 'tick-circle' });
    } catch (err) {
      const m = failureOf(err, t('common.failed'));
      if (m) notify({ message: m, intent: 'danger', icon: 'error' });
    }
  };
  return (
    <Card>
      <H4>{t('settings.heading')}</H4>
      <p className="dc-muted">{t('settings.help')}</p>
      <div style={{ maxWidth: 420 }}>
        <FormGroup label={t('settings.language')} labelFor="settings-language">
          <HTMLSelect
            id="settings-language"
            fill
            value={settings.language ?? ''}
            onChange={(e) => setSettings((s) => ({ ...s, language: (e.currentTarget.value || null) as UserSettings['language'] }))}
            options={[
              { value: '', label: t('settings.followDevice') },
              { value: 'zh-CN', label: '简体中文' },
              { value: 'en-US', label: 'English' },
            ]}
            data-testid="settings-language"
          />
        </FormGroup>
        <FormGroup label={t('settings.theme')} labelFor="settings-theme">
          <HTMLSelect
            id="settings-theme"
            fill
            value={settings.theme ?? ''}
            onChange={(e) => setSettings((s) => ({ ...s, theme: (e.currentTarget.value || null) as UserSettings['theme'] }))}
            options={[
              { value: '', label: t('settings.followDevice') },
              { value: 'light', label: t('settings.light') },
              { value: 'dark', label: t('settings.dark') },
            ]}
            data-testid="settings-theme"
          />
        </FormGroup>
        <Switch checked={settings.emailNotifications} label={t('settings.emailNotifications')} onChange={(e) => setSettings((s) => ({ ...s, emailNotifications: e.currentTarget.checked }))} data-testid="settings-email-notifications" />
        <BusyButton intent="primary" loading={state.isLoading} onClick={() => void save()} data-testid="settings-save">
          {t('common.save')}
        </BusyButton>
      </div>
    </Card>
  );
}

function DeleteCard({ info }: { info: UserInfo }) {
  const { t } = useUserCentreT();
  const notify = useNotify();
  const navigate = useNavigate();
  const session = useService(sessionServiceRef);
  const impact = userCentreApi.endpoints['user-centre/deleteImpact'].useQuery();
  const [remove, state] = userCentreApi.endpoints['user-centre/deleteUser'].useMutation();
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busyWork = impact.data ? impact.data.runningTrainings + impact.data.runningServices > 0 : true;

  const submit = async () => {
    setError(null);
    try {
      await remove({ confirm }).unwrap();
      notify({ message: t('delete.done'), intent: 'success', icon: 'tick-circle' });
      session.clear();
      navigate('/');
    } catch (err) {
      if (isApiError(err) && err.errors?.confirm) setError(err.errors.confirm);
      else setError(failureOf(err, t('common.failed')));
      void impact.refetch();
    }
  };

  return (
    <Card data-testid="delete-account">
      <H4>{t('delete.heading')}</H4>
      {!impact.data ? (
        <QueryState loading={impact.isLoading} error={impact.error} retry={() => void impact.refetch()} />
      ) : (
        <>
          <p>{t('delete.intro')}</p>
          <ul data-testid="delete-impact">
            <li>{t('delete.projects', { count: impact.data.projects })}</li>
            <li>{t('delete.files', { count: impact.data.files })}</li>
            <li>{t('delete.connections', { count: impact.data.connections })}</li>
            <li>{t('delete.personal')}</li>
          </ul>
          {busyWork && (
            <Callout intent="warning" icon="warning-sign" className="dc-gap" data-testid="delete-blocked">
              {t('delete.blocked', { trainings: impact.data.runningTrainings, services: impact.data.runningServices })}
            </Callout>
          )}
          <div style={{ maxWidth: 420 }}>
            <FormGroup label={t('delete.confirmLabel', { username: info.username })} labelFor="delete-confirm" intent={error ? 'danger' : 'none'} helperText={error ?? undefined}>
              <InputGroup id="delete-confirm" value={confirm} autoComplete="off" onValueChange={setConfirm} data-testid="delete-confirm" />
            </FormGroup>
            <BusyButton intent="danger" icon="trash" disabled={busyWork || confirm !== info.username} loading={state.isLoading} onClick={() => void submit()} data-testid="delete-submit">
              {t('delete.submit')}
            </BusyButton>
          </div>
        </>
      )}
    </Card>
  );
}
