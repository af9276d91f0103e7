import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ErrorCode } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { accountPlugin } from '../index';
import { testKeyPair } from '../test/keys';

const route = accountPlugin.routes.find((r) => r.path === '/sign-up')!;
const type = (id: string, value: string) => fireEvent.change(screen.getByTestId(id), { target: { value } });
const next = () => fireEvent.click(screen.getByTestId('signup-next'));
/** A host whose `index/verifyEmailCode` accepts the code (the first step checks it before going on). */
function codeHost(locale: 'en-US' | 'zh-CN' = 'en-US') {
  const host = createTestHost({ plugins: [accountPlugin], locale });
  host.mockCall('index/verifyEmailCode', { data: { valid: true, expiresAt: '2030-01-01T00:00:00Z' } });
  host.mockCall('index/expirationTime', { data: { codeTtlSeconds: 600, resendSeconds: 60, resendInSeconds: 0 } });
  return host;
}

async function fillToStep3() {
  type('signup-username', 'alice_1');
  type('signup-email', 'alice@example.com');
  type('signup-code', 'ABC123');
  next();
  await screen.findByTestId('signup-occupation');
  fireEvent.change(screen.getByTestId('signup-occupation'), { target: { value: 'algorithmEngineer' } });
  type('signup-organisation', 'Acme');
  next();
  await screen.findByTestId('signup-password');
}

