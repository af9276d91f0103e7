import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createTestHost, withHost } from '@decisio/sdk-plugin/testing';
import { sshTerminalPlugin } from '../index';
import { SshPage } from './SshPage';

function setup(locale: 'en-US' | 'zh-CN', signedIn = true) {
  const host = createTestHost({ plugins: [sshTerminalPlugin], locale, ...(signedIn ? { session: { token: 't', userId: 'u' } } : {}) });
  render(withHost(host, <SshPage />));
  return host;
}

describe('SshPage', () => {
  afterEach(cleanup);

  it('asks a visitor to sign in', () => {
    setup('en-US', false);
    expect(screen.getByText('Sign in to open an SSH session.')).toBeTruthy();
    expect(screen.queryByTestId('ssh-form')).toBeNull();
  });

  it('requires host, user name and password before calling, in both languages', async () => {
    const host = setup('zh-CN');
    fireEvent.click(screen.getByTestId('ssh-connect'));
    expect((await screen.findByTestId('ssh-missing')).textContent).toContain('请填写主机');
    expect(host.calls).toEqual([]);
  });

  it('sends the connection and shows the server message of a refusal', async () => {
    const host = setup('en-US');
    host.mockCall('ssh/connect', { code: 10020, message: 'SSH sign-in failed: wrong user name, password or key', data: null });
    fireEvent.change(screen.getByTestId('ssh-host'), { target: { value: 'box.example.com' } });
    fireEvent.change(screen.getByTestId('ssh-username'), { target: { value: 'dev' } });
    fireEvent.change(screen.getByTestId('ssh-password'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByTestId('ssh-connect'));
    const error = await screen.findByTestId('ssh-error');
    expect(error.dataset.code).toBe('10020');
    await waitFor(() => expect(host.calls[0]).toEqual({ url: 'ssh/connect', body: { host: 'box.example.com', port: 22, username: 'dev', authType: 'password', password: 'nope', cols: 100, rows: 30 } }));
  });

  it('shows an unknown host key fingerprint and connects once the user trusts it', async () => {
    const host = setup('en-US');
    const fingerprint = `SHA256:${'b'.repeat(43)}`;
    host.mockCall('ssh/connect', (body) =>
      (body as { trustFingerprint?: string }).trustFingerprint === fingerprint
        ? { data: { sessionId: 'a'.repeat(32), ticket: 'x.y', idleMinutes: 15, hostKey: { type: 'ssh-ed25519', fingerprint, trust: 'new' } } }
        : { code: 10026, message: 'not known yet', errors: { host: 'box.example.com', port: '22', keyType: 'ssh-ed25519', fingerprint } },
    );
    fireEvent.change(screen.getByTestId('ssh-host'), { target: { value: 'box.example.com' } });
    fireEvent.change(screen.getByTestId('ssh-username'), { target: { value: 'dev' } });
    fireEvent.change(screen.getByTestId('ssh-password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByTestId('ssh-connect'));
    const notice = await screen.findByTestId('ssh-host-key-unknown');
    expect(notice.textContent).toContain(fingerprint);
    expect(notice.textContent).toContain('First connection to this host');
    fireEvent.click(screen.getByTestId('ssh-trust'));
    await screen.findByTestId('ssh-terminal');
    expect((host.calls[1]!.body as { trustFingerprint?: string; password?: string })).toMatchObject({ trustFingerprint: fingerprint, password: 'pw' });
    expect(screen.getByTestId('ssh-host-key').textContent).toBe(`Host key ${fingerprint} (ssh-ed25519), trusted just now`);
  });

  it('refuses a changed host key with both fingerprints and lets the user forget the stored one (zh-CN)', async () => {
    const host = setup('zh-CN');
    const now = `SHA256:${'c'.repeat(43)}`;
    const before = `SHA256:${'d'.repeat(43)}`;
    host.mockCall('ssh/connect', { code: 10027, message: '该 SSH 服务器的主机密钥与已信任的不同，连接已拒绝', errors: { host: 'box', port: '2222', keyType: 'ssh-ed25519', fingerprint: now, storedFingerprint: before } });
    host.mockCall('ssh/forgetHostKey', { data: { removed: true } });
    fireEvent.change(screen.getByTestId('ssh-host'), { target: { value: 'box' } });
    fireEvent.change(screen.getByTestId('ssh-username'), { target: { value: 'dev' } });
    fireEvent.change(screen.getByTestId('ssh-password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByTestId('ssh-connect'));
    const notice = await screen.findByTestId('ssh-host-key-changed');
    expect(notice.textContent).toContain('主机密钥已变化');
    expect(notice.textContent).toContain(now);
    expect(notice.textContent).toContain(before);
    expect(screen.queryByTestId('ssh-trust')).toBeNull();
    fireEvent.click(screen.getByTestId('ssh-forget-key'));
    expect((await screen.findByTestId('ssh-key-forgotten')).textContent).toContain('已忘记保存的密钥');
    expect(host.calls[1]).toEqual({ url: 'ssh/forgetHostKey', body: { host: 'box', port: 2222 } });
  });
});
