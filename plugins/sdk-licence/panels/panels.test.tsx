import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { SdkLicenceItem } from '@decisio/domain';
import { createTestHost, renderPanel } from '@decisio/sdk-plugin/testing';
import { sdkLicencePlugin } from '../index';

const panel = (id: string) => sdkLicencePlugin.panels.find((p) => p.id === id)!;
const licence = (over: Partial<SdkLicenceItem>): SdkLicenceItem => ({
  id: 'l1', type: 'offline', edition: 'pro', status: 'success', deviceFileName: 'd.bin', deviceSha256: 'x', contactChannel: 'email', contactTarget: 'a@b.cn',
  reviewOpinion: null, startAt: null, endAt: '2027-01-01T00:00:00.000Z', daysLeft: 3, renewalOf: null, createdAt: '2026-11-01T00:00:00.000Z', username: 'ann', licenceFile: '{}', ...over,
});
const me = (permissions: string[]) => ({ data: { userId: 'u', username: 'ann', nickname: null, tenantId: 't', permissions, menus: [], roleList: [], isSystemRole: false, isStudent: false, isOperation: false } });
const page = <T,>(rows: T[]) => ({ data: { rows, total: rows.length, page: 1, pageSize: 100 } });

function host(locale: 'en-US' | 'zh-CN', licences: SdkLicenceItem[] = [], permissions: string[] = []) {
  const h = createTestHost({ plugins: [sdkLicencePlugin], locale, session: { token: 't', userId: 'u' } });
  h.mockCall('user/getUser', me(permissions));
  h.mockCall('sdkVersion/getSdkVersionList', page([{ id: 'v1', version: '1.2.0', edition: 'pro', notes: 'Faster rollouts', fileName: 'sdk.zip', size: 2 * 1024 ** 2, sha256: 'x', createdAt: '2026-11-01T00:00:00.000Z' }]));
  h.mockCall('sdkLicense/getSdkLicenseList', page(licences));
  h.mockCall('sdkLicense/renewSdkLicense', { data: licence({ id: 'l2', status: 'audit', renewalOf: 'l1' }) });
  h.mockCall('sdkLicense/createSdkLicense', { data: licence({ status: 'audit' }) });
  h.mockCall('sdkLicense/reviewSdkLicense', { data: licence({}) });
  h.mockCall('captcha/captchaImage', { data: { captchaId: 'c'.repeat(32), image: 'data:image/svg+xml;base64,', width: 150, height: 50, expiresAt: '2030-01-01T00:00:00.000Z' } });
  h.mockCall('userCenter/getServiceManagementList', { data: { rows: [], total: 0, page: 1, pageSize: 100, userKey: null } });
  h.mockCall('userCenter/createUserPrivateKey', { data: { key: 'dk_secretvalue', prefix: 'dk_secretv', createdAt: '2026-11-27T00:00:00.000Z', expiresAt: '2027-11-27T00:00:00.000Z', expired: false } });
  return h;
}

describe('SdkLicencePanel', () => {
  afterEach(() => cleanup());

  it('lists versions with notes and licences, says "expires in N days" and asks a renewal, in both languages', async () => {
    const h = host('en-US', [licence({})]);
    await renderPanel(panel('sdk-licence.main'), { host: h });
    expect(await screen.findByText('Faster rollouts')).toBeTruthy();
    expect((await screen.findByTestId('licence-notice-expiring')).textContent).toContain('Your Pro licence (Offline (device file)) expires in 3 days.');
    fireEvent.click(screen.getByRole('button', { name: 'Renew' }));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'sdkLicense/renewSdkLicense')?.body).toEqual({ id: 'l1' }));
    cleanup();
    await renderPanel(panel('sdk-licence.main'), { host: host('zh-CN', [licence({ status: 'expired', daysLeft: 0 })]) });
    expect((await screen.findByTestId('licence-notice-expired')).textContent).toContain('你的 专业版 授权（离线授权（设备文件））已过期');
  });

  it('shows the empty state and refuses a device file over 1 MB before sending', async () => {
    const h = host('en-US', []);
    await renderPanel(panel('sdk-licence.main'), { host: h });
    expect(await screen.findByText('No licence yet')).toBeTruthy();
    fireEvent.click(screen.getByTestId('licence-apply'));
    const input = (await screen.findByTestId('apply-device')) as HTMLInputElement;
    const big = new File([new Uint8Array(1024 * 1024 + 1)], 'device.bin');
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText('The device file is larger than 1 MB')).toBeTruthy();
    fireEvent.change(screen.getByTestId('apply-target'), { target: { value: 'me@example.com' } });
    fireEvent.change(screen.getByTestId('apply-code'), { target: { value: 'ABC123' } });
    fireEvent.click(screen.getByTestId('apply-terms'));
    fireEvent.click(screen.getByTestId('apply-submit'));
    await new Promise((r) => setTimeout(r, 50));
    expect(h.calls.some((c) => c.url === 'sdkLicense/createSdkLicense')).toBe(false);

    fireEvent.change(input, { target: { files: [new File([new Uint8Array([1, 2, 3])], 'device.bin')] } });
    fireEvent.click(screen.getByTestId('apply-submit'));
    await waitFor(() => expect(h.calls.some((c) => c.url === 'sdkLicense/createSdkLicense')).toBe(true));
    expect(h.calls.find((c) => c.url === 'sdkLicense/createSdkLicense')?.body).toEqual({
      type: 'offline',
      edition: 'pro',
      contact: { channel: 'email', target: 'me@example.com', code: 'ABC123' },
      deviceFile: { name: 'device.bin', content: 'AQID' },
      termsAccepted: true,
    });
  });
});

