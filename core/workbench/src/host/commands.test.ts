import { describe, expect, it } from 'vitest';
import type { CommandContribution, ServiceAccessor, WhenContext } from '@decisio/sdk-plugin';
import { CommandServiceImpl } from './commands';

const when = (): WhenContext => ({ signedIn: true, locale: 'en-US', theme: 'light', pathname: '/dashboard', search: {}, user: undefined });
const runCtx = () => ({ services: {} as ServiceAccessor, dispatch: (a: unknown) => a as never });
const ctrlP = () => new KeyboardEvent('keydown', { key: 'p', ctrlKey: true, cancelable: true });

describe('CommandServiceImpl keybindings', () => {
  it('runs a bound command only while the user may run it, and otherwise swallows the key (no browser print)', () => {
    const ran: string[] = [];
    const quickOpen: CommandContribution = { id: 'projects.quickOpen', titleKey: 't', keybinding: 'Mod+P', opens: '/all-project', run: () => void ran.push('quickOpen') };
    let allowed = false;
    const seen: string[] = [];
    const commands = new CommandServiceImpl(() => [quickOpen], when, runCtx, (c) => (seen.push(c.id), allowed));
    const target = new EventTarget() as unknown as Window;
    const keys = commands.bindKeys(target, false);

    const hidden = ctrlP();
    target.dispatchEvent(hidden);
    expect(ran).toEqual([]);
    // The workbench binds the key: gated, it runs nothing, but the browser's print dialog does not open either.
    expect(hidden.defaultPrevented).toBe(true);
    expect(seen).toEqual(['projects.quickOpen']);
    expect(commands.isAllowed(quickOpen)).toBe(false);

    allowed = true;
    const shown = ctrlP();
    target.dispatchEvent(shown);
    expect(ran).toEqual(['quickOpen']);
    expect(shown.defaultPrevented).toBe(true);

    keys.dispose();
    target.dispatchEvent(ctrlP());
    expect(ran).toEqual(['quickOpen']);
  });

  it('passes a gated key on to the next command bound to it that the user may run', () => {
    const ran: string[] = [];
    const gated: CommandContribution = { id: 'a.gated', titleKey: 't', keybinding: 'Mod+P', run: () => void ran.push('gated') };
    const open: CommandContribution = { id: 'b.open', titleKey: 't', keybinding: 'Mod+P', run: () => void ran.push('open') };
    const commands = new CommandServiceImpl(() => [gated, open], when, runCtx, (c) => c.id !== 'a.gated');
    const target = new EventTarget() as unknown as Window;
    commands.bindKeys(target, false);
    target.dispatchEvent(ctrlP());
    expect(ran).toEqual(['open']);
  });

  it('leaves a key to the browser where no command bound to it is enabled (its when), nor touches other keys', () => {
    const ran: string[] = [];
    let signedIn = false;
    const quickOpen: CommandContribution = { id: 'projects.quickOpen', titleKey: 't', keybinding: 'Mod+P', when: (c) => c.signedIn, run: () => void ran.push('quickOpen') };
    const commands = new CommandServiceImpl(() => [quickOpen], () => ({ ...when(), signedIn }), runCtx, () => false);
    const target = new EventTarget() as unknown as Window;
    commands.bindKeys(target, false);

    const signedOut = ctrlP();
    target.dispatchEvent(signedOut);
    expect(signedOut.defaultPrevented).toBe(false);
    const other = new KeyboardEvent('keydown', { key: 's', ctrlKey: true, cancelable: true });
    target.dispatchEvent(other);
    expect(other.defaultPrevented).toBe(false);

    signedIn = true;
    const gated = ctrlP();
    target.dispatchEvent(gated);
    expect(gated.defaultPrevented).toBe(true);
    expect(ran).toEqual([]);
  });

  it('lets everyone run a command when no gate is given', () => {
    const ran: string[] = [];
    const commands = new CommandServiceImpl(() => [{ id: 'x.y', titleKey: 't', keybinding: 'Mod+P', run: () => void ran.push('x') }], when, runCtx);
    const target = new EventTarget() as unknown as Window;
    commands.bindKeys(target, false);
    target.dispatchEvent(ctrlP());
    expect(ran).toEqual(['x']);
  });
});
