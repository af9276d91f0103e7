/**
 * `/ssh`: the connection form (host, port, user name, password or private key), then the
 * terminal. Opening a session needs sign-in; the page says so to a visitor.
 */
import { useState, type FormEvent } from 'react';
import { Button, Callout, FormGroup, HTMLSelect, InputGroup, NonIdealState, TextArea } from '@blueprintjs/core';
import { SSH_LIMITS, type SshAuthType, type SshConnectReply } from '@decisio/domain';
import { NumericInput, BusyButton, HostKeyNotice, hostKeyProblem, useNavigate, useSession, type ApiError } from '@decisio/sdk-plugin';
import { sshApi } from '../api';
import { useSshT } from '../i18n';
import { TerminalView } from './TerminalView';

interface Form {
  host: string;
  port: number;
  username: string;
  authType: SshAuthType;
  password: string;
  privateKey: string;
  passphrase: string;
}

const EMPTY: Form = { host: '', port: 22, username: '', authType: 'password', password: '', privateKey: '', passphrase: '' };

export function SshPage() {
  const { t } = useSshT();
  const session = useSession();
  const navigate = useNavigate();
  const [form, setForm] = useState<Form>(EMPTY);
  const [missing, setMissing] = useState<string[]>([]);
  const [open, setOpen] = useState<(SshConnectReply & { target: string }) | null>(null);
  const [connect, state] = sshApi.endpoints['ssh-terminal/connect'].useMutation();
  const [close] = sshApi.endpoints['ssh-terminal/close'].useMutation();
  const [forgetKey, forgetting] = sshApi.endpoints['ssh-terminal/forgetHostKey'].useMutation();
  const [forgotten, setForgotten] = useState(false);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));

  if (!session.token) {
    return (
      <div style={{ padding: 24 }}>
        <NonIdealState icon="console" title={t('title')} description={t('signIn')} action={<Button intent="primary" onClick={() => navigate('/sign-in')}>{t('signInAction')}</Button>} />
      </div>
    );
  }

  const submit = async (e: FormEvent | null, trustFingerprint?: string) => {
    e?.preventDefault();
    setForgotten(false);
    const need: string[] = [];
    if (!form.host.trim()) need.push(t('form.host'));
    if (!form.username.trim()) need.push(t('form.username'));
    if (form.authType === 'password' ? !form.password : !form.privateKey.trim()) need.push(form.authType === 'password' ? t('form.password') : t('form.key'));
    setMissing(need);
    if (need.length) return;
    const r = await connect({
      host: form.host.trim(),
      port: form.port,
      username: form.username.trim(),
      authType: form.authType,
      ...(form.authType === 'password' ? { password: form.password } : { privateKey: form.privateKey, ...(form.passphrase ? { passphrase: form.passphrase } : {}) }),
      cols: 100,
      rows: 30,
      ...(trustFingerprint ? { trustFingerprint } : {}),
    });
    if ('data' in r && r.data) {
      setForm((f) => ({ ...f, password: '', passphrase: '' }));
      setOpen({ ...r.data, target: `${form.username.trim()}@${form.host.trim()}:${form.port}` });
    }
  };

  const error = state.error as ApiError | undefined;
  const keyProblem = hostKeyProblem(error);
  const forget = async () => {
    if (!keyProblem) return;
    // The very host and port whose stored key was refused.
    const r = await forgetKey({ host: keyProblem.host || form.host.trim(), port: Number(keyProblem.port) || form.port });
    if ('data' in r) {
      state.reset();
      setForgotten(true);
    }
  };
  return (
    <div style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 12, height: '100%', boxSizing: 'border-box' }} data-testid="ssh-page">
      <h2 style={{ margin: 0 }}>{t('title')}</h2>
      <p style={{ margin: 0 }}>{t('intro', { minutes: SSH_LIMITS.idleMinutes })}</p>
      {open ? (
        <TerminalView
          ticket={open.ticket}
          target={open.target}
          idleMinutes={open.idleMinutes}
          hostKey={open.hostKey}
          onDisconnect={() => void close({ sessionId: open.sessionId })}
          onNew={() => {
            state.reset();
            setOpen(null);
          }}
        />
      ) : (
        <form onSubmit={(e) => void submit(e)} style={{ maxWidth: 560 }} data-testid="ssh-form">
          <div style={{ display: 'flex', gap: 8 }}>
            <FormGroup label={t('form.host')} labelFor="ssh-host" style={{ flex: 1 }}>
              <InputGroup id="ssh-host" value={form.host} maxLength={SSH_LIMITS.hostMax} onChange={(e) => set('host', e.currentTarget.value)} data-testid="ssh-host" autoFocus />
            </FormGroup>
            <FormGroup label={t('form.port')} labelFor="ssh-port">
              <NumericInput id="ssh-port" value={form.port} min={1} max={65535} minorStepSize={null} onValueChange={(v) => set('port', Number.isFinite(v) ? v : 22)} data-testid="ssh-port" />
            </FormGroup>
          </div>
          <FormGroup label={t('form.username')} labelFor="ssh-user">
            <InputGroup id="ssh-user" value={form.username} maxLength={SSH_LIMITS.usernameMax} onChange={(e) => set('username', e.currentTarget.value)} data-testid="ssh-username" />
          </FormGroup>
          <FormGroup label={t('form.authType')} labelFor="ssh-auth">
            <HTMLSelect id="ssh-auth" value={form.authType} onChange={(e) => set('authType', e.currentTarget.value as SshAuthType)} options={[{ value: 'password', label: t('auth.password') }, { value: 'key', label: t('auth.key') }]} />
          </FormGroup>
          {form.authType === 'password' ? (
            <FormGroup label={t('form.password')} labelFor="ssh-password">
              <InputGroup id="ssh-password" type="password" autoComplete="off" value={form.password} onChange={(e) => set('password', e.currentTarget.value)} data-testid="ssh-password" />
            </FormGroup>
          ) : (
            <>
              <FormGroup label={t('form.key')} labelFor="ssh-key">
                <TextArea id="ssh-key" fill rows={5} placeholder={t('form.keyPlaceholder')} value={form.privateKey} onChange={(e) => set('privateKey', e.currentTarget.value)} />
              </FormGroup>
              <FormGroup label={t('form.passphrase')} labelFor="ssh-passphrase">
                <InputGroup id="ssh-passphrase" type="password" autoComplete="off" value={form.passphrase} onChange={(e) => set('passphrase', e.currentTarget.value)} />
              </FormGroup>
            </>
          )}
          {missing.length ? (
            <Callout intent="warning" data-testid="ssh-missing">
              {missing.map((f) => t('form.required', { field: f })).join(' · ')}
            </Callout>
          ) : null}
          {keyProblem ? (
            <HostKeyNotice
              problem={keyProblem}
              busy={state.isLoading || forgetting.isLoading}
              labels={{
                unknownTitle: t('hostKey.unknownTitle'),
                unknownHint: t('hostKey.unknownHint'),
                trust: t('hostKey.trust'),
                changedTitle: t('hostKey.changedTitle'),
                changedHint: error!.message,
                presented: t('hostKey.presented'),
                stored: t('hostKey.stored'),
                forget: t('hostKey.forget'),
              }}
              onTrust={(fingerprint) => void submit(null, fingerprint)}
              onForget={() => void forget()}
            />
          ) : error ? (
            <Callout intent="danger" data-testid="ssh-error" data-code={error.code}>
              {error.message}
            </Callout>
          ) : null}
          {forgotten ? (
            <Callout intent="success" data-testid="ssh-key-forgotten">
              {t('hostKey.forgotten')}
            </Callout>
          ) : null}
          <BusyButton type="submit" intent="primary" icon="console" loading={state.isLoading} style={{ marginTop: 8 }} data-testid="ssh-connect">
            {t('form.connect')}
          </BusyButton>
        </form>
      )}
    </div>
  );
}
