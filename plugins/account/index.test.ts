import { describe, expect, it, vi } from 'vitest';

// Every module under panels/ records its evaluation; importing the manifest must record none.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./panels/SignInPanel', async (orig) => (loaded.push('SignInPanel'), orig()));
vi.mock('./panels/SignUpPanel', async (orig) => (loaded.push('SignUpPanel'), orig()));
vi.mock('./panels/LegalPanels', async (orig) => (loaded.push('LegalPanels'), orig()));
vi.mock('./panels/AuthFrame', async (orig) => (loaded.push('AuthFrame'), orig()));
vi.mock('./model/sign-out', async (orig) => (loaded.push('sign-out'), orig()));

describe('account manifest', () => {
  it('loads no panel code when imported', async () => {
    const { accountPlugin } = await import('./index');
    expect(accountPlugin.id).toBe('account');
    expect(loaded).toEqual([]);
  });

  it('loads a panel only when its route is opened', async () => {
    const { accountPlugin } = await import('./index');
    await accountPlugin.routes.find((r) => r.path === '/sign-in')!.load!();
    expect(loaded).toContain('SignInPanel');
    expect(loaded).not.toContain('SignUpPanel');
  });

  it('declares public sign-in, sign-up, forgot-password, privacy and agreement routes', async () => {
    const { accountPlugin } = await import('./index');
    expect(accountPlugin.routes.filter((r) => r.public).map((r) => r.path)).toEqual([
      '/sign-in',
      '/sign-up',
      '/forgot-password',
      '/privacy',
      '/agreement',
    ]);
  });
});
