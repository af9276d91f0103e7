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
});
