/**
 * What carries outbox messages: e-mail over SMTP (nodemailer) and SMS through a small provider
 * interface with one adapter, a JSON POST to `SMS_URL`. The SMS endpoint is a host the operator
 * names, so it passes the host guard (no loopback or private address unless `CONNECTION_ALLOW`
 * allows it) and the connection goes to the address the guard checked.
 */
import http from 'node:http';
import https from 'node:https';
import nodemailer from 'nodemailer';
import type { HostGuard } from '../../net/host-guard';

/** One message to deliver. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail. */
export interface MailTransport {
  readonly kind: 'smtp';
  send(message: OutgoingMessage): Promise<void>;
}

/** Sends SMS. A provider adapter implements this (one HTTP adapter ships). */
export interface SmsProvider {
  readonly kind: 'http';
  send(message: { to: string; text: string }): Promise<void>;
}

/** How long a transport may take for one message, ms. */
const SEND_TIMEOUT_MS = 15_000;

/** E-mail through an SMTP server given as a URL (`smtp://user:pass@host:587`, `smtps://...:465`). */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url, { from });
  Object.assign(transporter.options, { connectionTimeout: SEND_TIMEOUT_MS, greetingTimeout: SEND_TIMEOUT_MS, socketTimeout: SEND_TIMEOUT_MS });
  return {
    kind: 'smtp',
    async send({ to, subject, text }) {
      await transporter.sendMail({ from, to, subject, text });
    },
  };
}

/**
 * SMS through an HTTP endpoint: `POST <SMS_URL>` with `{"to": "...", "text": "..."}` (and
 * `Authorization: Bearer <SMS_TOKEN>` when set); any 2xx answer is delivery.
 */
export function httpSmsProvider(url: string, guard: HostGuard, token: string | null = null): SmsProvider {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  return {
    kind: 'http',
    async send({ to, text }) {
      const checked = await guard.check(target.hostname, port);
      const body = JSON.stringify({ to, text });
      await new Promise<void>((resolve, reject) => {
        const req = client.request(
          {
            method: 'POST',
            protocol: target.protocol,
            hostname: target.hostname,
            port,
            path: `${target.pathname}${target.search}`,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
            // Connect to the address the guard checked, not to a second lookup's answer.
            lookup: (_host, options, cb) => {
              if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: checked.address, family: checked.family }]);
              else cb(null, checked.address, checked.family);
            },
            timeout: SEND_TIMEOUT_MS,
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              const status = res.statusCode ?? 0;
              if (status >= 200 && status < 300) resolve();
              else reject(new Error(`SMS provider answered HTTP ${status}`));
            });
          },
        );
        req.on('timeout', () => req.destroy(new Error('SMS provider timed out')));
        req.on('error', reject);
        req.end(body);
      });
    },
  };
}
