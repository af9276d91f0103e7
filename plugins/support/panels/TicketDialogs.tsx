import { useState, type FormEvent } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import { SUPPORT_TEXT_MAX, WORK_ORDER_TYPES, hasContactMethod, type WorkOrderItem, type WorkOrderType } from '@decisio/domain';
import { Dialog, BusyButton, isApiError, useNotify } from '@decisio/sdk-plugin';
import { supportApi } from '../api';
import { useSupportT } from '../i18n';

/** Field errors and a general failure of a form, from an api error. */
function useFailure() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const fail = (err: unknown, fallback: string) => {
    if (isApiError(err)) {
      setErrors(err.errors ?? {});
      setFailure(err.errors && Object.keys(err.errors).length ? null : err.message);
    } else setFailure(fallback);
  };
  return { errors, setErrors, failure, setFailure, fail };
}

/** Files a ticket: type, e-mail and/or mobile, description. */
export function CreateTicketDialog(props: { isOpen: boolean; onClose: () => void }) {
  const { t } = useSupportT();
  const notify = useNotify();
  const [type, setType] = useState<WorkOrderType>('question');
  const [email, setEmail] = useState('');
  const [mobile, setMobile] = useState('');
  const [description, setDescription] = useState('');
  const { errors, setErrors, failure, setFailure, fail } = useFailure();
  const [create, creating] = supportApi.endpoints['support/create'].useMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    if (!hasContactMethod({ email: email.trim(), mobile: mobile.trim() })) {
      setErrors({ email: t('form.contactHelp'), mobile: t('form.contactHelp') });
      return;
    }
    try {
      await create({ type, email: email.trim(), mobile: mobile.trim(), description }).unwrap();
      notify({ message: t('form.submitted'), intent: 'success', icon: 'tick-circle' });
      setDescription('');
      props.onClose();
    } catch (err) {
      fail(err, t('form.failed'));
    }
  };
  return (
    <Dialog isOpen={props.isOpen} onClose={props.onClose} title={t('form.createTitle')} style={{ width: 560 }}>
      <form onSubmit={submit} noValidate>
        <DialogBody>
          {failure && (
            <Callout intent="danger" icon="error" data-testid="ticket-error">
              {failure}
            </Callout>
          )}
          <FormGroup label={t('form.type')} labelFor="support-type">
            <HTMLSelect id="support-type" value={type} onChange={(e) => setType(e.target.value as WorkOrderType)} fill data-testid="ticket-type">
              {WORK_ORDER_TYPES.map((ty) => (
                <option key={ty} value={ty}>
                  {t(`tickets.types.${ty}`)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('form.email')} labelFor="support-email" intent={errors.email ? 'danger' : 'none'} helperText={errors.email || t('form.contactHelp')}>
            <InputGroup id="support-email" type="email" value={email} maxLength={100} onChange={(e) => (setEmail(e.target.value), setErrors({}))} data-testid="ticket-email" />
          </FormGroup>
          <FormGroup label={t('form.mobile')} labelFor="support-mobile" intent={errors.mobile ? 'danger' : 'none'} helperText={errors.mobile}>
            <InputGroup id="support-mobile" value={mobile} maxLength={32} onChange={(e) => (setMobile(e.target.value), setErrors({}))} data-testid="ticket-mobile" />
          </FormGroup>
          <FormGroup label={t('form.description')} labelFor="support-description" intent={errors.description ? 'danger' : 'none'} helperText={errors.description || `${description.length} / ${SUPPORT_TEXT_MAX}`}>
            <TextArea id="support-description" value={description} maxLength={SUPPORT_TEXT_MAX} rows={5} fill onChange={(e) => setDescription(e.target.value)} data-testid="ticket-description" />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={props.onClose}>{t('form.cancel')}</Button>
              <BusyButton type="submit" intent="primary" loading={creating.isLoading} disabled={!description.trim()} data-testid="ticket-submit">
                {t('form.submit')}
              </BusyButton>
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/** An administrator answers a ticket. */
export function ReplyDialog(props: { ticket: WorkOrderItem | null; onClose: () => void }) {
  const { t } = useSupportT();
  const notify = useNotify();
  const [text, setText] = useState('');
  const { errors, failure, setFailure, fail } = useFailure();
  const [reply, replying] = supportApi.endpoints['support/reply'].useMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!props.ticket) return;
    setFailure(null);
    try {
      await reply({ id: props.ticket.id, reply: text }).unwrap();
      notify({ message: t('form.replied'), intent: 'success', icon: 'tick-circle' });
      setText('');
      props.onClose();
    } catch (err) {
      fail(err, t('form.failed'));
    }
  };
  return (
    <Dialog isOpen={props.ticket !== null} onClose={props.onClose} title={t('form.replyTitle')} style={{ width: 560 }}>
      <form onSubmit={submit} noValidate>
        <DialogBody>
          {failure && <Callout intent="danger" icon="error">{failure}</Callout>}
          {props.ticket && <Callout icon="comment" style={{ whiteSpace: 'pre-wrap', marginBottom: 12 }}>{props.ticket.description}</Callout>}
          <FormGroup label={t('form.replyText')} labelFor="support-reply" intent={errors.reply ? 'danger' : 'none'} helperText={errors.reply || `${text.length} / ${SUPPORT_TEXT_MAX}`}>
            <TextArea id="support-reply" value={text} maxLength={SUPPORT_TEXT_MAX} rows={5} fill autoFocus onChange={(e) => setText(e.target.value)} data-testid="reply-text" />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={props.onClose}>{t('form.cancel')}</Button>
              <BusyButton type="submit" intent="primary" loading={replying.isLoading} disabled={!text.trim()} data-testid="reply-send">
                {t('form.send')}
              </BusyButton>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
