/**
 * The command palette's footer: after the shell's own shortcuts (SHELL_SHORTCUTS), it lists the
 * keybindings of the contributed commands, telling the shell's own entries (Settings, Mod+,) by
 * their `source`, not by their id.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { definePlugin } from '@decisio/sdk-plugin';
import { workbenchFixture } from '../testing/session';
import { APP_PLUGINS } from '../main';
import { testUser, userFetch } from '../testing/session';
import { footerKeybindings, paletteItems, type PaletteItem } from './CommandPalette';
import { searchPalette } from './palette-search';

const item = (id: string, source: PaletteItem['source'], keybinding?: string): PaletteItem => ({ id, source, title: id, keybinding, run: () => {} });

const tools = definePlugin({
  id: 'tools',
  locales: { 'zh-CN': { t: '页', reload: '重新载入' }, 'en-US': { t: 'Page', reload: 'Reload the tools' } },
  routes: [{ path: '/dashboard', titleKey: 't', load: async () => () => <div data-testid="page" /> }],
  commands: [{ id: 'tools.reload', titleKey: 'reload', keybinding: 'Mod+Alt+R', run: () => {} }],
});

describe('the command palette', () => {
  const fx = workbenchFixture();

  it("lists in its footer the keybindings of the commands, not those of the shell's own entries, whatever their ids", () => {
    const items = [
      item('settings', 'shell', 'Mod+,'),
      item('shell:tools.reload', 'command', 'Mod+Alt+R'),
      item('tools.quiet', 'command'),
      item('menu:tools.page', 'page'),
    ];
    expect(footerKeybindings(items).map((x) => x.id)).toEqual(['shell:tools.reload']);
  });

  it("marks where each entry comes from, and lists a command's key once beside the shell's own (Ctrl+, once)", async () => {
    const w = await fx.start('/dashboard', { plugins: [tools] });
    await screen.findByTestId('page', undefined, { timeout: 10_000 });
    const sources = Object.fromEntries(paletteItems(w, { openSettings: () => {} }).map((x) => [x.id, x.source]));
    expect(sources['shell:settings']).toBe('shell');
    expect(sources['tools.reload']).toBe('command');

    fireEvent.keyDown(window, { key: 'P', ctrlKey: true, shiftKey: true });
    await screen.findByTestId('command-palette-input');
    expect(screen.getByTestId('command-shell:settings')).toBeTruthy();
    const help = screen.getByTestId('command-palette-shortcuts').textContent!;
    expect(help).toContain('Reload the tools');
    expect(help).toContain('Ctrl+Alt+R');
    expect(help.split('Ctrl+,').length - 1).toBe(1);
  });

  it('ranks a command above the side menu’s “Go to” entry of its page, in both languages', async () => {
    const admin = { ...testUser, isSystemRole: true, permissions: ['*'] };
    const w = await fx.start('/dashboard', { plugins: APP_PLUGINS, fetchFn: userFetch(admin) });
    await screen.findByTestId('welcome-panel', undefined, { timeout: 10_000 });
    const ranked = (query: string) => searchPalette(paletteItems(w), query).map((x) => x.id);
    const before = (ids: string[], a: string, b: string) => {
      expect(ids, ids.join(', ')).toContain(b);
      expect(ids.indexOf(a), ids.join(', ')).toBeLessThan(ids.indexOf(b));
    };
    // English interface: a Chinese word, and the English one
    before(ranked('用户'), 'admin.open-users', 'menu:admin.menu-users');
    before(ranked('system log'), 'logs.open', 'menu:logs.menu');
    w.locale.setLocale('zh-CN');
    // Chinese interface: an English word, and the Chinese one
    before(ranked('system log'), 'logs.open', 'menu:logs.menu');
    before(ranked('用户'), 'admin.open-users', 'menu:admin.menu-users');
  });
});
