import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { ErrorCode } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { userCentrePlugin } from '../index';

const panel = userCentrePlugin.panels.find((p) => p.id === 'user-centre.profile')!;
const INFO = {
  userId: 'u1', username: 'alice_1', nickname: 'Ada', avatarUrl: null, email: 'a@example.com', mobile: null, industry: null, occupation: 'other', organisation: null,
  university: null, major: null, campusEmail: null, isStudent: false, studentUntil: null, settings: { language: null, theme: null, emailNotifications: false },
  createdAt: '2026-11-01T00:00:00Z', lastSignInAt: '2026-11-26T00:00:00Z',
};
const CAPTCHA = { data: { captchaId: 'c'.repeat(32), image: 'data:image/svg+xml;base64,PHN2Zy8+', width: 150, height: 50, expiresAt: '2030-01-01T00:00:00Z' } };
const type = (id: string, value: string) => fireEvent.change(screen.getByTestId(id), { target: { value } });

describe('ProfilePanel', () => {
  afterEach(() => cleanup());

  function host(info: object = INFO) {
    const h = createTestHost({ plugins: [userCentrePlugin], locale: 'en-US' });
    h.mockCall('users/getUserInfo', { data: info });
    h.mockCall('captcha/captchaImage', CAPTCHA);
    return h;
  }

  it('shows an error state with retry when the profile cannot load', async () => {
    const h = createTestHost({ plugins: [userCentrePlugin], locale: 'en-US' });
    h.mockCall('users/getUserInfo', { code: ErrorCode.databaseError, message: 'Database error' });
    await renderPanel(panel, { host: h });
    expect((await screen.findByText(/Could not load: Database error/)).textContent).toBeTruthy();
    expect(screen.getByText('Retry')).toBeTruthy();
  });

  it('saves the profile fields', async () => {
    const h = host();
    h.mockCall('user/editUserInfo', (body) => ({ data: { ...INFO, ...(body as object) } }));
    await renderPanel(panel, { host: h });
    await screen.findByTestId('profile-nickname');
    type('profile-nickname', 'Ada.L');
    type('profile-organisation', 'Lab');
    fireEvent.click(screen.getByTestId('profile-save'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'user/editUserInfo')?.body).toEqual({ nickname: 'Ada.L', industry: null, organisation: 'Lab', occupation: 'other' }));
    expect(h.toasts.map((t) => t.message)).toContain('Saved');
  });

  it('changes the e-mail with a code sent to the new address', async () => {
    const h = host();
    h.mockCall('index/generateEmailCode', { data: { sentTo: 'n***@example.com', expiresAt: '2030-01-01T00:00:00Z', resendSeconds: 60 } });
    let tries = 0;
    h.mockCall('users/updateUserCenter', () => (tries++ === 0 ? { code: ErrorCode.verifyCodeMismatch, message: 'Verification code is wrong' } : { data: { ...INFO, email: 'new@example.com' } }));
    await renderPanel(panel, { host: h });
    fireEvent.click(await screen.findByTestId('profile-change-email'));
    type('contact-address', 'new@example.com');
    await waitFor(() => expect(screen.getByTestId('contact-captcha').getAttribute('data-captcha-id')).toBe('c'.repeat(32)));
    type('contact-captcha', 'AB23X');
    fireEvent.click(screen.getByTestId('contact-send'));
    await screen.findByTestId('contact-sent');
    expect(h.calls.find((c) => c.url === 'index/generateEmailCode')!.body).toMatchObject({ email: 'new@example.com', purpose: 'changeContact', captchaCode: 'AB23X' });
    type('contact-code', 'XYZ789');
    fireEvent.click(screen.getByTestId('contact-submit'));
    expect((await screen.findByTestId('contact-code-error')).textContent).toBe('Verification code is wrong');
    type('contact-code', 'XYZ788');
    fireEvent.click(screen.getByTestId('contact-submit'));
    await waitFor(() => expect(h.toasts.map((t) => t.message)).toContain('Contact details changed'));
    expect(h.calls.filter((c) => c.url === 'users/updateUserCenter').at(-1)!.body).toEqual({ kind: 'email', email: 'new@example.com', code: 'XYZ788' });
  });

  it('gives the focus back to the Change button once the contact is changed, or the dialog cancelled or closed with Escape (it is shown only while open)', async () => {
    const h = host();
    h.mockCall('index/generateEmailCode', { data: { sentTo: 'n***@example.com', expiresAt: '2030-01-01T00:00:00Z', resendSeconds: 60 } });
    h.mockCall('users/updateUserCenter', { data: { ...INFO, email: 'new@example.com' } });
    await renderPanel(panel, { host: h });
    const opener = await screen.findByTestId('profile-change-email');
    const open = async () => {
      // A browser focuses a clicked button (jsdom does not: done here).
      opener.focus();
      fireEvent.click(opener);
      await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('contact-address')));
    };
    await open();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('contact-address')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('contact-address')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    await open();
    type('contact-address', 'new@example.com');
    await waitFor(() => expect(screen.getByTestId('contact-captcha').getAttribute('data-captcha-id')).toBe('c'.repeat(32)));
    type('contact-captcha', 'AB23X');
    fireEvent.click(screen.getByTestId('contact-send'));
    await screen.findByTestId('contact-sent');
    type('contact-code', 'XYZ789');
    fireEvent.click(screen.getByTestId('contact-submit'));
    await waitFor(() => expect(h.toasts.map((t) => t.message)).toContain('Contact details changed'));
    await waitFor(() => expect(screen.queryByTestId('contact-address')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('refuses an avatar over 256 KB before sending it, and shows the student certification state', async () => {
    const h = host({ ...INFO, isStudent: false, studentUntil: '2026-01-01T00:00:00Z' });
    await renderPanel(panel, { host: h });
    const input = (await screen.findByTestId('profile-avatar-file')) as HTMLInputElement;
    const big = new File([new Uint8Array(256 * 1024 + 1)], 'big.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [big] } });
    await waitFor(() => expect(screen.getByTestId('profile-avatar-help').textContent).toBe('The picture is larger than 256 KB'));
    expect(h.calls.some((c) => c.url === 'user/editUserInfo')).toBe(false);
    expect(screen.getByTestId('student-status').textContent).toMatch(/expired on/);
    // What the certification gives (the student trial rules), with the trial's days from the domain.
    expect(screen.getByTestId('student-rules').textContent).toContain('issued at once without review, valid 30 days and never past the certification');
  });
});