describe('File pickers in the interface language', () => {
  afterEach(() => cleanup());

  /** The text Blueprint's FileInput shows on its button (its span's data attribute, drawn by CSS). */
  const buttonText = (input: HTMLElement) => input.parentElement!.querySelector('.bp6-file-upload-input')!.getAttribute('bp6-button-text');

  it("names the device file's and the SDK package's Browse button in Chinese", async () => {
    await renderPanel(panel('sdk-licence.main'), { host: host('zh-CN', []) });
    fireEvent.click(await screen.findByTestId('licence-apply'));
    expect(buttonText(await screen.findByTestId('apply-device'))).toBe('浏览');
    cleanup();
    await renderPanel(panel('sdk-licence.admin'), { host: host('zh-CN', [], ['licences:write']) });
    fireEvent.click(await screen.findByRole('tab', { name: 'SDK 版本' }));
    expect(buttonText(await screen.findByLabelText('上传安装包'))).toBe('浏览');
  });
});

describe('ApplyDialog: the student trial', () => {
  afterEach(() => cleanup());

  it('offers the student trial only to a certified student, says its terms and applies for the trial edition', async () => {
    const h = host('en-US', []);
    await renderPanel(panel('sdk-licence.main'), { host: h });
    fireEvent.click(await screen.findByTestId('licence-apply'));
    expect(((await screen.findByTestId('apply-student')) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('apply-student-note').textContent).toContain('certify with a campus e-mail');
    cleanup();

    const s = host('zh-CN', []);
    s.mockCall('user/getUser', { data: { ...me([]).data, isStudent: true, studentUntil: '2027-06-30T00:00:00.000Z' } });
    s.mockCall('sdkLicense/createSdkLicense', { data: licence({ type: 'student', edition: 'trial', status: 'success', deviceFileName: null }) });
    await renderPanel(panel('sdk-licence.main'), { host: s });
    fireEvent.click(await screen.findByTestId('licence-apply'));
    await waitFor(() => expect(((screen.getByTestId('apply-student')) as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('apply-student'));
    expect(screen.getByTestId('apply-student-note').textContent).toContain('有效期 30 天');
    expect((screen.getByTestId('apply-edition') as HTMLSelectElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('apply-target'), { target: { value: 'me@example.com' } });
    fireEvent.change(screen.getByTestId('apply-code'), { target: { value: 'ABC123' } });
    fireEvent.click(screen.getByTestId('apply-terms'));
    fireEvent.click(screen.getByTestId('apply-submit'));
    await waitFor(() =>
      expect(s.calls.find((c) => c.url === 'sdkLicense/createSdkLicense')?.body).toEqual({
        type: 'student',
        edition: 'trial',
        contact: { channel: 'email', target: 'me@example.com', code: 'ABC123' },
        termsAccepted: true,
      }),
    );
    await waitFor(() => expect(s.toasts.some((n) => n.message === '授权已签发：请在列表中下载授权文件')).toBe(true));
  });
});

describe('ServicePanel', () => {
  afterEach(() => cleanup());
  it('creates the user key and shows it once', async () => {
    const h = host('en-US');
    await renderPanel(panel('sdk-licence.service'), { host: h });
    expect(await screen.findByTestId('user-key-none')).toBeTruthy();
    fireEvent.click(screen.getByTestId('user-key-create'));
    expect(((await screen.findByTestId('user-key-value')) as HTMLInputElement).value).toBe('dk_secretvalue');
    expect(screen.getByText('Copy your user key now: it is not shown again.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('user-key-close'));
    await waitFor(() => expect(screen.queryByTestId('user-key-value')).toBeNull());
  });
});

describe('AdminLicencesPanel', () => {
  afterEach(() => cleanup());
  it('says so without licences:write, and approves an application with it', async () => {
    await renderPanel(panel('sdk-licence.admin'), { host: host('en-US', [], []) });
    expect(await screen.findByText('You have no right to open this page')).toBeTruthy();
    cleanup();
    const h = host('en-US', [licence({ status: 'audit', daysLeft: null })], ['licences:write']);
    await renderPanel(panel('sdk-licence.admin'), { host: h });
    fireEvent.click(await screen.findByTestId('admin-licence-approve'));
    fireEvent.change(await screen.findByTestId('review-opinion'), { target: { value: 'ok' } });
    fireEvent.click(screen.getByTestId('review-confirm'));
    await waitFor(() => expect(h.calls.find((c) => c.url === 'sdkLicense/reviewSdkLicense')?.body).toEqual({ id: 'l1', approve: true, opinion: 'ok' }));
  });
});
