/**
 * The operator's known-hosts file (`SSH_KNOWN_HOSTS`): the OpenSSH format read by `host-keys.ts`
 * (hashed names, ports, patterns, negation, revoked keys), and connections checked against it on
 * a real SSH server (listed key: no question; another key: refused; unlisted host: trust on
 * first use).
 */
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, issueToken } from '../../test/factories';
import { startTestServer, type TestServer } from '../../test/server';
import { lineMatches, parseKnownHosts } from './host-keys';
import { startSshServer, type TestSshServer } from './testing';

const hashed = (name: string) => {
  const salt = randomBytes(20);
  return `|1|${salt.toString('base64')}|${createHmac('sha1', salt).update(name).digest('base64')}`;
};

describe('known_hosts format', () => {
  it('matches plain, bracketed, hashed and wildcard names and honours negation', () => {
    expect(lineMatches(['example.org'], 'EXAMPLE.org', 22)).toBe(true);
    expect(lineMatches(['example.org'], 'example.org', 2222)).toBe(false);
    expect(lineMatches(['[example.org]:2222'], 'example.org', 2222)).toBe(true);
    expect(lineMatches([hashed('[10.0.0.5]:2200')], '10.0.0.5', 2200)).toBe(true);
    expect(lineMatches([hashed('10.0.0.5')], '10.0.0.6', 22)).toBe(false);
    expect(lineMatches(['*.lab.example', '!db.lab.example'], 'gpu1.lab.example', 22)).toBe(true);
    expect(lineMatches(['*.lab.example', '!db.lab.example'], 'db.lab.example', 22)).toBe(false);
    expect(lineMatches(['gpu?.lab'], 'gpu7.lab', 22)).toBe(true);
  });

  it('reads keys and markers, skipping comments, certificate authorities and broken lines', () => {
    const lines = parseKnownHosts(['# comment', '', 'a.example,b.example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB', '@revoked c.example ssh-rsa AAAAB3Nz', '@cert-authority *.example ssh-rsa AAAAB3Nz', 'broken-line', 'd.example ssh-rsa not*base64'].join('\n'));
    expect(lines.map((l) => [l.patterns, l.keyType, l.revoked])).toEqual([
      [['a.example', 'b.example'], 'ssh-ed25519', false],
      [['c.example'], 'ssh-rsa', true],
    ]);
  });
});

describe('connections checked against SSH_KNOWN_HOSTS', () => {
  let server: TestServer;
  let listed: TestSshServer;
  let impostor: TestSshServer;
  let unlisted: TestSshServer;
  let token: string;
  let dir: string;
  const connect = (ssh: TestSshServer, extra: Record<string, unknown> = {}) => server.call('ssh/connect', { token, body: { host: '127.0.0.1', port: ssh.port, username: 'dev', password: 'pw', ...extra } });

  beforeAll(async () => {
    const started = await Promise.all([0, 1, 2].map(() => startSshServer({ username: 'dev', password: 'pw' })));
    [listed, impostor, unlisted] = started as [TestSshServer, TestSshServer, TestSshServer];
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decisio-known-hosts-'));
    const file = path.join(dir, 'known_hosts');
    const key = (s: TestSshServer) => s.hostPublic.trim().split(/\s+/).slice(0, 2).join(' ');
    // The listed server under a hashed name; the impostor's port listed with the listed server's key.
    fs.writeFileSync(file, [`${hashed(`[127.0.0.1]:${listed.port}`)} ${key(listed)}`, `[127.0.0.1]:${impostor.port} ${key(listed)}`, ''].join('\n'));
    server = await startTestServer('sqlite', { env: { CONNECTION_ALLOW: '127.0.0.1/32', SSH_KNOWN_HOSTS: file } });
    token = await issueToken(server, await createUser(server));
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await Promise.all([listed, impostor, unlisted].map((s) => s?.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('connects to a listed host without asking, refuses another key at a listed address, asks for an unlisted host', async () => {
    const ok = await connect(listed);
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.hostKey).toEqual({ type: 'ssh-ed25519', fingerprint: listed.fingerprint, trust: 'knownHosts' });
    await server.call('ssh/close', { token, body: { sessionId: ok.body.data.sessionId } });
    // The operator's file wins over anything the user would confirm.
    const refused = await connect(impostor, { trustFingerprint: impostor.fingerprint });
    expect(refused.body.code).toBe(ErrorCode.sshHostKeyChanged);
    expect(refused.body.errors).toMatchObject({ fingerprint: impostor.fingerprint, storedFingerprint: listed.fingerprint });
    expect(impostor.authAttempts()).toBe(0);
    const unknown = await connect(unlisted);
    expect(unknown.body.code).toBe(ErrorCode.sshHostKeyUnknown);
    expect(unknown.body.errors?.fingerprint).toBe(unlisted.fingerprint);
  });
});
