/**
 * An SSH server for tests: ssh2's own server implementation on 127.0.0.1, with a host key of
 * its own, a password account and/or a public-key account, and a tiny line shell that answers
 * every line with `out:<line>` (`exit` ends it), started for a `shell` request and for an `exec`
 * one alike. It counts the sign-in attempts it saw, so a test can prove that no credential was
 * sent to a host whose key was refused, and keeps the session requests (`shell`, or `exec` with
 * its command), so a test can prove what a terminal asked the host to run.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Server, utils, type Connection, type ParsedKey, type ServerChannel } from 'ssh2';

export interface TestSshServer {
  port: number;
  /** The host key's OpenSSH public line (`ssh-ed25519 AAAA...`). */
  hostPublic: string;
  /** The host key's fingerprint, computed here from the key (`SHA256:...`). */
  fingerprint: string;
  /** Sign-in attempts (any method) the server saw. */
  authAttempts(): number;
  /** The session requests seen so far: a login shell, or a command (with whether a pty was asked first). */
  requests(): SessionRequest[];
  close(): Promise<void>;
}

/** What a session asked of the test server. */
export type SessionRequest = { type: 'shell'; pty: boolean } | { type: 'exec'; command: string; pty: boolean };

export interface TestSshServerOptions {
  /** Listen on this port (0: a free one). */
  port?: number;
  username: string;
  /** Accepted password, if any. */
  password?: string;
  /** Accepted public key (OpenSSH line), if any. */
  publicKey?: string;
}

function parsed(key: string): ParsedKey {
  const k = utils.parseKey(key);
  if (k instanceof Error) throw k;
  return Array.isArray(k) ? k[0]! : k;
}

/** The tiny line shell: `welcome`, then `out:<line>` for each line, `exit` ends it. */
function lineShell(stream: ServerChannel): void {
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
}

/**
 * A fresh ed25519 key pair in OpenSSH form. ssh2's generator drops a leading zero byte of the
 * public key (about one key in 256), and then its own parser refuses both halves as malformed;
 * such a pair is drawn again.
 */
export function ed25519KeyPair(): { public: string; private: string } {
  for (;;) {
    const pair = utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(pair.public) instanceof Error) && !(utils.parseKey(pair.private) instanceof Error)) return pair;
  }
}

export async function startSshServer(options: TestSshServerOptions): Promise<TestSshServer> {
  const pair = ed25519KeyPair();
  const hostBlob = parsed(pair.public).getPublicSSH();
  const fingerprint = `SHA256:${createHash('sha256').update(hostBlob).digest('base64').replace(/=+$/, '')}`;
  const allowed = options.publicKey ? parsed(options.publicKey) : null;
  let attempts = 0;
  const requests: SessionRequest[] = [];
  const clients = new Set<Connection>();
  const server = new Server({ hostKeys: [pair.private] }, (client: Connection) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    client.on('authentication', (ctx) => {
      attempts++;
      if (ctx.username !== options.username) return ctx.reject(['password', 'publickey']);
      if (ctx.method === 'password' && options.password !== undefined && ctx.password === options.password) return ctx.accept();
      if (ctx.method === 'publickey' && allowed && ctx.key.algo === allowed.type && ctx.key.data.equals(allowed.getPublicSSH())) {
        if (!ctx.signature) return ctx.accept(); // the client asks whether the key would do
        if (ctx.blob && allowed.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true) return ctx.accept();
      }
      ctx.reject(['password', 'publickey']);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        let pty = false;
        session.on('pty', (ok) => {
          pty = true;
          ok?.();
        });
        session.on('window-change', (ok) => ok?.());
        session.on('shell', (ok) => {
          requests.push({ type: 'shell', pty });
          lineShell(ok());
        });
        session.on('exec', (ok, _reject, info) => {
          requests.push({ type: 'exec', command: info.command, pty });
          lineShell(ok());
        });
      });
    });
    client.on('error', () => undefined);
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    hostPublic: pair.public,
    fingerprint,
    authAttempts: () => attempts,
    requests: () => [...requests],
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of clients) c.end();
        server.close(() => resolve());
      }),
  };
}
