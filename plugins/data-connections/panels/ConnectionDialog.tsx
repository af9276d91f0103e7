import { useState, type ReactElement } from 'react';
import { Callout, FormGroup, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import {
  CONNECTION_LIMITS,
  CONNECTION_TYPES,
  DEFAULT_DRIVERS,
  encryptPassword,
  type ConnectionTestResult,
  type ConnectionType,
  type DataConnection,
} from '@decisio/domain';
import { BusyButton, CrudFormDialog, isApiError, useNotify } from '@decisio/sdk-plugin';
import { connectionsApi } from '../api';
import { useConnectionsT } from '../i18n';

const EXAMPLES: Record<ConnectionType, string> = {
  mysql: 'jdbc:mysql://127.0.0.1:3306/shop',
  mariadb: 'jdbc:mariadb://127.0.0.1:3306/shop',
  postgresql: 'jdbc:postgresql://127.0.0.1:5432/shop',
};

interface FormState {
  type: ConnectionType;
  name: string;
  group: string;
  driver: string;
  url: string;
  zkAddress: string;
  database: string;
  username: string;
  password: string;
  remark: string;
}

const blank: FormState = { type: 'mysql', name: '', group: '', driver: DEFAULT_DRIVERS.mysql, url: '', zkAddress: '', database: '', username: '', password: '', remark: '' };

function fromConnection(c: DataConnection): FormState {
  return { type: c.type, name: c.name, group: c.group, driver: c.driver, url: c.url, zkAddress: c.zkAddress, database: c.database, username: c.username, password: '', remark: c.remark };
}

/** Create or edit a data connection, with a connection test before saving. */
export function ConnectionDialog(props: { editing: DataConnection | null; isOpen: boolean; onClose: () => void }) {
  const { t } = useConnectionsT();
  const notify = useNotify();
  const [form, setForm] = useState<FormState>(() => (props.editing ? fromConnection(props.editing) : blank));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [testResult, setTestResult] = useState<ConnectionTestResult | null>(null);
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const [getKey] = connectionsApi.endpoints['data-connections/publicKey'].useMutation();
  const [create] = connectionsApi.endpoints['data-connections/create'].useMutation();
  const [update] = connectionsApi.endpoints['data-connections/update'].useMutation();
  const [test] = connectionsApi.endpoints['data-connections/test'].useMutation();

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((f) => {
      const next = { ...f, [key]: value };
      // Keep the driver in step with the type unless the user typed their own.
      if (key === 'type' && Object.values(DEFAULT_DRIVERS).includes(f.driver)) next.driver = DEFAULT_DRIVERS[value as ConnectionType];
      return next;
    });
    setErrors((e) => ({ ...e, [key]: '' }));
    setTestResult(null);
  };

  const payload = async () => {
    const { password, ...rest } = form;
    const encrypted = password ? await encryptPassword((await getKey().unwrap()).spki, password) : undefined;
    return { ...rest, password: encrypted };
  };

  const fail = (err: unknown, fallback: string) => {
    if (isApiError(err)) {
      setErrors(err.errors ?? {});
      setFailure(err.errors && Object.keys(err.errors).length ? null : err.message);
    } else setFailure(fallback);
  };

  const runTest = async () => {
    setBusy('test');
    setFailure(null);
    setTestResult(null);
    try {
      const body = await payload();
      // Editing without a new password: test with the saved one.
      const result = props.editing && !form.password ? await test({ ...body, id: props.editing.id, password: null } as never).unwrap() : await test({ ...body, password: body.password ?? '' }).unwrap();
      setTestResult(result);
    } catch (err) {
      fail(err, t('test.failed', { error: '' }));
    } finally {
      setBusy(null);
    }
  };

  const submit = async () => {
    setBusy('save');
    setFailure(null);
    try {
      const body = await payload();
      if (props.editing) await update({ ...body, id: props.editing.id, password: body.password ?? null }).unwrap();
      else await create({ ...body, password: body.password ?? '' }).unwrap();
      notify({ message: t('saved'), intent: 'success', icon: 'tick-circle' });
      props.onClose();
    } catch (err) {
      fail(err, t('saveFailed'));
    } finally {
      setBusy(null);
    }
  };

  const field = (key: keyof FormState, label: string, input: ReactElement, help?: string, optional = false) => (
    <FormGroup
      label={label}
      labelFor={`dc-conn-${key}`}
      labelInfo={optional ? t('form.optional') : undefined}
      intent={errors[key] ? 'danger' : 'none'}
      helperText={errors[key] || help}
    >
      {input}
    </FormGroup>
  );
  const text = (key: keyof FormState, max: number, extra: Record<string, unknown> = {}) => (
    <InputGroup
      id={`dc-conn-${key}`}
      value={form[key]}
      maxLength={max}
      intent={errors[key] ? 'danger' : 'none'}
      onChange={(e) => set(key, e.target.value as never)}
      data-testid={`conn-${key}`}
      {...extra}
    />
  );

  return (
    <CrudFormDialog
      isOpen={props.isOpen}
      title={props.editing ? t('form.editTitle') : t('form.createTitle')}
      width={640}
      formId="dc-conn-form"
      noValidate
      onClose={props.onClose}
      onSubmit={() => void submit()}
      saving={busy === 'save'}
      saveDisabled={busy !== null}
      saveTestId="conn-save"
      labels={{ cancel: t('form.cancel'), save: t('form.save') }}
      actions={
        <BusyButton icon="data-connection" onClick={runTest} loading={busy === 'test'} disabled={busy !== null} data-testid="conn-test">
          {t('form.test')}
        </BusyButton>
      }
    >
      {failure && (
        <Callout intent="danger" icon="error" className="dc-gap" data-testid="conn-error">
          {failure}
        </Callout>
      )}
      {field(
        'type',
        t('form.type'),
        <HTMLSelect id="dc-conn-type" value={form.type} onChange={(e) => set('type', e.target.value as ConnectionType)} data-testid="conn-type" fill>
          {CONNECTION_TYPES.map((ty) => (
            <option key={ty} value={ty}>
              {t(`types.${ty}`)}
            </option>
          ))}
        </HTMLSelect>,
      )}
      {field('name', t('form.name'), text('name', CONNECTION_LIMITS.name, { autoFocus: true }))}
      {field('group', t('form.group'), text('group', CONNECTION_LIMITS.group), undefined, true)}
      {field('url', t('form.url'), text('url', CONNECTION_LIMITS.url, { placeholder: EXAMPLES[form.type] }), t('form.urlHelp', { example: EXAMPLES[form.type] }))}
      {field('database', t('form.database'), text('database', CONNECTION_LIMITS.database), t('form.databaseHelp'), true)}
      {field('username', t('form.username'), text('username', CONNECTION_LIMITS.username, { autoComplete: 'off' }))}
      {field(
        'password',
        t('form.password'),
        text('password', CONNECTION_LIMITS.password, { type: 'password', autoComplete: 'new-password' }),
        props.editing?.hasPassword ? t('form.passwordKeep') : undefined,
        true,
      )}
      {field('driver', t('form.driver'), text('driver', CONNECTION_LIMITS.driver), undefined, true)}
      {field('zkAddress', t('form.zkAddress'), text('zkAddress', CONNECTION_LIMITS.zk), undefined, true)}
      {field(
        'remark',
        t('form.remark'),
        <TextArea id="dc-conn-remark" value={form.remark} maxLength={CONNECTION_LIMITS.remark} onChange={(e) => set('remark', e.target.value)} fill data-testid="conn-remark" />,
        `${form.remark.length} / ${CONNECTION_LIMITS.remark}`,
        true,
      )}
      {busy === 'test' && <Callout icon="refresh">{t('test.running')}</Callout>}
      {testResult && (
        <Callout intent={testResult.ok ? 'success' : 'danger'} icon={testResult.ok ? 'tick-circle' : 'error'} data-testid="conn-test-result">
          {testResult.ok ? t('test.ok', { ms: testResult.latencyMs, version: testResult.version ?? '' }) : t('test.failed', { error: testResult.error ?? '' })}
        </Callout>
      )}
    </CrudFormDialog>
  );
}
