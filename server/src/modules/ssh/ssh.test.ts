/**
 * The SSH debug terminal against a real SSH server: ssh2's own server implementation, started
 * by the test on 127.0.0.1 with a fresh host key, a password account and a tiny line shell.
 */
import { once } from 'node:events';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server, utils, type Connection } from 'ssh2';
import { WebSocket } from 'ws';
import { ErrorCode, SSH_CLOSE } from '@decisio/domain';
import { createUser, issueToken } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

const USER = 'dev';
const PASSWORD = 'right-pass';

/** An SSH server whose shell answers every line with `out:<line>`. */
async function startSshServer(): Promise<{ port: number; close(): void }> {
  const hostKey = utils.generateKeyPairSync('ed25519').private;
  const server = new Server({ hostKeys: [hostKey] }, (client: Connection) => {
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.username === USER && ctx.password === PASSWORD) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        session.on('pty', (ok) => ok?.());
        session.on('window-change', (ok) => ok?.());
        session.on('shell', (ok) => {
          const stream = ok();
          stream.write('welcome\r\n');
          let line = '';
          stream.on('data', (d: Buffer) => {
            for (const ch of d.toString('utf8')) {
              if (ch === '\r') {
                if (line === 'exit') {
                  stream.exit(0);
                  stream.end();
                  return;
                }
                stream.write(`\r\nout:${line}\r\n`);
                line = '';
              } else line += ch;
            }
          });
        });
      });
    });
    client.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

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
  let ssh: { port: number; close(): void };
  let token: string;
  let otherToken: string;
  let ownerId: string;
  const connect = (body: Record<string, unknown>, as: string | null = token) => server.call('ssh/connect', { ...(as ? { token: as } : {}), body: { host: '127.0.0.1', port: ssh.port, username: USER, password: PASSWORD, ...body } });

  beforeAll(async () => {
    ssh = await startSshServer();
    // The operator allows this loopback address only.
    server = await startTestServer(kind, { env: { CONNECTION_ALLOW: '127.0.0.1/32' }, ssh: { idleMs: 1500, sweepMs: 100 } });
    const owner = await createUser(server);
    ownerId = owner.id;
    token = await issueToken(server, owner);
    otherToken = await issueToken(server, await createUser(server));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    ssh?.close();
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
