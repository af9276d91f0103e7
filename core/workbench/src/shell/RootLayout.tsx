import { useEffect } from 'react';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useLocale } from '@decisio/sdk-plugin';
import { GuideOverlay } from '../guards/GuideOverlay';
import { OfflineOverlay } from '../guards/OfflineOverlay';
import { useWorkbench } from '../host/workbench-context';

/** Root of every page: the outlet, the offline graphic, the demo guide and the page title. */
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
      <GuideOverlay />
      <OfflineOverlay />
    </>
  );
}
