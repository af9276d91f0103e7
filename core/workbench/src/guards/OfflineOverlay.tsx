import { NonIdealState } from '@blueprintjs/core';
import { useWorkbenchT } from '../i18n/i18n';
import { useOnline } from './online';

function OfflineGraphic() {
  return (
    <svg width="120" height="96" viewBox="0 0 120 96" aria-hidden="true" className="dc-offline-graphic">
      <path
        d="M34 74h54a18 18 0 0 0 2-35.9A26 26 0 0 0 40.4 32 21 21 0 0 0 34 74z"
        fill="none"
        stroke="currentColor"
        strokeWidth="5"
        strokeLinejoin="round"
      />
      <path d="M22 14l76 70" stroke="currentColor" strokeWidth="6" strokeLinecap="round" />
    </svg>
  );
}

/** Covers the page with an offline graphic while `navigator.onLine` is false (spec platform §2). */
export function OfflineOverlay() {
  const online = useOnline();
  const { t } = useWorkbenchT();
  if (online) return null;
  return (
    <div className="dc-offline" role="alert" data-testid="offline-overlay">
      <NonIdealState icon={<OfflineGraphic />} title={t('offline.title')} description={t('offline.description')} />
    </div>
  );
}
