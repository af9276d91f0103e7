import { useEffect, useState } from 'react';
import { Outlet } from '@tanstack/react-router';
import { AppHeader } from './AppHeader';
import { CommandPalette } from './CommandPalette';
import { SettingsDialog } from './SettingsDialog';
import { SideMenu } from './SideMenu';

/** The signed-in console: header, side menu and the page. */
export function ConsoleShell() {
  const [collapsed, setCollapsed] = useState(false);
  const [settings, setSettings] = useState(false);
  const [palette, setPalette] = useState(false);
  useEffect(() => {
    // Mod+Shift+P opens the command palette (Cmd on macOS, Ctrl elsewhere).
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === 'p') {
        e.preventDefault();
        setPalette(true);
      }
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
