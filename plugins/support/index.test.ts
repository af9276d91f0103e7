import { describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/TicketsPanel', async (orig) => (loaded.push('TicketsPanel'), orig()));
vi.mock('./panels/ContactPanel', async (orig) => (loaded.push('ContactPanel'), orig()));
vi.mock('./panels/TicketDialogs', async (orig) => (loaded.push('TicketDialogs'), orig()));
vi.mock('./panels/ContactsAdminPanel', async (orig) => (loaded.push('ContactsAdminPanel'), orig()));

describe('support manifest', () => {
  it('loads no panel code when imported; the contact form is public, the tickets are not', async () => {
    const { supportPlugin } = await import('./index');
    expect(loaded).toEqual([]);
    expect(supportPlugin.routes.map((r) => [r.path, 'public' in r && r.public === true])).toEqual([
      ['/contact-us', true],
      ['/support', false],
      ['/admin/contacts', false],
    ]);
  });

  it('offers the contact messages screen in the side menu and the palette to contacts:read only', async () => {
    const { supportPlugin, canReadContacts } = await import('./index');
    expect(supportPlugin.menuItems.find((m) => m.to === '/admin/contacts')).toMatchObject({ location: 'side', when: canReadContacts });
    expect(supportPlugin.commands.find((c) => c.id === 'support.contacts')).toMatchObject({ when: canReadContacts });
    const base = { locale: 'en-US', theme: 'light', pathname: '/', search: {}, signedIn: true } as const;
    const user = (permissions: string[]) => ({ isSystemRole: false, isStudent: false, isOperation: false, roles: ['user'], permissions });
    expect(canReadContacts({ ...base, user: user(['contacts:read']) })).toBe(true);
    expect(canReadContacts({ ...base, user: user(['*']) })).toBe(true);
    expect(canReadContacts({ ...base, user: user(['support:write']) })).toBe(false);
    expect(canReadContacts({ ...base, signedIn: false, user: user(['*']) })).toBe(false);
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
