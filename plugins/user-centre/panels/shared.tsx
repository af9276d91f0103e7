import type { ReactNode } from 'react';
import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import { isApiError } from '@decisio/sdk-plugin';
import { useUserCentreT } from '../i18n';

/** Scrolling page body of a user-centre panel. */
export function Page(props: { testId: string; children: ReactNode }) {
  return (
    <div className="dc-panel" style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 16, height: '100%', overflow: 'auto', maxWidth: 880 }} data-testid={props.testId}>
      {props.children}
    </div>
  );
}

/** Loading and error states of a query. */
export function QueryState(props: { loading: boolean; error: unknown; retry(): void }) {
  const { t } = useUserCentreT();
  if (props.loading) return <NonIdealState icon={<Spinner size={32} />} title={t('common.loading')} />;
  const message = isApiError(props.error) ? props.error.message : String(props.error);
  return (
    <NonIdealState
      icon="error"
      title={t('common.loadFailed', { message })}
      action={
        <Button icon="refresh" onClick={props.retry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}

/** A translated message of a failed call (`null` when the workbench already showed it). */
export function failureOf(err: unknown, fallback: string): string | null {
  if (isApiError(err)) return err.handled ? null : err.message;
  return fallback;
}
