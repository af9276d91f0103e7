/**
 * SSH debug terminal sessions (spec platform §3): an ssh2 client per session on the server, a
 * shell (or, for a worker terminal, a confined command with a pty) piped to the browser's xterm
 * over a WebSocket. Each session belongs to the user who
 * opened it; the socket attaches with a single-use ticket that `ssh/connect` gave that user
 * (valid `SSH_LIMITS.ticketSeconds`), so no session token travels in a URL. A session ends when
 * its shell ends, on `ssh/close`, when its socket closes, or after `idleMs` without input or
 * output. Hosts pass the data connections' host guard first. Opening, attaching and ending are
 * written to the system log.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Client, type ClientChannel, type ConnectConfig } from 'ssh2';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppError, ErrorCode, SSH_CLOSE, SSH_LIMITS, type SshConnectReply, type SshHostKey, type sshConnectSchema } from '@decisio/domain';
import type { z } from 'zod';
import type { AuditLog } from '../../http/audit';
import { newId } from '../../db/ids';
import { HostRefusedError, type HostGuard } from '../../net/host-guard';
import type { HostKeys } from './host-keys';

/** Who acts. */
export interface SshActor {
  id: string;
  username: string;
  tenantId: string;
}

interface Session {
  id: string;
  actor: SshActor;
  host: string;
  port: number;
  client: Client;
  shell: ClientChannel;
  ticket: Buffer | null;
  ticketExpires: number;
  socket: WebSocket | null;
  /** Output before the socket attached (bounded). */
  pending: Buffer[];
  lastActive: number;
  opened: number;
}

/** Options of {@link SshTerminals}. */
export interface SshTerminalOptions {
  /** Idle time before a session ends, ms (default `SSH_LIMITS.idleMinutes`). */
  idleMs?: number;
  /** How often idle sessions are looked for, ms (default 30 s). */
  sweepMs?: number;
  /** SSH handshake timeout, ms (default 10 s). */
  readyTimeoutMs?: number;
}

const PENDING_MAX = 256 * 1024;

