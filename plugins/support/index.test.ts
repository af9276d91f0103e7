import { describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/TicketsPanel', async (orig) => (loaded.push('TicketsPanel'), orig()));
vi.mock('./panels/ContactPanel', async (orig) => (loaded.push('ContactPanel'), orig()));
vi.mock('./panels/TicketDialogs', async (orig) => (loaded.push('TicketDialogs'), orig()));

describe('support manifest', () => {
  it('loads no panel code when imported; the contact form is public, the tickets are not', async () => {
    const { supportPlugin } = await import('./index');
    expect(loaded).toEqual([]);
    expect(supportPlugin.routes.map((r) => [r.path, 'public' in r && r.public === true])).toEqual([
      ['/contact-us', true],
      ['/support', false],
    ]);
  });

  it('lets only users with support:write answer', async () => {
    const { canAnswer } = await import('./index');
    const base = { locale: 'en-US', theme: 'light', pathname: '/', search: {}, signedIn: true } as const;
    const user = (permissions: string[]) => ({ isSystemRole: false, isStudent: false, isOperation: false, roles: ['user'], permissions });
    expect(canAnswer({ ...base, user: user(['support:write']) })).toBe(true);
    expect(canAnswer({ ...base, user: user(['*']) })).toBe(true);
    expect(canAnswer({ ...base, user: user([]) })).toBe(false);
    expect(canAnswer({ ...base, signedIn: false, user: user(['*']) })).toBe(false);
  });
});
