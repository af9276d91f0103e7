import { describe, expect, it } from 'vitest';
import { formatKeybinding, shellAction } from './shortcuts';

const key = (k: string, m: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...m,
});

describe('shell shortcuts', () => {
  it('opens the palette with F1 and Ctrl+Shift+P (Cmd+Shift+P on macOS)', () => {
    expect(shellAction(key('F1'), false)).toBe('palette');
    expect(shellAction(key('F1'), true)).toBe('palette');
    expect(shellAction(key('P', { ctrlKey: true, shiftKey: true }), false)).toBe('palette');
    expect(shellAction(key('p', { metaKey: true, shiftKey: true }), true)).toBe('palette');
    // Ctrl on macOS, Cmd elsewhere, or a missing Shift are something else.
    expect(shellAction(key('P', { ctrlKey: true, shiftKey: true }), true)).toBeNull();
    expect(shellAction(key('p', { ctrlKey: true }), false)).toBeNull();
    expect(shellAction(key('F1', { shiftKey: true }), false)).toBeNull();
  });

  it('toggles the menu with Mod+B and opens the settings with Mod+,', () => {
    expect(shellAction(key('b', { ctrlKey: true }), false)).toBe('toggleMenu');
    expect(shellAction(key(',', { metaKey: true }), true)).toBe('settings');
    expect(shellAction(key('b'), false)).toBeNull();
  });

  it('shows keybindings the platform’s way', () => {
    expect(formatKeybinding('Mod+Shift+P', false)).toBe('Ctrl+Shift+P');
    expect(formatKeybinding('Mod+Shift+P', true)).toBe('⌘⇧P');
    expect(formatKeybinding('F1', false)).toBe('F1');
    expect(formatKeybinding('Mod+,', false)).toBe('Ctrl+,');
  });
});