export class SshTerminals {
  private readonly sessions = new Map<string, Session>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly idleMs: number;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly guard: HostGuard,
    private readonly hostKeys: HostKeys,
    private readonly audit: AuditLog,
    private readonly options: SshTerminalOptions = {},
  ) {
    this.idleMs = options.idleMs ?? SSH_LIMITS.idleMinutes * 60_000;
    this.sweep = setInterval(() => this.endIdle(), options.sweepMs ?? 30_000);
    this.sweep.unref();
  }

  /** Open sessions of a user (tests, limits). */
  countOf(userId: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.actor.id === userId) n++;
    return n;
  }

  private log(actor: SshActor, title: string, code: number, detail: Record<string, unknown>): void {
    this.audit.record({
      id: newId(),
      title,
      type: 'operation',
      host: null,
      uri: '/api/ssh/terminal',
      method: 'WS',
      params: JSON.stringify(detail).slice(0, 2000),
      response_code: code,
      http_status: code === 0 ? 200 : 400,
      time_ms: 0,
      user_id: actor.id,
      username: actor.username,
      tenant_id: actor.tenantId,
      request_id: newId(),
      ip: null,
      user_agent: null,
      created_at: new Date(),
    });
  }

  /**
   * Connects, checks the host's key (`HostKeys`: before any credential is sent), signs in and
   * starts a shell for `actor`. `how.operatorHost`: the host comes from the operator's settings
   * (a training's worker), not from the user, so the host guard does not apply; `how.detail` goes
   * to the system log with the session. `how.command`: run this command (SSH `exec` with a pty)
   * instead of the account's login shell (a worker terminal's confined shell, `confine.ts`).
   * @throws AppError `sshHostRefused`, `sshHostKeyUnknown`, `sshHostKeyChanged`, `sshWrongPassword`, `sshConnectFailed`, `sshTooManySessions`.
   */
  async open(
    actor: SshActor,
    input: z.output<typeof sshConnectSchema>,
    how: { operatorHost?: boolean; detail?: Record<string, unknown>; command?: string } = {},
  ): Promise<SshConnectReply> {
    if (this.countOf(actor.id) >= SSH_LIMITS.perUser) throw new AppError('sshTooManySessions');
    const logged = { host: input.host, port: input.port, username: input.username, ...how.detail };
    let address = input.host;
    if (!how.operatorHost) {
      try {
        address = (await this.guard.check(input.host, input.port)).address;
      } catch (e) {
        if (e instanceof HostRefusedError) {
          this.log(actor, 'ssh/open', ErrorCode.sshHostRefused, logged);
          throw new AppError('sshHostRefused');
        }
        throw e;
      }
    }
    const client = new Client();
    let hostKey: SshHostKey | null = null;
    let keyError: AppError | null = null;
    const config: ConnectConfig = {
      host: address,
      port: input.port,
      username: input.username,
      readyTimeout: this.options.readyTimeoutMs ?? 10_000,
      // Checked before authentication: an unknown or changed key never sees the password or key.
      hostVerifier: (key: Buffer, verify: (valid: boolean) => void) => {
        this.hostKeys.check(actor, input.host, input.port, key, input.trustFingerprint).then(
          (v) => {
            if (v.ok) hostKey = v.hostKey;
            else keyError = v.error;
            verify(v.ok);
          },
          () => {
            keyError = new AppError('sshConnectFailed');
            verify(false);
          },
        );
      },
      ...(input.authType === 'password' ? { password: input.password, tryKeyboard: false } : { privateKey: input.privateKey, passphrase: input.passphrase }),
    };
    const shell = await new Promise<ClientChannel>((resolve, reject) => {
      client.once('ready', () => {
        const pty = { term: 'xterm-256color', cols: input.cols, rows: input.rows };
        const done = (err: Error | undefined, stream: ClientChannel) => (err ? reject(new AppError('sshConnectFailed')) : resolve(stream));
        if (how.command !== undefined) client.exec(how.command, { pty }, done);
        else client.shell(pty, done);
      });
      client.once('error', (err: Error & { level?: string }) => {
        reject(keyError ?? new AppError(err.level === 'client-authentication' ? 'sshWrongPassword' : 'sshConnectFailed'));
      });
      try {
        client.connect(config);
      } catch {
        reject(new AppError('sshConnectFailed'));
      }
    }).catch((e: unknown) => {
      client.end();
      this.log(actor, 'ssh/open', e instanceof AppError ? e.code : 1000, e instanceof AppError && e.details?.fingerprint ? { ...logged, fingerprint: e.details.fingerprint } : logged);
      throw e;
    });
    const key = hostKey as SshHostKey | null;
    if (!key) {
      // ssh2 checks every host key through `hostVerifier` before `ready`; never reached.
      client.end();
      throw new AppError('sshConnectFailed');
    }
    const ticket = randomBytes(24);
    const s: Session = { id: newId(), actor, host: input.host, port: input.port, client, shell, ticket, ticketExpires: Date.now() + SSH_LIMITS.ticketSeconds * 1000, socket: null, pending: [], lastActive: Date.now(), opened: Date.now() };
    this.sessions.set(s.id, s);
    client.on('error', () => this.end(s, 'error'));
    shell.on('data', (d: Buffer) => this.output(s, d));
    shell.stderr.on('data', (d: Buffer) => this.output(s, d));
    shell.on('close', () => this.end(s, 'shell ended'));
    this.log(actor, 'ssh/open', 0, { sessionId: s.id, ...logged, authType: input.authType, hostKey: key });
    return { sessionId: s.id, ticket: `${s.id}.${ticket.toString('base64url')}`, idleMinutes: Math.round(this.idleMs / 60_000), hostKey: key };
  }

  private output(s: Session, d: Buffer): void {
    s.lastActive = Date.now();
    if (s.socket) s.socket.send(d);
    else {
      s.pending.push(d);
      let size = s.pending.reduce((a, b) => a + b.length, 0);
      while (size > PENDING_MAX && s.pending.length > 1) size -= s.pending.shift()!.length;
    }
  }

  /** Ends a session of `userId`. @throws AppError `sshNoSession` when it is not theirs or gone. */
  close(userId: string, sessionId: string): void {
    const s = this.sessions.get(sessionId);
    if (!s || s.actor.id !== userId) throw new AppError('sshNoSession');
    this.end(s, 'closed');
  }

  private end(s: Session, why: string, code: number = SSH_CLOSE.ended): void {
    if (!this.sessions.delete(s.id)) return;
    try {
      s.socket?.close(code, why.slice(0, 100));
    } catch {
      /* already closed */
    }
    s.client.end();
    this.log(s.actor, 'ssh/end', 0, { sessionId: s.id, host: s.host, port: s.port, why, seconds: Math.round((Date.now() - s.opened) / 1000) });
  }

  private endIdle(): void {
    const now = Date.now();
    for (const s of [...this.sessions.values()]) {
      if (now - s.lastActive > this.idleMs) this.end(s, 'idle timeout', SSH_CLOSE.idle);
      else if (!s.socket && s.ticket && now > s.ticketExpires) this.end(s, 'never attached');
    }
  }

  /** Runs idle sweeps now (tests). */
  sweepNow(): void {
    this.endIdle();
  }

  /** The ticket's session when the ticket is valid (single use). */
  private redeem(ticket: string): Session | null {
    const [id, secret] = ticket.split('.');
    const s = id ? this.sessions.get(id) : undefined;
    if (!s || !s.ticket || !secret || Date.now() > s.ticketExpires) return null;
    const given = Buffer.from(secret, 'base64url');
    if (given.length !== s.ticket.length || !timingSafeEqual(given, s.ticket)) return null;
    s.ticket = null;
    return s;
  }

  /** Handles `upgrade` requests for `/api/ssh/terminal`; answers false for other paths. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/api/ssh/terminal') return false;
    const session = this.redeem(url.searchParams.get('ticket') ?? '');
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (!session) {
        ws.close(SSH_CLOSE.noSession, 'sshNoSession');
        return;
      }
      this.attach(session, ws);
    });
    return true;
  }

  private attach(s: Session, ws: WebSocket): void {
    s.socket = ws;
    s.lastActive = Date.now();
    this.log(s.actor, 'ssh/attach', 0, { sessionId: s.id });
    for (const d of s.pending.splice(0)) ws.send(d);
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      s.lastActive = Date.now();
      if (!isBinary && data[0] === 0x7b) {
        try {
          const m = JSON.parse(data.toString('utf8')) as { type?: string; cols?: number; rows?: number };
          if (m.type === 'resize' && Number.isInteger(m.cols) && Number.isInteger(m.rows)) {
            s.shell.setWindow(Math.min(500, Math.max(10, m.rows!)), Math.min(500, Math.max(10, m.cols!)), 0, 0);
            return;
          }
        } catch {
          /* a keystroke starting with "{" */
        }
      }
      s.shell.write(data);
    });
    ws.on('close', () => this.end(s, 'socket closed'));
  }

  /** Ends every session (server shutdown). */
  closeAll(): void {
    clearInterval(this.sweep);
    for (const s of [...this.sessions.values()]) this.end(s, 'server stopping');
    this.wss.close();
  }
}