describe('SignUpPanel', () => {
  afterEach(() => cleanup());

  it('validates step 1 in the current language and stays there', async () => {
    await renderPanel(route, { plugins: [accountPlugin], locale: 'en-US' });
    type('signup-username', 'ab');
    type('signup-email', 'not-an-email');
    next();
    expect((await screen.findByTestId('signup-username-error')).textContent).toBe('Username must be 5-20 characters');
    expect(screen.getByTestId('signup-email-error').textContent).toBe('Enter a valid e-mail address');
    expect(screen.getByTestId('signup-step-1').getAttribute('aria-current')).toBe('step');
  });

  it('shows student fields only for students and requires them', async () => {
    await renderPanel(route, { host: codeHost('zh-CN') });
    type('signup-username', 'alice_1');
    type('signup-email', 'alice@example.com');
    type('signup-code', 'ABC123');
    next();
    await screen.findByTestId('signup-occupation');
    expect(screen.queryByTestId('signup-student-fields')).toBeNull();
    fireEvent.change(screen.getByTestId('signup-occupation'), { target: { value: 'student' } });
    expect(screen.getByTestId('signup-student-fields')).toBeTruthy();
    next();
    expect((await screen.findByTestId('signup-university-error')).textContent).toBe('此项为必填项');
  });

  it('sends the e-mail code with the captcha answer and counts down before a resend', async () => {
    const host = createTestHost({ plugins: [accountPlugin], locale: 'en-US' });
    host.mockCall('captcha/captchaImage', { data: { captchaId: 'c'.repeat(32), image: 'data:image/svg+xml;base64,PHN2Zy8+', width: 150, height: 50, expiresAt: '2030-01-01T00:00:00Z' } });
    host.mockCall('index/generateEmailCode', { data: { sentTo: 'a***@example.com', expiresAt: '2030-01-01T00:00:00Z', resendSeconds: 60 } });
    await renderPanel(route, { host });
    type('signup-email', 'alice@example.com');
    await waitFor(() => expect(screen.getByTestId('signup-captcha').getAttribute('data-captcha-id')).toBe('c'.repeat(32)));
    fireEvent.click(screen.getByTestId('signup-send'));
    expect((await screen.findByTestId('signup-captcha-error')).textContent).toBe('Enter the characters in the picture first');
    type('signup-captcha', 'AB23X');
    fireEvent.click(screen.getByTestId('signup-send'));
    expect((await screen.findByTestId('signup-sent')).textContent).toBe('Code sent to a***@example.com');
    expect(host.calls.find((c) => c.url === 'index/generateEmailCode')!.body).toEqual({ email: 'alice@example.com', purpose: 'signUp', captchaId: 'c'.repeat(32), captchaCode: 'AB23X' });
    expect(screen.getByTestId('signup-send').textContent).toMatch(/Resend in \d+ s/);
  });

  it('checks the password rules, the match and the agreement on step 3', async () => {
    await renderPanel(route, { host: codeHost() });
    await fillToStep3();
    type('signup-password', 'Abcdefg1');
    type('signup-confirm-password', 'Abcdefg2');
    fireEvent.click(screen.getByTestId('signup-submit'));
    expect((await screen.findByTestId('signup-confirm-password-error')).textContent).toBe('The passwords do not match');
    expect(screen.getByTestId('signup-agreement-error').textContent).toContain('accept the user agreement');
  });

  it('signs up with an encrypted password and goes to sign-in with a toast', async () => {
    const keys = await testKeyPair();
    const host = codeHost();
    host.mockCall('index/getPublicKey', { data: { keyId: 'k1', spki: keys.spki, algorithm: 'RSA-OAEP-256', nonce: 'nonce-0123456789abcd', nonceExpiresAt: '2030-01-01T00:00:00Z' } });
    host.mockCall('index/signUp', { data: { userId: 'u1' } });
    await renderPanel(route, { host });
    await fillToStep3();
    type('signup-password', 'Abcdefg1');
    type('signup-confirm-password', 'Abcdefg1');
    fireEvent.click(screen.getByTestId('signup-agreement'));
    fireEvent.click(screen.getByTestId('signup-submit'));
    await waitFor(() => expect(host.location().pathname).toBe('/sign-in'));
    expect(host.location().search).toEqual({ username: 'alice_1' });
    expect(host.toasts.map((t) => t.message)).toContain('Account created, please sign in');
    const body = host.calls.find((c) => c.url === 'index/signUp')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ username: 'alice_1', email: 'alice@example.com', occupation: 'algorithmEngineer', organisation: 'Acme', agreement: true, codeChannel: 'email', code: 'ABC123' });
    expect(await keys.decrypt(body.password as string)).toBe('\u0000nonce-0123456789abcd\u0000Abcdefg1');
  });

  it('returns to step 1 and shows "username registered" under the field', async () => {
    const keys = await testKeyPair();
    const host = codeHost();
    host.mockCall('index/getPublicKey', { data: { keyId: 'k1', spki: keys.spki, algorithm: 'RSA-OAEP-256', nonce: 'nonce-0123456789abcd', nonceExpiresAt: '2030-01-01T00:00:00Z' } });
    host.mockCall('index/signUp', { code: ErrorCode.usernameRegistered, message: 'The username is already registered' });
    await renderPanel(route, { host });
    await fillToStep3();
    type('signup-password', 'Abcdefg1');
    type('signup-confirm-password', 'Abcdefg1');
    fireEvent.click(screen.getByTestId('signup-agreement'));
    fireEvent.click(screen.getByTestId('signup-submit'));
    expect((await screen.findByTestId('signup-username-error')).textContent).toBe('The username is already registered');
    expect(screen.getByTestId('signup-step-1').getAttribute('aria-current')).toBe('step');
  });

  it('checks the code before leaving step 1: a wrong one stays there with the server\'s message, in Chinese', async () => {
    const host = createTestHost({ plugins: [accountPlugin], locale: 'zh-CN' });
    host.mockCall('index/verifyEmailCode', { code: ErrorCode.verifyCodeMismatch, message: '验证码错误' });
    await renderPanel(route, { host });
    type('signup-username', 'alice_1');
    type('signup-email', 'alice@example.com');
    type('signup-code', 'ABC124');
    next();
    expect((await screen.findByTestId('signup-code-error')).textContent).toBe('验证码错误');
    expect(screen.getByTestId('signup-step-1').getAttribute('aria-current')).toBe('step');
    expect(host.calls.find((c) => c.url === 'index/verifyEmailCode')!.body).toEqual({ email: 'alice@example.com', purpose: 'signUp', code: 'ABC124' });
    // a right code (sent by SMS this time) moves on
    host.mockCall('index/verifySmsCode', { data: { valid: true, expiresAt: '2030-01-01T00:00:00Z' } });
    fireEvent.click(screen.getByText('短信验证码'));
    type('signup-mobile', '13800138000');
    type('signup-code', '123456');
    next();
    await screen.findByTestId('signup-occupation');
    expect(host.calls.find((c) => c.url === 'index/verifySmsCode')!.body).toEqual({ mobile: '13800138000', purpose: 'signUp', code: '123456' });
  });

  it('goes on with the resend countdown of a code sent before a reload (index/expirationTime), in Chinese', async () => {
    const host = createTestHost({ plugins: [accountPlugin], locale: 'zh-CN' });
    host.mockCall('captcha/captchaImage', { data: { captchaId: 'c'.repeat(32), image: 'data:image/svg+xml;base64,PHN2Zy8+', width: 150, height: 50, expiresAt: '2030-01-01T00:00:00Z' } });
    host.mockCall('index/expirationTime', (body) => ({ data: { codeTtlSeconds: 600, resendSeconds: 60, resendInSeconds: (body as { recipient: string }).recipient === 'alice@example.com' ? 42 : 0 } }));
    await renderPanel(route, { host });
    await waitFor(() => expect(screen.getByTestId('signup-captcha').getAttribute('data-captcha-id')).toBe('c'.repeat(32)));
    type('signup-email', 'bob@example.com');
    await waitFor(() => expect(host.calls.some((c) => c.url === 'index/expirationTime')).toBe(true));
    expect((screen.getByTestId('signup-send') as HTMLButtonElement).disabled).toBe(false);
    type('signup-email', 'alice@example.com');
    await waitFor(() => expect(screen.getByTestId('signup-send').textContent).toMatch(/4[12]/));
    expect((screen.getByTestId('signup-send') as HTMLButtonElement).disabled).toBe(true);
    expect(host.calls.filter((c) => c.url === 'index/expirationTime').map((c) => c.body)).toEqual([
      { channel: 'email', recipient: 'bob@example.com' },
      { channel: 'email', recipient: 'alice@example.com' },
    ]);
    expect(host.calls.some((c) => c.url === 'index/generateEmailCode')).toBe(false);
  });
});
