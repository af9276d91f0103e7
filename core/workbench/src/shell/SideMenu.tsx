import { Button, Menu, MenuItem, Spinner } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useAppLocation, useCurrentUser, useLocale } from '@decisio/sdk-plugin';
import { useWorkbench } from '../host/workbench-context';
import { useWorkbenchT } from '../i18n/i18n';
import { sideMenuEntries } from './side-entries';

/**
 * The console's side menu, built from `location: 'side'` menu items of the plugins; every entry is
 * decided by a page of the menu catalogue (`menuKeyOf`) and shows only when the user's roles
 * allow that menu (`menuAllows`) and the user may open its page's panels (`sideMenuEntries`). Until the user's menus are known the menu shows a loading state
 * (`side-menu-loading`), and when they could not be loaded a retry button (`side-menu-error`):
 * never the unfiltered entries, which would flash the pages the user's roles hide.
 */
export function SideMenu(props: {
  collapsed?: boolean;
  /**
   * Called as an entry's link (`link`) is activated (clicked, or Enter on it) to open `to`, just
   * before the navigation: the console gives the focus to the opened page.
   */
  onOpenPage?: (link: HTMLElement, to: string) => void;
}) {
  const wb = useWorkbench();
  const { t } = useWorkbenchT();
  const loc = useAppLocation();
  useLocale();
  const current = useCurrentUser();
  const user = current.data;
  const className = `dc-side${props.collapsed ? ' dc-side-collapsed' : ''}`;
  if (!user) {
    if (current.isError && !current.isFetching) {
      return (
        <nav className={className} aria-label={t('menu.title')} data-testid="side-menu-error">
          <div className="dc-side-state" role="alert">
            {!props.collapsed && <span>{t('menu.failed')}</span>}
            <Button size="small" icon="refresh" text={props.collapsed ? undefined : t('menu.retry')} title={t('menu.retry')} onClick={() => void current.refetch()} data-testid="side-menu-retry" />
          </div>
        </nav>
      );
    }
    return (
      <nav className={className} aria-label={t('menu.title')} aria-busy="true" data-testid="side-menu-loading">
        <div className="dc-side-state">
          <Spinner size={20} aria-label={t('menu.loading')} />
        </div>
      </nav>
    );
  }
  const items = sideMenuEntries(wb, user);
  return (
    <nav className={className} aria-label={t('menu.title')} data-testid="side-menu">
      <Menu>
        {items.map((m) => {
          const text = wb.locale.t(`${m.pluginId}:${m.titleKey}`);
          const under = (p: string) => loc.pathname === p || loc.pathname.startsWith(`${p}/`);
          const active = (!!m.to && under(m.to)) || (m.activeOn ?? []).some((p) => loc.pathname === p);
          return (
            <MenuItem
              key={m.id}
              icon={m.icon as IconName | undefined}
              text={props.collapsed ? undefined : text}
              title={text}
              active={active}
              href={m.to ? wb.navigation.href(m.to) : undefined}
              data-testid={`side-menu-${m.id}`}
              onClick={(e) => {
                e.preventDefault();
                if (m.to) {
                  props.onOpenPage?.(e.currentTarget, m.to);
                  wb.navigation.navigate(m.to);
                } else if (m.command) void wb.commands.execute(m.command);
              }}
            />
          );
        })}
      </Menu>
    </nav>
  );
}
