import { describe, expect, it } from 'vitest';
import { MUST_CHANGE_PASSWORD_STORAGE_KEY, SessionServiceImpl } from './session-service';

describe('session service', () => {
  it('keeps the token and user id in local storage, never in a cookie, and drops an expired token', () => {
    localStorage.clear();
    let now = Date.parse('2026-01-01T00:00:00Z');
    let cleared = 0;
    const s = new SessionServiceImpl(localStorage, () => cleared++, () => now);
    const seen: (string | null)[] = [];
    s.onDidChange((st) => seen.push(st.token));
    expect(s.isSignedIn()).toBe(false);
    s.signIn({ accessToken: 'tok-1', userId: 'u1', expiresAt: '2026-01-02T00:00:00Z' });
    expect(s.getState()).toEqual({ token: 'tok-1', userId: 'u1' });
    expect(document.cookie).not.toContain('tok-1');
    now = Date.parse('2026-01-02T00:00:01Z');
    expect(s.isSignedIn()).toBe(false);
    s.clear();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('userId')).toBeNull();
    expect(cleared).toBe(1);
    expect(seen).toEqual(['tok-1', null]);
  });

  it("keeps a sign-in's 'password must change first' mark until it is lifted, a new sign-in without it or a sign-out", () => {
    localStorage.clear();
    const s = new SessionServiceImpl(localStorage);
    s.signIn({ accessToken: 'tok-1', userId: 'u1', mustChangePassword: true });
    expect(s.mustChangePassword()).toBe(true);
    s.setMustChangePassword(false);
    expect(s.mustChangePassword()).toBe(false);
    s.setMustChangePassword(true);
    s.clear();
    expect(s.mustChangePassword()).toBe(false);
    expect(localStorage.getItem(MUST_CHANGE_PASSWORD_STORAGE_KEY)).toBeNull();
    s.signIn({ accessToken: 'tok-2', userId: 'u1', mustChangePassword: true });
    s.signIn({ accessToken: 'tok-3', userId: 'u1' });
    expect(s.mustChangePassword()).toBe(false);
  });
});
