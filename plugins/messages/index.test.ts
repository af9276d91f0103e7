import { describe, expect, it, vi } from 'vitest';

// Every module under panels/ records its evaluation; importing the manifest must record none.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/MessagesPanel', async (orig) => (loaded.push('MessagesPanel'), orig()));
vi.mock('./panels/MessagesBell', async (orig) => (loaded.push('MessagesBell'), orig()));

describe('messages manifest', () => {
  it('loads no panel code when imported, and the bell only when asked', async () => {
    const { messagesPlugin } = await import('./index');
    expect(messagesPlugin.routes.map((r) => r.path)).toEqual(['/user-center/message']);
    expect(loaded).toEqual([]);
    await messagesPlugin.headerItems[0]!.load();
    expect(loaded).toEqual(['MessagesBell']);
  });

  it('shows the bell to signed-in users only', async () => {
    const { messagesPlugin } = await import('./index');
    const when = messagesPlugin.headerItems[0]!.when!;
    const ctx = { locale: 'en-US', theme: 'light', pathname: '/dashboard', search: {} } as const;
    expect(when({ ...ctx, signedIn: true })).toBe(true);
    expect(when({ ...ctx, signedIn: false })).toBe(false);
  });
});
