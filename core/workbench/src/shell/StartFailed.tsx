import { Button, NonIdealState } from '@blueprintjs/core';
import { createI18n, readStoredLocale } from '../i18n/i18n';

/** Shown when the workbench cannot start (a plugin error, for instance). */
export function StartFailed(props: { error: unknown }) {
  const i18n = createI18n(readStoredLocale());
  const t = (k: string) => i18n.t(`workbench:${k}`);
  return (
    <div className="dc-center-page" data-testid="start-failed">
      <NonIdealState
        icon="error"
        title={t('app.startFailed')}
        description={
          <>
            <p>{t('app.startFailedHint')}</p>
            <pre className="dc-error-detail">{String((props.error as Error)?.message ?? props.error)}</pre>
          </>
        }
        action={
          <Button icon="refresh" onClick={() => window.location.reload()}>
            {t('app.reload')}
          </Button>
        }
      />
    </div>
  );
}
