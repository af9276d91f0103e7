import { useRef, useState, type KeyboardEvent } from 'react';
import { Alignment, Button, Menu, MenuDivider, MenuItem, Navbar, PopoverNext } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { focusBackUnlessMoved, LanguageSelect, ThemeToggle, useCurrentUser, useEventValue, useLocale, useSession } from '@decisio/sdk-plugin';
import { useWorkbench } from '../host/workbench-context';
import { useWorkbenchT } from '../i18n/i18n';
import { HeaderItems } from './HeaderItems';
import { Logo } from './Logo';
import { focusFirstMenuItem, onMenuKeyDown } from './menu-keys';
import { formatKeybinding, isMacPlatform } from './shortcuts';

/**
 * Header of the console: logo, language switch, theme switch and the user menu. `onOpenSettings`
 * and `onOpenPalette` get the user menu's button, for the dialog to give the focus back to when it
 * closes (the menu item that opened it is gone by then).
 */
export function AppHeader(props: {
  onToggleMenu?: () => void;
  onOpenSettings?: (returnFocusTo: HTMLElement | null) => void;
  onOpenPalette?: (returnFocusTo: HTMLElement | null) => void;
}) {
  const wb = useWorkbench();
  const { t } = useWorkbenchT();
  const locale = useLocale();
  const session = useSession();
  const user = useCurrentUser();
  const hasLayout = useEventValue(wb.layout.onDidChangeAvailability, () => wb.layout.hasLayout);
  const name = user.data?.nickname || user.data?.username || '';
  const userItems = wb.host.menuItems
    .filter((m) => m.location === 'user' && (!m.when || m.when(wb.whenContext())))
    .sort((a, b) => (a.order ?? 100) - (b.order ?? 100));

  // The command palette and the settings open a dialog, which takes the focus: the menu returning
  // it to the user button once faded (300 ms later) had the dialog's focus trap take it from the
  // palette's search box. It goes back to the button only when it is still in the menu or on the
  // page (Escape, an item that navigates or resets the layout). The menu does not enforce the focus
  // (enforceFocus={false}): the palette, once opened, stays mounted, so its search box takes the
  // focus (autoFocus) in the very commit that closes the menu, before the menu's Overlay2 has
  // removed its document focus listener; that listener took the focus back into the fading menu
  // (its focus trap), then the palette's trap took it, and the keys typed were lost (the second
  // time the palette was opened from the menu).
  // From the keyboard: the menu opens with the focus on its first item (not on the popover's
  // wrapper), also with ↓ on its button, ↑/↓ move (wrapping), Home/End, Enter or Space run the
  // item, Escape closes it and gives the focus back to the button (Blueprint returns it on Escape).
  // Tab (or Shift+Tab) closes it too: the menu sits in a portal at the end of the page, so the
  // browser's Tab would leave it for the address bar; the focus goes back to the button, and the
  // Tab, not prevented, goes on from there to the next (previous) control of the header, as if
  // the menu were beside its button (WAI-ARIA menu button pattern).
  const userButton = useRef<HTMLButtonElement>(null);
  const menuList = useRef<HTMLUListElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const onMenuKeys = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Tab') {
      setMenuOpen(false);
      userButton.current?.focus();
      return;
    }
    onMenuKeyDown(e);
  };
  const onButtonKeys = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'ArrowDown' || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    // open, it gets the focus on its first item (onOpening); open already, the focus goes there
    if (!menuOpen) setMenuOpen(true);
    else if (menuList.current) focusFirstMenuItem(menuList.current);
  };

  const run = (m: (typeof userItems)[number]) => {
    if (m.command) void wb.commands.execute(m.command);
    else if (m.to) wb.navigation.navigate(m.to);
  };

  return (
    <Navbar className="dc-header" data-testid="app-header">
      <Navbar.Group align={Alignment.START}>
        {props.onToggleMenu && (
          <Button variant="minimal" icon="menu" aria-label={t('header.toggleMenu')} onClick={props.onToggleMenu} data-testid="side-menu-toggle" />
        )}
        <a className="dc-brand" href={wb.navigation.href('/')} onClick={(e) => (e.preventDefault(), wb.navigation.navigate('/'))}>
          <Logo size={26} />
          <span className="dc-brand-name">{t('app.name')}</span>
        </a>
      </Navbar.Group>
      <Navbar.Group align={Alignment.END} className="dc-header-actions">
        <HeaderItems />
        <LanguageSelect />
        <ThemeToggle />
        {session.token && (
          <PopoverNext
            placement="bottom-end"
            isOpen={menuOpen}
            onInteraction={setMenuOpen}
            enforceFocus={false}
            shouldReturnFocusOnClose={false}
            onOpening={(menu) => focusFirstMenuItem(menu)}
            onClosed={(menu) => focusBackUnlessMoved(menu, userButton.current)}
            content={
              <Menu ulRef={menuList} data-testid="user-menu-items" onKeyDown={onMenuKeys}>
                {name && <MenuItem disabled icon="user" text={t('header.signedInAs', { name })} />}
                {props.onOpenPalette && (
                  <MenuItem icon="console" text={t('palette.open')} label={formatKeybinding('Mod+Shift+P', isMacPlatform())} onClick={() => props.onOpenPalette?.(userButton.current)} data-testid="user-menu-palette" />
                )}
                {props.onOpenSettings && <MenuItem icon="wrench" text={t('header.settings')} onClick={() => props.onOpenSettings?.(userButton.current)} data-testid="user-menu-settings" />}
                {hasLayout && (
                  <MenuItem icon="reset" text={t('header.resetLayout')} onClick={() => wb.layout.resetLayout()} data-testid="user-menu-reset-layout" />
                )}
                {userItems.length > 0 && <MenuDivider />}
                {userItems.map((m) => (
                  <MenuItem
                    key={m.id}
                    icon={m.icon as IconName | undefined}
                    text={wb.locale.t(`${m.pluginId}:${m.titleKey}`)}
                    onClick={() => run(m)}
                    data-testid={`user-menu-${m.id}`}
                  />
                ))}
              </Menu>
            }
          >
            <Button
              ref={userButton}
              variant="minimal"
              icon="user"
              endIcon="caret-down"
              active={menuOpen}
              aria-label={t('header.userMenu')}
              onKeyDown={onButtonKeys}
              data-testid="user-menu"
            >
              <span className="dc-user-name">{name}</span>
            </Button>
          </PopoverNext>
        )}
      </Navbar.Group>
      <span hidden data-locale={locale} />
    </Navbar>
  );
}
