/**
 * The SSH debug terminal against a real SSH server: ssh2's own server implementation, started
 * by the test on 127.0.0.1 with a fresh host key, a password account and a tiny line shell
 * (`testing.ts`). Host keys: trust on first use per user (the fingerprint shown, confirmed, kept;
 * a changed key refused before any credential is sent) and the operator's known-hosts file.
 */
import { once } from 'node:events';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ErrorCode, SSH_CLOSE, messageOf } from '@decisio/domain';
import { createUser, issueToken } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { startSshServer, type TestSshServer } from './testing';

const USER = 'dev';
const PASSWORD = 'right-pass';

/** A port with nothing listening. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

function openSocket(server: TestServer, ticket: string): { ws: WebSocket; text: () => string; closed: Promise<number> } {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/ssh/terminal?ticket=${encodeURIComponent(ticket)}`);
  let text = '';
  ws.on('message', (d: Buffer) => (text += d.toString('utf8')));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return { ws, text: () => text, closed };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(databases)('SSH terminal on %s', (kind) => {
  let server: TestServer;
  let ssh: TestSshServer;
  let token: string;
  let otherToken: string;
  let ownerId: string;
  // The owner trusts the test server's key (confirmed in the host-key test below, first).
  const connect = (body: Record<string, unknown>, as: string | null = token) =>
    server.call('ssh/connect', { ...(as ? { token: as } : {}), body: { host: '127.0.0.1', port: ssh.port, username: USER, password: PASSWORD, trustFingerprint: ssh.fingerprint, ...body } });

  beforeAll(async () => {
    ssh = await startSshServer({ username: USER, password: PASSWORD });
    // The operator allows this loopback address only.
    server = await startTestServer(kind, { env: { CONNECTION_ALLOW: '127.0.0.1/32' }, ssh: { idleMs: 1500, sweepMs: 100 } });
    const owner = await createUser(server);
    ownerId = owner.id;
    token = await issueToken(server, owner);
    otherToken = await issueToken(server, await createUser(server));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await ssh?.close();
  });

  it('shows an unknown host key before sending credentials, keeps it per user once confirmed, refuses a changed one', async () => {
    const call = (body: Record<string, unknown>, as = token) => server.call('ssh/connect', { token: as, body: { host: '127.0.0.1', port: ssh.port, username: USER, password: PASSWORD, ...body } });
    const before = ssh.authAttempts();
    const first = await call({});
    expect(first.body.code).toBe(ErrorCode.sshHostKeyUnknown);
    expect(first.body.errors).toMatchObject({ host: '127.0.0.1', port: String(ssh.port), keyType: 'ssh-ed25519', fingerprint: ssh.fingerprint });
    // A fingerprint that is not the host's key trusts nothing.
    const wrong = await call({ trustFingerprint: `SHA256:${'A'.repeat(43)}` });
    expect(wrong.body.code).toBe(ErrorCode.sshHostKeyUnknown);
    expect(ssh.authAttempts()).toBe(before); // no password went to an unverified host
    const trusted = await call({ trustFingerprint: ssh.fingerprint });
    expect(trusted.body.code).toBe(0);
    expect(trusted.body.data.hostKey).toEqual({ type: 'ssh-ed25519', fingerprint: ssh.fingerprint, trust: 'new' });
    await server.call('ssh/close', { token, body: { sessionId: trusted.body.data.sessionId } });
    const again = await call({});
    expect(again.body.code).toBe(0);
    expect(again.body.data.hostKey.trust).toBe('stored');
    await server.call('ssh/close', { token, body: { sessionId: again.body.data.sessionId } });
    // Per user: another user is asked again.
    expect((await call({}, otherToken)).body.code).toBe(ErrorCode.sshHostKeyUnknown);
    // The host comes back on the same port with another key: refused, both fingerprints named, no credential sent.
    const port = ssh.port;
    const oldFingerprint = ssh.fingerprint;
    await ssh.close();
    ssh = await startSshServer({ port, username: USER, password: PASSWORD });
    expect(ssh.fingerprint).not.toBe(oldFingerprint);
    const changed = await call({ trustFingerprint: ssh.fingerprint });
    expect(changed.body.code).toBe(ErrorCode.sshHostKeyChanged);
    expect(changed.body.errors).toMatchObject({ fingerprint: ssh.fingerprint, storedFingerprint: oldFingerprint });
    expect(changed.body.message).toBe(messageOf('sshHostKeyChanged', 'zh-CN'));
    expect(ssh.authAttempts()).toBe(0);
    // Forgetting the stored key (the server was reinstalled) lets the user trust the new one.
    const forgot = await server.call('ssh/forgetHostKey', { token, body: { host: '127.0.0.1', port } });
    expect(forgot.body.data).toEqual({ removed: true });
    expect((await server.call('ssh/forgetHostKey', { token, body: { host: '127.0.0.1', port } })).body.data).toEqual({ removed: false });
    expect((await call({})).body.code).toBe(ErrorCode.sshHostKeyUnknown);
    const retrusted = await call({ trustFingerprint: ssh.fingerprint });
    expect(retrusted.body.code).toBe(0);
    await server.call('ssh/close', { token, body: { sessionId: retrusted.body.data.sessionId } });
    await server.app.flush();
    const refusal = await server.app.db.knex('logs').where({ user_id: ownerId, title: 'ssh/open', response_code: ErrorCode.sshHostKeyChanged }).first();
    expect(String(refusal.params)).toContain(ssh.fingerprint);
    expect((await server.call('ssh/forgetHostKey', { body: { host: '127.0.0.1' } })).status).toBe(401);
    expect((await server.call('ssh/forgetHostKey', { token, body: { host: '' } })).body.code).toBe(ErrorCode.paramInvalid);
  });

  it('runs a command in a shell over the WebSocket, once per ticket, and logs the session', async () => {
    const r = await connect({ cols: 100, rows: 30 });
    expect(r.body.code).toBe(0);
    const { sessionId, ticket, idleMinutes } = r.body.data;
    expect(idleMinutes).toBeGreaterThanOrEqual(0);
    const t = openSocket(server, ticket);
    await once(t.ws, 'open');
    await until(() => t.text().includes('welcome'));
    t.ws.send(JSON.stringify({ type: 'resize', cols: 120, rows: 40 }));
    t.ws.send('echo hi\r');
    await until(() => t.text().includes('out:echo hi'));
    // The ticket was single-use.
    const again = openSocket(server, ticket);
    expect(await again.closed).toBe(SSH_CLOSE.noSession);
    // Another user cannot close it.
    const foreign = await server.call('ssh/close', { token: otherToken, body: { sessionId } });
    expect(foreign.body.code).toBe(ErrorCode.sshNoSession);
    expect(foreign.status).toBe(404);
    // `exit` ends the shell and the socket.
    t.ws.send('exit\r');
    expect(await t.closed).toBe(SSH_CLOSE.ended);
    expect((await server.call('ssh/close', { token, body: { sessionId } })).body.code).toBe(ErrorCode.sshNoSession);
    await server.app.flush();
    const titles = (await server.app.db.knex('logs').where({ user_id: ownerId }).select('title', 'params')).map((x: { title: string }) => x.title);
    expect(titles).toEqual(expect.arrayContaining(['ssh/connect', 'ssh/open', 'ssh/attach', 'ssh/end']));
    const connectRow = await server.app.db.knex('logs').where({ user_id: ownerId, title: 'ssh/connect' }).first();
    expect(String(connectRow.params)).not.toContain(PASSWORD);
  });

  it('ends a session left idle', async () => {
    const r = await connect({});
    const t = openSocket(server, r.body.data.ticket);
    await once(t.ws, 'open');
    expect(await t.closed).toBe(SSH_CLOSE.idle);
  });

  it('answers the spec messages: wrong password, connect failed, refused host', async () => {
    expect((await connect({ password: 'wrong' })).body.code).toBe(ErrorCode.sshWrongPassword);
    expect((await connect({ port: await closedPort() })).body.code).toBe(ErrorCode.sshConnectFailed);
    expect((await connect({ host: '10.20.30.40' })).body.code).toBe(ErrorCode.sshHostRefused);
    expect((await connect({ host: '169.254.169.254' })).body.code).toBe(ErrorCode.sshHostRefused);
  });

  it('validates input and needs a signed-in caller', async () => {
    expect((await connect({ host: '' })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await connect({ username: '' })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await connect({ password: undefined })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await connect({ port: 70000 })).body.code).toBe(ErrorCode.paramInvalid);
    const anon = await connect({}, null);
    expect(anon.status).toBe(401);
    const bogus = openSocket(server, 'f'.repeat(32) + '.bogus');
    expect(await bogus.closed).toBe(SSH_CLOSE.noSession);
  });
});
