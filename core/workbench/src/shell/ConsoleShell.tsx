import { useEffect, useState } from 'react';
import { Outlet } from '@tanstack/react-router';
import { AppHeader } from './AppHeader';
import { CommandPalette } from './CommandPalette';
import { SettingsDialog } from './SettingsDialog';
import { SideMenu } from './SideMenu';
import { isMacPlatform, shellAction } from './shortcuts';

/** The signed-in console: header, side menu and the page. */
export function ConsoleShell() {
  const [collapsed, setCollapsed] = useState(false);
  const [settings, setSettings] = useState(false);
  const [palette, setPalette] = useState(false);
  useEffect(() => {
    // F1 and Mod+Shift+P open the command palette, Mod+B the menu, Mod+, the settings (shortcuts.ts).
    const isMac = isMacPlatform();
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const action = shellAction(e, isMac);
      if (!action) return;
      e.preventDefault();
      if (action === 'palette') setPalette(true);
      else if (action === 'toggleMenu') setCollapsed((c) => !c);
      else setSettings(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="dc-console">
      <AppHeader onToggleMenu={() => setCollapsed((c) => !c)} onOpenSettings={() => setSettings(true)} onOpenPalette={() => setPalette(true)} />
      <div className="dc-console-body">
        <SideMenu collapsed={collapsed} />
        <main className="dc-console-main">
          <Outlet />
        </main>
      </div>
      <SettingsDialog isOpen={settings} onClose={() => setSettings(false)} />
      <CommandPalette isOpen={palette} onClose={() => setPalette(false)} />
    </div>
  );
}
