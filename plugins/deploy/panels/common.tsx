import { useState } from 'react';
import { Button, Callout, Classes, DialogBody, DialogFooter, FormGroup, InputGroup, Tag, type Intent } from '@blueprintjs/core';
import type { ModelServiceStatus, ModelServiceWithToken } from '@decisio/domain';
import { Dialog } from '@decisio/sdk-plugin';
import { useDeployT } from '../i18n';

const INTENT: Record<ModelServiceStatus, Intent> = { deploying: 'primary', waiting: 'none', starting: 'primary', running: 'success', failure: 'danger' };

/** States that change on their own: lists poll while a row is in one. */
export const TRANSIENT: readonly ModelServiceStatus[] = ['deploying', 'starting'];

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
