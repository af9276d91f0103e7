/**
 * Commands: one contribution feeds menus, keybindings and the palette. This module runs them,
 * evaluates their `when` predicates and the user's gate, and dispatches keybindings.
 */
import type { Dispatch } from '@reduxjs/toolkit';
import {
  toDisposable,
  type CommandContribution,
  type CommandService,
  type Disposable,
  type ServiceAccessor,
  type WhenContext,
} from '@decisio/sdk-plugin';

/** A parsed keybinding like `Mod+Shift+P`. */
export interface ParsedKeybinding {
  key: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
  alt: boolean;
}

/** Parses `Mod+Shift+P` (`Mod` = Cmd on macOS, Ctrl elsewhere). @throws Error on an empty key. */
export function parseKeybinding(spec: string, isMac: boolean): ParsedKeybinding {
  const parts = spec.split('+').map((p) => p.trim().toLowerCase());
  const key = parts.pop();
  if (!key) throw new Error(`bad keybinding "${spec}"`);
  const has = (m: string) => parts.includes(m);
  return {
    key,
    ctrl: has('ctrl') || (has('mod') && !isMac),
    meta: has('meta') || has('cmd') || (has('mod') && isMac),
    shift: has('shift'),
    alt: has('alt'),
  };
}

/** `true` when a keyboard event matches a parsed keybinding. */
export function matchesKeybinding(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>, k: ParsedKeybinding): boolean {
  return e.key.toLowerCase() === k.key && e.ctrlKey === k.ctrl && e.metaKey === k.meta && e.shiftKey === k.shift && e.altKey === k.alt;
}

/** {@link CommandService} over the contributed commands. */
export class CommandServiceImpl implements CommandService {
  /**
   * @param allowed whether the user may run a command (the workbench passes the palette's gate,
   *   `commandAllowed` of the user's menus and permissions); everyone may when left out.
   */
  constructor(
    private readonly list: () => readonly CommandContribution[],
    private readonly when: () => WhenContext,
    private readonly run: () => { services: ServiceAccessor; dispatch: Dispatch },
    private readonly allowed: (command: CommandContribution) => boolean = () => true,
  ) {}

  private find(id: string): CommandContribution {
    const c = this.list().find((x) => x.id === id);
    if (!c) throw new Error(`unknown command "${id}"`);
    return c;
  }

  isEnabled(id: string): boolean {
    const c = this.list().find((x) => x.id === id);
    return !!c && (!c.when || c.when(this.when()));
  }

  /**
   * Whether the user may run `command` now (their menus and permissions): the palette lists it
   * and its keybinding runs it only then (otherwise the key is swallowed, see {@link bindKeys}).
   */
  isAllowed(command: CommandContribution): boolean {
    return this.allowed(command);
  }

  async execute(id: string, ...args: unknown[]): Promise<unknown> {
    const c = this.find(id);
    return c.run(this.run(), ...args);
  }

  /**
   * Listens for keybindings on `target`; runs the first matching command that is enabled and
   * that the user may run ({@link isAllowed}). The key of an enabled command that the gate keeps
   * from the user (e.g. while the user's menus load) runs nothing, yet its default is prevented:
   * a workbench shortcut never falls through to the browser's own action (Mod+P would print).
   * A key whose commands are all disabled by their `when` (e.g. Mod+P before signing in) is not
   * the workbench's there and is left to the browser.
   */
  bindKeys(target: Pick<Window, 'addEventListener' | 'removeEventListener'>, isMac: boolean): Disposable {
    const bound = this.list()
      .filter((c) => c.keybinding)
      .map((c) => ({ c, k: parseKeybinding(c.keybinding!, isMac) }));
    const onKey = (e: KeyboardEvent) => {
      let gated = false;
      for (const { c, k } of bound) {
        if (!matchesKeybinding(e, k) || !this.isEnabled(c.id)) continue;
        if (!this.isAllowed(c)) {
          gated = true;
          continue;
        }
        e.preventDefault();
        void this.execute(c.id);
        return;
      }
      if (gated) e.preventDefault();
    };
    target.addEventListener('keydown', onKey);
    return toDisposable(() => target.removeEventListener('keydown', onKey));
  }
}
