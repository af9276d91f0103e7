import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Classes } from '@blueprintjs/core';
import { Outlet } from '@tanstack/react-router';
import { focusBackUnlessMoved } from '@decisio/sdk-plugin';
import { AppHeader } from './AppHeader';
import { CommandPalette, type PaletteShell } from './CommandPalette';
import { SettingsDialog } from './SettingsDialog';
import { useWorkbench } from '../host/workbench-context';
import { focusOpenedPage } from './page-focus';
import { SideMenu } from './SideMenu';
import { isMacPlatform, shellAction } from './shortcuts';

/** The signed-in console: header, side menu and the page. */
export function ConsoleShell() {
  const wb = useWorkbench();
  const [collapsed, setCollapsed] = useState(false);
  const [settings, setSettings] = useState(false);
  const [palette, setPalette] = useState(false);
  // The settings and the palette stay mounted once opened, so Blueprint gives the focus back, on
  // close, to what had it when they opened: from the user menu, its item, gone with the menu (the
  // focus was left on the page). Opened from the menu or a key, each gives it to what had it then
  // (the menu's button) instead, once faded (onClosed), when the focus is still in the dialog or on
  // the page. The palette's "Open the workbench settings" opens them at once (the SDK's Dialog takes
  // the focus out of the fading palette onto their first setting), and they give it back, when they
  // close, to what had it before the palette.
  const returnFocus = useRef<Record<'settings' | 'palette', HTMLElement | null>>({ settings: null, palette: null });
  const openFrom = (which: 'settings' | 'palette', open: (v: boolean) => void) => (from: HTMLElement | null) => {
    returnFocus.current[which] = from;
    open(true);
  };
  // A command of the palette that opened another page (its location changed while the palette
  // was open): the focus goes to that page (its heading or its first control, once loaded), not
  // back to what had it on the page left, nor to <body>.
  const main = useRef<HTMLElement>(null);
  const paletteOpenedAt = useRef<string | null>(null);
  const stopPageFocus = useRef<(() => void) | null>(null);
  useEffect(() => () => stopPageFocus.current?.(), []);
  const focusBack = (which: 'settings' | 'palette') => (dialog: HTMLElement) => {
    const to = returnFocus.current[which];
    returnFocus.current[which] = null;
    if (which === 'palette' && paletteOpenedAt.current !== null && paletteOpenedAt.current !== wb.router.state.location.href && main.current) {
      paletteOpenedAt.current = null;
      stopPageFocus.current?.();
      stopPageFocus.current = focusOpenedPage(main.current);
      return;
    }
    focusBackUnlessMoved(dialog, to);
  };
  useEffect(() => {
    if (palette) paletteOpenedAt.current = wb.router.state.location.href;
  }, [palette, wb]);
  // A side-menu link (clicked, or Enter on it) that opens another page: the focus goes to that
  // page in the same way, once its content has come (not to the page left, still shown while the
  // navigation runs), if it is still on that link (or on <body>: a click that did not focus it).
  // The rule that keeps the menu's focus for a user going through it from the keyboard: only an
  // activation that changes the location moves it (the link of the page already open, a command
  // entry, a location changed by other means leave it where it is), and only until the focus goes
  // anywhere else: a user who, the link activated, moves on in the menu (↓, Tab) before the page
  // has come keeps the focus there.
  const focusPageOpenedFrom = useCallback(
    (link: HTMLElement, to: string) => {
      if (!main.current || wb.navigation.href(to) === wb.router.state.location.href) return;
      stopPageFocus.current?.();
      stopPageFocus.current = focusOpenedPage(main.current, { from: link, left: [...main.current.children] });
    },
    [wb],
  );
  const paletteShell = useMemo<PaletteShell>(
    () => ({
      openSettings: () => {
        returnFocus.current.settings = returnFocus.current.palette;
        setSettings(true);
      },
    }),
    [],
  );
  useEffect(() => {
    // F1 and Mod+Shift+P open the command palette, Mod+B the menu, Mod+, the settings (shortcuts.ts).
    const isMac = isMacPlatform();
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const action = shellAction(e, isMac);
      if (!action) return;
      e.preventDefault();
      if (action === 'toggleMenu') return setCollapsed((c) => !c);
      // Opened before, the palette keeps its search box mounted, which takes the focus (autoFocus)
      // in the commit that opens it, before Blueprint notes what had it: closed, it gave the focus
      // back to that box, gone, and left it on the page. It goes back to what had it at the key.
      const active = document.activeElement;
      if (!active?.closest(`.${Classes.OVERLAY}.${Classes.OVERLAY_OPEN}`)) returnFocus.current[action] = active instanceof HTMLElement && active !== document.body ? active : null;
      if (action === 'palette') setPalette(true);
      else setSettings(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="dc-console">
      <AppHeader onToggleMenu={() => setCollapsed((c) => !c)} onOpenSettings={openFrom('settings', setSettings)} onOpenPalette={openFrom('palette', setPalette)} />
      <div className="dc-console-body">
        <SideMenu collapsed={collapsed} onOpenPage={focusPageOpenedFrom} />
        <main className="dc-console-main" ref={main}>
          <Outlet />
        </main>
      </div>
      <SettingsDialog isOpen={settings} onClose={() => setSettings(false)} onClosed={focusBack('settings')} />
      <CommandPalette isOpen={palette} onClose={() => setPalette(false)} onClosed={focusBack('palette')} shell={paletteShell} />
    </div>
  );
}
