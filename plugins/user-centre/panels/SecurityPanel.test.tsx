import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ErrorCode } from '@decisio/domain';
import { createTestHost, renderPanel, TEST_USER_PROFILE } from '@decisio/sdk-plugin/testing';
import { userCentrePlugin } from '../index';
import { testKeyPair } from '../test/keys';

const type = (id: string, value: string) => fireEvent.change(screen.getByTestId(id), { target: { value } });

describe('SecurityPanel', () => {
  afterEach(() => cleanup());

  async function setup(modify: (body: unknown) => object, prepare?: (host: ReturnType<typeof createTestHost>) => void) {
    const keys = await testKeyPair();
    const host = createTestHost({ plugins: [userCentrePlugin], locale: 'en-US', ...(prepare ? { session: { token: 'tok-1', userId: 'u1' } } : {}) });
    prepare?.(host);
    let n = 0;
    host.mockCall('index/getPublicKey', () => ({ data: { keyId: 'k1', spki: keys.spki, algorithm: 'RSA-OAEP-256', nonce: `nonce-${String(n++).padStart(16, '0')}`, nonceExpiresAt: '2030-01-01T00:00:00Z' } }));
    host.mockCall('user/modifyPassword', modify);
    host.mockCall('user/getLastSignInRecord', {
      data: [
        { id: 's1', time: '2026-11-27T01:00:00Z', address: '10.0.0.8', agent: 'Chromium', current: true, active: true },
        { id: 's0', time: '2026-11-26T01:00:00Z', address: null, agent: null, current: false, active: false },
      ],
    });
    await renderPanel(userCentrePlugin.panels.find((p) => p.id === 'user-centre.security')!, { host });
    return { host, keys };
  }

  it('lists the latest sign-ins with the current session marked', async () => {
    await setup(() => ({ data: {} }));
    const rows = await screen.findAllByTestId('signin-record');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('10.0.0.8');
    expect(rows[0]!.textContent).toContain('This session');
    expect(rows[1]!.textContent).toContain('Unknown');
    expect(rows[1]!.textContent).toContain('Ended');
  });

  it('checks the form, shows "current password wrong" under its field, then changes the password with each password encrypted with its own nonce', async () => {
    let tries = 0;
    const { host, keys } = await setup(() => (tries++ === 0 ? { code: ErrorCode.originalPasswordWrong, message: 'The original password is wrong' } : { data: { userId: 'u1' } }));
    fireEvent.click(screen.getByTestId('password-submit'));
    expect((await screen.findByTestId('password-oriPassword-error')).textContent).toBe('This field is required');
    expect(host.calls.some((c) => c.url === 'user/modifyPassword')).toBe(false);
    type('password-oriPassword', 'Secret123');
    type('password-password', 'NewSecret456');
    type('password-confirmPassword', 'NewSecret456');
    fireEvent.click(screen.getByTestId('password-submit'));
    expect((await screen.findByTestId('password-oriPassword-error')).textContent).toBe('The original password is wrong');
    type('password-oriPassword', 'Secret1234');
    fireEvent.click(screen.getByTestId('password-submit'));
    await waitFor(() => expect(host.toasts.map((t) => t.message)).toContain('Password changed; your other sessions were signed out'));
    const body = host.calls.filter((c) => c.url === 'user/modifyPassword').at(-1)!.body as { oriPassword: string; password: string };
    const [ori, next] = [await keys.decrypt(body.oriPassword), await keys.decrypt(body.password)];
    expect(ori.endsWith('\u0000Secret1234')).toBe(true);
    expect(next.endsWith('\u0000NewSecret456')).toBe(true);
    expect(ori.split('\u0000')[1]).not.toBe(next.split('\u0000')[1]);
    expect((screen.getByTestId('password-oriPassword') as HTMLInputElement).value).toBe('');
  });

  it('keeps a user with a temporary password here, says why, and sends them on once it is changed', async () => {
    let changed = false;
    const { host } = await setup(
      () => ((changed = true), { data: { userId: 'u1' } }),
      (h) => h.mockCall('user/getUser', () => ({ data: { ...TEST_USER_PROFILE, mustChangePassword: !changed } })),
    );
    expect((await screen.findByTestId('password-must-change')).textContent).toContain('An administrator set a temporary password for you');
    // The sign-in records would be refused (passwordChangeRequired) until then: not asked for.
    expect(host.calls.some((c) => c.url === 'user/getLastSignInRecord')).toBe(false);
    type('password-oriPassword', 'Temp12345678');
    type('password-password', 'NewSecret456');
    type('password-confirmPassword', 'NewSecret456');
    fireEvent.click(screen.getByTestId('password-submit'));
    await waitFor(() => expect(host.toasts.map((t) => t.message)).toContain('Password changed; you can go on'));
    expect(host.navigations.at(-1)?.pathname).toBe('/');
    await waitFor(() => expect(screen.queryByTestId('password-must-change')).toBeNull());
  });
});
