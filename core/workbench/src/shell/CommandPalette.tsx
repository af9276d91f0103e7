import { useEffect, useMemo, useRef, useState } from 'react';
import { DialogBody, DialogFooter, InputGroup, Menu, MenuItem, NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { DIALOG_WIDTH, LOCALES } from '@decisio/domain';
import { baseApi, Dialog, useCurrentUser, useLocale } from '@decisio/sdk-plugin';
import type { Workbench } from '../host/workbench';
import { useWorkbench } from '../host/workbench-context';
import { useWorkbenchT } from '../i18n/i18n';
import { sideMenuEntries } from './side-entries';
import { searchPalette, type PaletteEntry, type PaletteSource } from './palette-search';
import { formatKeybinding, isMacPlatform, SHELL_SHORTCUTS } from './shortcuts';

export type { PaletteSource } from './palette-search';

/** One line of the palette: the shell's own, a contributed command, or a side-menu entry that opens a page. */
export interface PaletteItem extends PaletteEntry {
  /** The shell's own (Settings, whose key is one of `SHELL_SHORTCUTS`), a contributed command, or a side-menu entry. */
  source: PaletteSource;
  icon?: string;
  keybinding?: string;
  run(): void;
}

/**
 * The entries whose keybindings the palette's footer lists after the shell's own shortcuts: those
 * with a keybinding, less the shell's own entries (`source: 'shell'`), whose keys are listed from
 * `SHELL_SHORTCUTS` already.
 */
export function footerKeybindings(items: readonly PaletteItem[]): PaletteItem[] {
  return items.filter((x) => x.keybinding && x.source !== 'shell');
}

/** What the shell around the palette opens itself (not a plugin's command nor a page). */
export interface PaletteShell {
  /** Opens the workbench's Settings dialog (Mod+,); called as the palette closes. */
  openSettings(): void;
}

/**
 * What the palette offers now: the shell's own dialogs (`shell`: Settings), every enabled command
 * that plugins contribute (as data, with a translated title, English keywords and an optional
 * keybinding) that the user may run (the user's menus hold the page it opens and the user holds
 * its permissions: `commandAllowed`, through `wb.commands.isAllowed`, the gate of the keybindings
 * too), then the side-menu entries that open a page (those the side menu shows: `sideMenuEntries`). Titles are in the
 * current language; the titles in the other languages (`otherTitles`, from the same bundles) are
 * searched too, whatever the interface language. Until the user is known, gated commands and pages
 * are left out.
 */
export function paletteItems(wb: Workbench, shell?: PaletteShell): PaletteItem[] {
  const current = wb.locale.getLocale();
  const others = LOCALES.filter((l) => l !== current).map((l) => wb.i18n.getFixedT(l));
  /** The title of `key` in each other language. */
  const otherTitles = (key: string, params?: Record<string, unknown>): string[] => others.map((t) => t(key, params as never) as unknown as string);
  const own: PaletteItem[] = shell
    ? [
        {
          id: 'shell:settings',
          source: 'shell',
          title: wb.locale.t('workbench:palette.openSettings'),
          otherTitles: otherTitles('workbench:palette.openSettings'),
          keywords: ['settings', 'preferences', 'options'],
          icon: 'wrench',
          keybinding: 'Mod+,',
          run: () => shell.openSettings(),
        },
      ]
    : [];
  const user = baseApi.endpoints['core/getUser'].select()(wb.store.getState()).data;
  const commands: PaletteItem[] = wb.host.commands
    .filter((c) => !c.hidden && wb.commands.isEnabled(c.id) && wb.commands.isAllowed(c))
    .map((c) => {
      const key = `${c.pluginId}:${c.titleKey}`;
      return {
        id: c.id,
        source: 'command',
        title: wb.locale.t(key),
        otherTitles: otherTitles(key),
        keywords: c.keywords,
        icon: c.icon,
        keybinding: c.keybinding,
        run: () => void wb.commands.execute(c.id),
      };
    });
  const pages: PaletteItem[] = sideMenuEntries(wb, user)
    .filter((m) => m.to)
    .map((m) => {
      const key = `${m.pluginId}:${m.titleKey}`;
      const to = m.to!;
      return {
        id: `menu:${m.id}`,
        source: 'page',
        title: wb.locale.t('workbench:palette.goTo', { title: wb.locale.t(key) }),
        otherTitles: others.map((t) => t('workbench:palette.goTo', { title: t(key) }) as unknown as string),
        keywords: [to],
        icon: m.icon,
        run: () => wb.navigation.navigate(to),
      };
    });
  return [...own, ...commands, ...pages];
}

/**
 * The command palette (F1 or Mod+Shift+P): fuzzy search over the commands' titles in every
 * language (the current one's first) and their keywords, ↑/↓ to move (wrapping), Enter to run, Escape to close; the footer
 * lists the keyboard shortcuts. The SDK's `Dialog` (mounted closed: Blueprint gives the focus back
 * when it fades); the search box has `autoFocus`, which its first-control focus leaves alone.
 */
export function CommandPalette(props: { isOpen: boolean; onClose: () => void; onClosed?: (dialog: HTMLElement) => void; shell?: PaletteShell }) {
  const wb = useWorkbench();
  const { t } = useWorkbenchT();
  const locale = useLocale();
  // The list follows the user (their menus and permissions) when it arrives while open.
  const user = useCurrentUser().data;
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const isMac = isMacPlatform();
  useEffect(() => {
    if (props.isOpen) {
      setQuery('');
      setActive(0);
    }
  }, [props.isOpen]);
  const all = useMemo(() => (props.isOpen ? paletteItems(wb, props.shell) : []), [wb, props.isOpen, locale, user, props.shell]);
  const items = useMemo(() => searchPalette(all, query), [all, query]);
  useEffect(() => {
    const el = listRef.current?.querySelector<HTMLElement>('[data-active="true"]');
    el?.scrollIntoView?.({ block: 'nearest' });
  }, [active, items]);
  const run = (i: number) => {
    const item = items[i];
    if (!item) return;
    props.onClose();
    item.run();
  };
  const bound = footerKeybindings(all);
  return (
    <Dialog isOpen={props.isOpen} onClose={props.onClose} onClosed={props.onClosed} title={t('palette.title')} icon="console" style={{ width: DIALOG_WIDTH.md }}>
      <DialogBody>
        <InputGroup
          autoFocus
          leftIcon="search"
          placeholder={t('palette.placeholder')}
          value={query}
          data-testid="command-palette-input"
          onValueChange={(v) => (setQuery(v), setActive(0))}
          onKeyDown={(e) => {
            const n = items.length;
            if (e.key === 'ArrowDown') setActive((a) => (n ? (a + 1) % n : 0));
            else if (e.key === 'ArrowUp') setActive((a) => (n ? (a - 1 + n) % n : 0));
            else if (e.key === 'Enter') run(active);
            else if (e.key === 'Escape') props.onClose();
            else return;
            e.preventDefault();
            e.stopPropagation();
          }}
        />
        {items.length === 0 ? (
          <NonIdealState icon="search" description={t('palette.empty')} />
        ) : (
          <Menu className="dc-palette-list" ulRef={listRef} data-testid="command-palette-list">
            {items.map((x, i) => (
              <MenuItem
                key={x.id}
                icon={x.icon as IconName | undefined}
                text={x.title}
                label={x.keybinding ? formatKeybinding(x.keybinding, isMac) : undefined}
                active={i === active}
                onClick={() => run(i)}
                onMouseEnter={() => setActive(i)}
                data-active={i === active ? 'true' : undefined}
                data-testid={`command-${x.id}`}
              />
            ))}
          </Menu>
        )}
      </DialogBody>
      <DialogFooter>
        <div className="dc-palette-help" aria-label={t('palette.shortcuts')} data-testid="command-palette-shortcuts">
          {SHELL_SHORTCUTS.map((s) => (
            <span key={s.action}>
              {s.keys.map((k) => (
                <kbd key={k}>{formatKeybinding(k, isMac)}</kbd>
              ))}
              {t(`palette.shortcut.${s.action}`)}
            </span>
          ))}
          {bound.map((x) => (
            <span key={x.id}>
              <kbd>{formatKeybinding(x.keybinding!, isMac)}</kbd>
              {x.title}
            </span>
          ))}
          <span>
            <kbd>↑</kbd>
            <kbd>↓</kbd>
            {t('palette.shortcut.navigate')}
          </span>
          <span>
            <kbd>Enter</kbd>
            {t('palette.shortcut.run')}
          </span>
          <span>
            <kbd>Esc</kbd>
            {t('palette.shortcut.close')}
          </span>
        </div>
      </DialogFooter>
    </Dialog>
  );
}
