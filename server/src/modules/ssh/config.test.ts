/** The SSH settings (`SSH_KNOWN_HOSTS`, `WORKER_SSH_ADDRESS`, `TRAIN_SSH*`): off by default, refused when incomplete or malformed. */
import { describe, expect, it } from 'vitest';
import { loadSshConfig, parseSshAddress } from './config';

describe('SSH settings', () => {
  it('are off by default', () => {
    expect(loadSshConfig({}, '/srv')).toEqual({ knownHostsFile: null, workerAddress: null, train: null });
  });

  it('read the worker terminal and resolve files against the working directory', () => {
    const c = loadSshConfig({ TRAIN_SSH: 'on', TRAIN_SSH_USER: 'ops', TRAIN_SSH_KEY_FILE: 'keys/id', SSH_KNOWN_HOSTS: 'kh', WORKER_SSH_ADDRESS: 'gpu1.lab:2222' }, '/srv');
    expect(c).toEqual({ knownHostsFile: '/srv/kh', workerAddress: 'gpu1.lab:2222', train: { username: 'ops', keyFile: '/srv/keys/id', passphrase: null } });
  });

  it('refuse an incomplete or malformed setting at start-up', () => {
    expect(() => loadSshConfig({ TRAIN_SSH: 'on', TRAIN_SSH_USER: 'ops' })).toThrow(/TRAIN_SSH_KEY_FILE/);
    expect(() => loadSshConfig({ WORKER_SSH_ADDRESS: 'a b:22' })).toThrow(/WORKER_SSH_ADDRESS/);
  });

  it('parse host, host:port and [v6]:port', () => {
    expect(parseSshAddress('box')).toEqual({ host: 'box', port: 22 });
    expect(parseSshAddress('10.0.0.5:2200')).toEqual({ host: '10.0.0.5', port: 2200 });
    expect(parseSshAddress('[fd00::5]:2022')).toEqual({ host: 'fd00::5', port: 2022 });
    expect(parseSshAddress('box:70000')).toBeNull();
    expect(parseSshAddress('fd00::5')).toBeNull();
  });
});
