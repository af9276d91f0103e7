import { useEffect } from 'react';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useLocale } from '@decisio/sdk-plugin';
import { OfflineOverlay } from '../guards/OfflineOverlay';
import { useWorkbench } from '../host/workbench-context';
import { OverlayArea } from './OverlayArea';

/**
 * Root of every page: the outlet, the overlay area (the plugins' overlays, or the generic guide
 * note), the offline graphic and the page title.
 */
export function RootLayout() {
  const wb = useWorkbench();
  const locale = useLocale();
  const matches = useRouterState({ select: (s) => s.matches });
  const titleKey = [...matches].reverse().find((m) => m.staticData?.titleKey)?.staticData.titleKey;
  useEffect(() => {
    const app = wb.locale.t('workbench:app.name');
    document.title = titleKey ? `${wb.locale.t(titleKey)} · ${app}` : app;
  }, [titleKey, locale, wb]);
  return (
    <>
      <Outlet />
      <OverlayArea />
      <OfflineOverlay />
    </>
  );
}
