import { useState } from 'react';
import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, Tag, type Intent } from '@blueprintjs/core';
import type { ModelServiceStatus, ModelServiceWithToken } from '@decisio/domain';
import { failureMessage, useNotify } from '@decisio/sdk-plugin';
import { useDeployT } from '../i18n';

const INTENT: Record<ModelServiceStatus, Intent> = { deploying: 'primary', waiting: 'none', starting: 'primary', running: 'success', failure: 'danger' };

/** States that change on their own: lists poll while a row is in one. */
export const TRANSIENT: readonly ModelServiceStatus[] = ['deploying', 'starting'];

/** Whether a failed call carries errors by field. */
export function isFieldErrors(err: unknown): err is { errors: Record<string, string> } {
  return typeof err === 'object' && err !== null && 'errors' in err && typeof (err as { errors: unknown }).errors === 'object' && (err as { errors: unknown }).errors !== null;
}

/** The errors by field of a failed call (`{}` when it has none). */
export function fieldErrorsOf(err: unknown): Record<string, string> {
  return isFieldErrors(err) ? err.errors : {};
}

/**
 * Tells the user that a call failed (its message, else `fallback`), unless the workbench
 * already did: `const fail = useFailureNotice(); ... catch (err) { fail(err, t('x.failed')); }`.
 */
export function useFailureNotice(): (err: unknown, fallback: string) => void {
  const notify = useNotify();
  return (err, fallback) => {
    const message = failureMessage(err, fallback);
    if (message) notify({ message, intent: 'danger', icon: 'error' });
  };
}

/** Whether a policy finished training (it can be deployed and decide). */
export function isTrained(p: { state: string }): boolean {
  return p.state === 'successful' || p.state === 'successful by manual stop';
}

/** A service status as a coloured tag. */
export function StatusTag({ status }: { status: ModelServiceStatus }) {
  const { t } = useDeployT();
  return (
    <Tag intent={INTENT[status]} minimal round data-testid="deploy-status">
      {t(`status.${status}`)}
    </Tag>
  );
}

/** Copies text; resolves `false` where the clipboard is not available. */
async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The access address and the token, shown once after create or rotation. */
export function TokenDialog({ service, onClose }: { service: ModelServiceWithToken | null; onClose(): void }) {
  const { t, locale } = useDeployT();
  const [copied, setCopied] = useState<string | null>(null);
  const row = (label: string, value: string, id: string) => (
    <FormGroup label={label} labelFor={`deploy-token-${id}`}>
      <InputGroup
        id={`deploy-token-${id}`}
        readOnly
        value={value}
        className={Classes.MONOSPACE_TEXT}
        onFocus={(e) => e.currentTarget.select()}
        rightElement={
          <Button variant="minimal" icon={copied === id ? 'tick' : 'clipboard'} aria-label={t('token.copy')} onClick={() => void copy(value).then((ok) => ok && setCopied(id))}>
            {copied === id ? t('token.copied') : t('token.copy')}
          </Button>
        }
      />
    </FormGroup>
  );
  return (
    <Dialog isOpen={service !== null} onClose={onClose} title={t('token.title')} icon="key" canOutsideClickClose={false}>
      {service && (
        <>
          <DialogBody>
            <Callout intent="warning" icon="warning-sign" style={{ marginBottom: 12 }}>
              {t('token.once')}
            </Callout>
            {row(t('token.address'), service.accessAddress, 'address')}
            {row(t('token.token'), service.accessToken, 'token')}
            <p className={Classes.TEXT_MUTED} data-testid="deploy-token-validity">
              {service.tokenExpiresAt ? t('validity.until', { time: new Date(service.tokenExpiresAt).toLocaleString(locale) }) : t('validity.never')}
            </p>
          </DialogBody>
          <DialogFooter actions={<Button intent="primary" text={t('token.close')} onClick={onClose} data-testid="deploy-token-close" />} />
        </>
      )}
    </Dialog>
  );
}
