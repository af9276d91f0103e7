import { useState, type FormEvent, type ReactElement } from 'react';
import { Button, Callout, Card, FormGroup, H2, InputGroup, TextArea } from '@blueprintjs/core';
import { SUPPORT_TEXT_MAX, hasContactMethod } from '@decisio/domain';
import { BusyButton, isApiError, LanguageSelect, ThemeToggle, useNavigate } from '@decisio/sdk-plugin';
import { supportApi } from '../api';
import { useSupportT } from '../i18n';

/** `/contact-us` (public): name, company, e-mail and/or mobile, message. */
export function ContactPanel() {
  const { t } = useSupportT();
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: '', company: '', email: '', mobile: '', content: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [send, sending] = supportApi.endpoints['support/contact'].useMutation();
  const set = (k: keyof typeof form, v: string) => (setForm((f) => ({ ...f, [k]: v })), setErrors({}));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const body = { name: form.name.trim(), company: form.company.trim(), email: form.email.trim(), mobile: form.mobile.trim(), content: form.content.trim() };
    if (!hasContactMethod(body)) {
      setErrors({ email: t('contact.needContact'), mobile: t('contact.needContact') });
      return;
    }
    try {
      await send(body).unwrap();
      setSent(true);
    } catch (err) {
      if (isApiError(err)) {
        setErrors(err.errors ?? {});
        setFailure(err.errors && Object.keys(err.errors).length ? null : err.message);
      } else setFailure(t('contact.failed'));
    }
  };
  const field = (k: keyof typeof form, label: string, optional: boolean, input: ReactElement) => (
    <FormGroup label={label} labelFor={`contact-${k}`} labelInfo={optional ? t('contact.optional') : undefined} intent={errors[k] ? 'danger' : 'none'} helperText={errors[k]}>
      {input}
    </FormGroup>
  );
  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', padding: 24 }} className="dc-contact" data-testid="contact-page">
      <div style={{ alignSelf: 'flex-end', display: 'flex', gap: 8 }}>
        <LanguageSelect />
        <ThemeToggle />
      </div>
      <Card elevation={1} style={{ width: 'min(560px, 100%)', marginTop: 24 }}>
        <H2>{t('contact.title')}</H2>
        {sent ? (
          <>
            <Callout intent="success" icon="tick-circle" data-testid="contact-sent">
              {t('contact.sent')}
            </Callout>
            <div style={{ display: 'flex', gap: 8, marginTop: 16 }}>
              <Button onClick={() => (setSent(false), setForm({ name: '', company: '', email: '', mobile: '', content: '' }))}>{t('contact.again')}</Button>
              <Button variant="minimal" onClick={() => navigate('/sdk')}>
                {t('contact.back')}
              </Button>
            </div>
          </>
        ) : (
          <form onSubmit={submit} noValidate>
            <p>{t('contact.intro')}</p>
            {failure && (
              <Callout intent="danger" icon="error" style={{ marginBottom: 12 }}>
                {failure}
              </Callout>
            )}
            {field('name', t('contact.name'), false, <InputGroup id="contact-name" value={form.name} maxLength={50} autoFocus onChange={(e) => set('name', e.target.value)} data-testid="contact-name" />)}
            {field('company', t('contact.company'), true, <InputGroup id="contact-company" value={form.company} maxLength={100} onChange={(e) => set('company', e.target.value)} />)}
            {field('email', t('contact.email'), true, <InputGroup id="contact-email" type="email" value={form.email} maxLength={100} onChange={(e) => set('email', e.target.value)} data-testid="contact-email" />)}
            {field('mobile', t('contact.mobile'), true, <InputGroup id="contact-mobile" value={form.mobile} maxLength={32} onChange={(e) => set('mobile', e.target.value)} />)}
            {field(
              'content',
              t('contact.content'),
              false,
              <TextArea id="contact-content" value={form.content} maxLength={SUPPORT_TEXT_MAX} rows={5} fill onChange={(e) => set('content', e.target.value)} data-testid="contact-content" />,
            )}
            <BusyButton type="submit" intent="primary" loading={sending.isLoading} disabled={!form.name.trim() || !form.content.trim()} data-testid="contact-send">
              {t('contact.send')}
            </BusyButton>
          </form>
        )}
      </Card>
    </div>
  );
}
