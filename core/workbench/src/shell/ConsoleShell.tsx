import { useEffect, useMemo, useRef, useState } from 'react';
import { Classes } from '@blueprintjs/core';
import { Outlet } from '@tanstack/react-router';
import { focusBackUnlessMoved } from '@decisio/sdk-plugin';
import { AppHeader } from './AppHeader';
import { CommandPalette, type PaletteShell } from './CommandPalette';
import { SettingsDialog } from './SettingsDialog';
import { SideMenu } from './SideMenu';
import { isMacPlatform, shellAction } from './shortcuts';

/** The signed-in console: header, side menu and the page. */
export function ConsoleShell() {
  const [collapsed, setCollapsed] = useState(false);
  const [settings, setSettings] = useState(false);
  const [palette, setPalette] = useState(false);
  // The settings and the palette stay mounted once opened, so Blueprint gives the focus back, on
  // close, to what had it when they opened: from the user menu, its item, gone with the menu (the
  // focus was left on the page). Opened from the menu, they give it to the menu's button instead,
  // once faded (onClosed), when the focus is still in the dialog or on the page.
  const returnFocus = useRef<HTMLElement | null>(null);
  const openFrom = (open: (v: boolean) => void) => (from: HTMLElement | null) => {
    returnFocus.current = from;
    open(true);
  };
  const focusBack = (dialog: HTMLElement) => {
    focusBackUnlessMoved(dialog, returnFocus.current);
    returnFocus.current = null;
  };
  // The palette's "Open the workbench settings": the settings open once the palette has faded and
  // given the focus back (opened meanwhile, they found the focus in the fading palette and lost it
  // to their empty trap when the palette's search box went), and give it back, when they close, to
  // what had it before the palette.
  const settingsAfterPalette = useRef(false);
  const paletteShell = useMemo<PaletteShell>(() => ({ openSettings: () => void (settingsAfterPalette.current = true) }), []);
  const paletteClosed = (dialog: HTMLElement) => {
    if (!settingsAfterPalette.current) return focusBack(dialog);
    settingsAfterPalette.current = false;
    focusBackUnlessMoved(dialog, returnFocus.current);
    setSettings(true);
  };
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
      if (!active?.closest(`.${Classes.OVERLAY_OPEN}`)) returnFocus.current = active instanceof HTMLElement && active !== document.body ? active : null;
      if (action === 'palette') setPalette(true);
      else setSettings(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="dc-console">
      <AppHeader onToggleMenu={() => setCollapsed((c) => !c)} onOpenSettings={openFrom(setSettings)} onOpenPalette={openFrom(setPalette)} />
      <div className="dc-console-body">
        <SideMenu collapsed={collapsed} />
        <main className="dc-console-main">
          <Outlet />
        </main>
      </div>
      <SettingsDialog isOpen={settings} onClose={() => setSettings(false)} onClosed={focusBack} />
      <CommandPalette isOpen={palette} onClose={() => setPalette(false)} onClosed={paletteClosed} shell={paletteShell} />
    </div>
  );
}
