/**
 * The console's own keyboard shortcuts, the ones a VS Code user expects: F1 and Mod+Shift+P open
 * the command palette, Mod+B shows or hides the side menu, Mod+, opens the settings (`Mod` is Cmd
 * on macOS, Ctrl elsewhere). Plugin commands bring their own keybindings (e.g. Mod+P, quick open
 * of the projects); the palette's footer lists both.
 */
import { matchesKeybinding, parseKeybinding } from '../host/commands';

/** What a shell shortcut does. */
export type ShellAction = 'palette' | 'toggleMenu' | 'settings';

/** The shell's shortcuts, as data (shown in the palette's footer). */
export const SHELL_SHORTCUTS: readonly { action: ShellAction; keys: readonly string[] }[] = [
  { action: 'palette', keys: ['F1', 'Mod+Shift+P'] },
  { action: 'toggleMenu', keys: ['Mod+B'] },
  { action: 'settings', keys: ['Mod+,'] },
];

/** The shell action of a key press, or `null`. */
export function shellAction(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>, isMac: boolean): ShellAction | null {
  for (const s of SHELL_SHORTCUTS) {
    if (s.keys.some((k) => matchesKeybinding(e, parseKeybinding(k, isMac)))) return s.action;
  }
  return null;
}

/** A keybinding as shown to the user: `Mod+Shift+P` is `Ctrl+Shift+P`, or `⌘⇧P` on macOS. */
export function formatKeybinding(spec: string, isMac: boolean): string {
  const parts = spec.split('+').map((p) => p.trim());
  const key = parts.pop() ?? '';
  const shownKey = key.length === 1 ? key.toUpperCase() : key;
  if (isMac) {
    const mac: Record<string, string> = { mod: '⌘', cmd: '⌘', meta: '⌘', ctrl: '⌃', shift: '⇧', alt: '⌥' };
    return parts.map((p) => mac[p.toLowerCase()] ?? p).join('') + shownKey;
  }
  const pc: Record<string, string> = { mod: 'Ctrl', ctrl: 'Ctrl', shift: 'Shift', alt: 'Alt', meta: 'Meta', cmd: 'Meta' };
  return [...parts.map((p) => pc[p.toLowerCase()] ?? p), shownKey].join('+');
}

/** Whether this browser runs on macOS (Cmd instead of Ctrl). */
export function isMacPlatform(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
}
