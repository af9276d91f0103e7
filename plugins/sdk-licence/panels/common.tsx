import { Button, Callout, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import type { LicenceStatus } from '@decisio/domain';
import { isApiError } from '@decisio/sdk-plugin';
import { useLicenceT } from '../i18n';

const INTENT: Record<LicenceStatus, Intent> = { audit: 'warning', success: 'success', end: 'none', expired: 'danger' };

/** A licence or application state as a tag. */
export function StatusTag({ status }: { status: LicenceStatus }) {
  const { t } = useLicenceT();
  return (
    <Tag intent={INTENT[status]} minimal data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}

/** Loading and error states of a query. */
export function QueryState(props: { isLoading: boolean; error: unknown; retry: () => void }) {
  const { t } = useLicenceT();
  if (props.isLoading) return <NonIdealState icon={<Spinner size={24} />} title={t('licences.loading')} />;
  if (!props.error) return null;
  return (
    <Callout intent="danger" icon="error" title={t('licences.loadFailed')}>
      {isApiError(props.error) ? props.error.message : null}{' '}
      <Button variant="minimal" size="small" onClick={props.retry}>
        {t('licences.retry')}
      </Button>
    </Callout>
  );
}
