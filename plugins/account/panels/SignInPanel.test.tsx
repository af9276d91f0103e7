import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ErrorCode } from '@decisio/domain';
import { localeServiceRef, themeServiceRef } from '@decisio/sdk-plugin';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { accountPlugin } from '../index';
import { testKeyPair } from '../test/keys';

const signInRoute = accountPlugin.routes.find((r) => r.path === '/sign-in')!;

describe('SignInPanel', () => {
  afterEach(() => cleanup());

  it('encrypts the password, stores the session and goes to /dashboard', async () => {
    const keys = await testKeyPair();
    const host = createTestHost({ plugins: [accountPlugin], locale: 'en-US' });
    host.mockCall('index/getPublicKey', { data: { keyId: 'k1', spki: keys.spki, algorithm: 'RSA-OAEP-256', nonce: 'nonce-0123456789abcd', nonceExpiresAt: '2030-01-01T00:00:00Z' } });
    host.mockCall('index/signIn', { data: { accessToken: 'tok', userId: 'u1', expiresAt: '2030-01-01T00:00:00Z' } });
    await renderPanel(signInRoute, { host });
    fireEvent.change(screen.getByTestId('signin-username'), { target: { value: 'alice_1' } });
    fireEvent.change(screen.getByTestId('signin-password'), { target: { value: 'Secret123' } });
    fireEvent.submit(screen.getByTestId('signin-submit').closest('form')!);
    await waitFor(() => expect(host.location().pathname).toBe('/dashboard'));
    const body = host.calls.find((c) => c.url === 'index/signIn')!.body as { username: string; password: string };
    expect(body.username).toBe('alice_1');
    expect(body.password).not.toBe('Secret123');
    // The one-time nonce of the key answer travels inside the ciphertext.
    expect(await keys.decrypt(body.password)).toBe('\u0000nonce-0123456789abcd\u0000Secret123');
    expect(host.session()).toEqual({ token: 'tok', userId: 'u1' });
  });

  it('applies the language and theme kept with the account after signing in', async () => {
    const keys = await testKeyPair();
    const host = createTestHost({ plugins: [accountPlugin], locale: 'en-US' });
    host.mockCall('index/getPublicKey', { data: { keyId: 'k1', spki: keys.spki, algorithm: 'RSA-OAEP-256', nonce: 'nonce-0123456789abcd', nonceExpiresAt: '2030-01-01T00:00:00Z' } });
    host.mockCall('index/signIn', { data: { accessToken: 'tok', userId: 'u1', expiresAt: '2030-01-01T00:00:00Z' } });
    host.mockCall('users/getUserInfo', { data: { settings: { language: 'zh-CN', theme: 'dark', emailNotifications: false } } });
    await renderPanel(signInRoute, { host });
    fireEvent.change(screen.getByTestId('signin-username'), { target: { value: 'alice_1' } });
    fireEvent.change(screen.getByTestId('signin-password'), { target: { value: 'Secret123' } });
    fireEvent.click(screen.getByTestId('signin-submit'));
    await waitFor(() => expect(host.location().pathname).toBe('/dashboard'));
    expect(host.services.get(localeServiceRef).getLocale()).toBe('zh-CN');
    expect(host.services.get(themeServiceRef).getTheme()).toBe('dark');
  });

  it('shows required-field errors in the current language and sends nothing', async () => {
    const { host } = await renderPanel(signInRoute, { plugins: [accountPlugin], locale: 'zh-CN' });
    fireEvent.click(screen.getByTestId('signin-submit'));
    expect(await screen.findAllByText('此项为必填项')).toHaveLength(2);
    expect(host.calls).toEqual([]);
  });

  it('shows the server message on wrong credentials', async () => {
    const keys = await testKeyPair();
    const host = createTestHost({ plugins: [accountPlugin], locale: 'en-US' });
    host.mockCall('index/getPublicKey', { data: { keyId: 'k1', spki: keys.spki, algorithm: 'RSA-OAEP-256', nonce: 'nonce-0123456789abcd', nonceExpiresAt: '2030-01-01T00:00:00Z' } });
    host.mockCall('index/signIn', { code: ErrorCode.wrongLoginNameOrPassword, message: 'Wrong login name or password' });
    await renderPanel(signInRoute, { host });
    fireEvent.change(screen.getByTestId('signin-username'), { target: { value: 'alice_1' } });
    fireEvent.change(screen.getByTestId('signin-password'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByTestId('signin-submit'));
    expect((await screen.findByTestId('signin-error')).textContent).toContain('Wrong login name or password');
    expect(host.session().token).toBeNull();
  });

  it('shows a captcha when the server asks for one and sends its answer with the next try', async () => {
    const keys = await testKeyPair();
    const host = createTestHost({ plugins: [accountPlugin], locale: 'en-US' });
    host.mockCall('index/getPublicKey', { data: { keyId: 'k1', spki: keys.spki, algorithm: 'RSA-OAEP-256', nonce: 'nonce-0123456789abcd', nonceExpiresAt: '2030-01-01T00:00:00Z' } });
    host.mockCall('captcha/captchaImage', { data: { captchaId: 'd'.repeat(32), image: 'data:image/svg+xml;base64,PHN2Zy8+', width: 150, height: 50, expiresAt: '2030-01-01T00:00:00Z' } });
    let tries = 0;
    host.mockCall('index/signIn', () => (tries++ === 0 ? { code: ErrorCode.captchaRequired, message: 'Enter the characters shown in the picture' } : { data: { accessToken: 'tok', userId: 'u1', expiresAt: '2030-01-01T00:00:00Z' } }));
    await renderPanel(signInRoute, { host });
    fireEvent.change(screen.getByTestId('signin-username'), { target: { value: 'alice_1' } });
    fireEvent.change(screen.getByTestId('signin-password'), { target: { value: 'Secret123' } });
    fireEvent.click(screen.getByTestId('signin-submit'));
    fireEvent.change(await screen.findByTestId('signin-captcha'), { target: { value: 'XY23A' } });
    fireEvent.click(screen.getByTestId('signin-submit'));
    await waitFor(() => expect(host.location().pathname).toBe('/dashboard'));
    const last = host.calls.filter((c) => c.url === 'index/signIn').at(-1)!.body;
    expect(last).toMatchObject({ username: 'alice_1', captchaId: 'd'.repeat(32), captchaCode: 'XY23A' });
  });
  it('replaces a captcha that expires on screen (saying so), and shows the server\'s expired answer beside a fresh picture, in Chinese', async () => {
    const keys = await testKeyPair();
    const host = createTestHost({ plugins: [accountPlugin], locale: 'zh-CN' });
    host.mockCall('index/getPublicKey', { data: { keyId: 'k1', spki: keys.spki, algorithm: 'RSA-OAEP-256', nonce: 'nonce-0123456789abcd', nonceExpiresAt: '2030-01-01T00:00:00Z' } });
    let pictures = 0;
    // The first picture expires while the user reads it; the others do not.
    host.mockCall('captcha/captchaImage', () => {
      const id = String.fromCharCode(97 + pictures);
      const expiresAt = pictures++ === 0 ? new Date(Date.now() + 150).toISOString() : '2030-01-01T00:00:00Z';
      return { data: { captchaId: id.repeat(32), image: `data:image/svg+xml;base64,${id}`, width: 150, height: 50, expiresAt } };
    });
    let tries = 0;
    host.mockCall('index/signIn', () =>
      tries++ === 0 ? { code: ErrorCode.captchaRequired, message: '请输入图片中的字符' } : tries === 2 ? { code: ErrorCode.captchaExpired, message: '图片验证码已过期，请输入新图片中的字符' } : { data: { accessToken: 'tok', userId: 'u1', expiresAt: '2030-01-01T00:00:00Z' } },
    );
    await renderPanel(signInRoute, { host });
    fireEvent.change(screen.getByTestId('signin-username'), { target: { value: 'alice_1' } });
    fireEvent.change(screen.getByTestId('signin-password'), { target: { value: 'Secret123' } });
    fireEvent.click(screen.getByTestId('signin-submit'));
    const answer = await screen.findByTestId('signin-captcha');
    await waitFor(() => expect(answer.getAttribute('data-captcha-id')).toBe('a'.repeat(32)));
    fireEvent.change(answer, { target: { value: 'AAAAA' } });
    // It expires: a new picture, the answer typed for the old one gone, and a word why.
    await waitFor(() => expect(answer.getAttribute('data-captcha-id')).toBe('b'.repeat(32)));
    expect((answer as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('signin-captcha-error').textContent).toBe('图片验证码已过期，请输入新图片中的字符');
    fireEvent.change(answer, { target: { value: 'BBBBB' } });
    expect(screen.queryByTestId('signin-captcha-error')).toBeNull();
    fireEvent.click(screen.getByTestId('signin-submit'));
    // The server finds it expired all the same (its clock): its message, and a fresh picture.
    expect((await screen.findByTestId('signin-error')).textContent).toBe('图片验证码已过期，请输入新图片中的字符');
    await waitFor(() => expect(answer.getAttribute('data-captcha-id')).toBe('c'.repeat(32)));
    expect(host.calls.filter((c) => c.url === 'index/signIn').at(-1)!.body).toMatchObject({ captchaId: 'b'.repeat(32), captchaCode: 'BBBBB' });
    fireEvent.change(answer, { target: { value: 'CCCCC' } });
    fireEvent.click(screen.getByTestId('signin-submit'));
    await waitFor(() => expect(host.location().pathname).toBe('/dashboard'));
    expect(host.calls.filter((c) => c.url === 'index/signIn').at(-1)!.body).toMatchObject({ captchaId: 'c'.repeat(32), captchaCode: 'CCCCC' });
  });
});
