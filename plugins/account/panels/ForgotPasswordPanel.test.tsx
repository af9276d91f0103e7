import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ErrorCode } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { accountPlugin } from '../index';
import { testKeyPair } from '../test/keys';

const route = accountPlugin.routes.find((r) => r.path === '/forgot-password')!;
const type = (id: string, value: string) => fireEvent.change(screen.getByTestId(id), { target: { value } });

describe('ForgotPasswordPanel', () => {
  afterEach(() => cleanup());

  function host() {
    const h = createTestHost({ plugins: [accountPlugin], locale: 'en-US' });
    h.mockCall('captcha/captchaImage', { data: { captchaId: 'c'.repeat(32), image: 'data:image/svg+xml;base64,PHN2Zy8+', width: 150, height: 50, expiresAt: '2030-01-01T00:00:00Z' } });
    return h;
  }

  it('checks the fields before sending anything', async () => {
    const h = host();
    await renderPanel(route, { host: h });
    type('reset-email', 'nope');
    fireEvent.click(screen.getByTestId('reset-submit'));
    expect((await screen.findByTestId('reset-email-error')).textContent).toBe('Enter a valid e-mail address');
    expect(screen.getByTestId('reset-password-error')).toBeTruthy();
    expect(h.calls.some((c) => c.url === 'index/resetPassword')).toBe(false);
  });

  it('resets with the code and an encrypted password, then goes to sign-in; a wrong code shows under the field', async () => {
    const keys = await testKeyPair();
    const h = host();
    h.mockCall('index/getPublicKey', { data: { keyId: 'k1', spki: keys.spki, algorithm: 'RSA-OAEP-256', nonce: 'nonce-0123456789abcd', nonceExpiresAt: '2030-01-01T00:00:00Z' } });
    let tries = 0;
    h.mockCall('index/resetPassword', () => (tries++ === 0 ? { code: ErrorCode.verifyCodeMismatch, message: 'Verification code is wrong' } : { data: { userId: 'u1' } }));
    await renderPanel(route, { host: h });
    type('reset-email', 'alice@example.com');
    type('reset-code', 'ABC123');
    type('reset-password', 'NewSecret456');
    type('reset-confirmPassword', 'NewSecret456');
    fireEvent.click(screen.getByTestId('reset-submit'));
    expect((await screen.findByTestId('reset-code-error')).textContent).toBe('Verification code is wrong');
    type('reset-code', 'ABC124');
    fireEvent.click(screen.getByTestId('reset-submit'));
    await waitFor(() => expect(h.location().pathname).toBe('/sign-in'));
    const body = h.calls.filter((c) => c.url === 'index/resetPassword').at(-1)!.body as { email: string; code: string; password: string };
    expect(body).toMatchObject({ email: 'alice@example.com', code: 'ABC124' });
    expect(await keys.decrypt(body.password)).toBe('\u0000nonce-0123456789abcd\u0000NewSecret456');
    expect(h.toasts.map((t) => t.message)).toContain('Password changed, please sign in with the new one');
  });
});
