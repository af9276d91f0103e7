/**
 * The access address `POST /api/decide/<serviceId>` (and `.../outcome`) as a plain Node request
 * handler. Callers are machines sending thousands of small calls a second, so the hot path skips
 * Koa altogether (no context object, middleware chain, session checks or system log): the server's
 * request listener hands these paths here first (`createApp().handler`), and the Koa middleware
 * of the same address only delegates here (for a caller of `app.callback()`).
 *
 * It keeps what the API stack gives every reply: the `RequestId` header (the caller's, when safe,
 * or a new one), the language from `Accept-Language`, the `{code, data, message}` envelope with
 * the catalogue's HTTP status, `Connection: close` while the server shuts down, and gzip for a
 * reply of 1 KiB or more when the caller accepts it (batch calls).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { AppError, ErrorCode, HEADER, httpStatusOf, messageOf, resolveLocale, validationMessage, type ErrorCodeName, type Locale } from '@decisio/domain';
import type { AppMiddleware } from '../../http/context';
import type { Logger } from '../../logger';
import type { ServingRuntime } from './runtime';

export const DECIDE_PREFIX = '/api/decide/';
const SERVICE_ID = /^[0-9a-f]{32}$/;
const OUTCOME_SUFFIX = '/outcome';
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const GZIP_MIN_BYTES = 1024;
const REQUEST_ID_HEADER = HEADER.requestId.toLowerCase();
const LANGUAGE_HEADER = HEADER.language.toLowerCase();
const gzip = promisify(zlib.gzip);

class BodyTooLarge extends Error {}

/** `application/json` or `<type>/<subtype>+json`, with or without parameters. */
function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const semi = contentType.indexOf(';');
  const mime = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return mime === 'application/json' || mime.endsWith('+json');
}

/** Reads a request body up to `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) reject(new BodyTooLarge());
      else chunks.push(c);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The access token of a call: `Authorization: Bearer <token>` (or the raw token) or `X-Access-Token`. */
function accessTokenOf(req: IncomingMessage): string | undefined {
  const given = req.headers['x-access-token'];
  const header = (Array.isArray(given) ? given[0] : given) || req.headers.authorization;
  if (!header) return undefined;
  return header.startsWith('Bearer ') ? header.slice(7).trim() : header.trim();
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** What the handler needs besides the runtime. */
export interface AccessAddressOptions {
  /** Largest body, bytes. */
  limit: number;
  /** True while the server shuts down (replies ask the caller to close the connection). */
  closing?: () => boolean;
}

/** A request handler that answers the access address and returns false for every other path. */
export type RawHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The access address as a plain request handler (see the module comment). */
export function accessAddressHandler(runtime: ServingRuntime, logger: Logger, options: AccessAddressOptions): RawHandler {
  const { limit } = options;
  const closing = options.closing ?? (() => false);

  const send = async (req: IncomingMessage, res: ServerResponse, requestId: string, status: number, text: string): Promise<void> => {
    const headers: Record<string, string | number> = {
      'Content-Type': 'application/json; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      [HEADER.requestId]: requestId,
    };
    if (closing()) headers.Connection = 'close';
    let body: string | Buffer = text;
    if (text.length >= GZIP_MIN_BYTES && /\bgzip\b/.test(headerOf(req, 'accept-encoding') ?? '')) {
      body = await gzip(text, { level: 4 });
      headers['Content-Encoding'] = 'gzip';
      headers.Vary = 'Accept-Encoding';
    }
    headers['Content-Length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    res.writeHead(status, headers);
    res.end(body);
  };

  const failure = (name: ErrorCodeName, locale: Locale, errors?: Record<string, string>): [number, string] => {
    const code = ErrorCode[name];
    const body: { code: number; data: null; message: string; errors?: Record<string, string> } = { code, data: null, message: messageOf(name, locale) };
    if (errors && Object.keys(errors).length > 0) body.errors = errors;
    return [httpStatusOf(code), JSON.stringify(body)];
  };

  const answer = async (req: IncomingMessage, path: string, locale: Locale): Promise<[number, string]> => {
    if (req.method !== 'POST') return failure('notFound', locale);
    let serviceId = path.slice(DECIDE_PREFIX.length);
    const outcome = serviceId.endsWith(OUTCOME_SUFFIX);
    if (outcome) serviceId = serviceId.slice(0, -OUTCOME_SUFFIX.length);
    if (!SERVICE_ID.test(serviceId)) return failure('deployNotFound', locale);
    const invalid = () => failure('paramInvalid', locale, { _: validationMessage('validation.invalid', locale) });
    if (Number(headerOf(req, 'content-length') || 0) > limit) return failure('bodyTooLarge', locale);
    let body: unknown;
    let raw: string;
    try {
      raw = await readBody(req, limit);
      if (!isJson(headerOf(req, 'content-type'))) return invalid();
      body = JSON.parse(raw);
    } catch (err) {
      if (err instanceof BodyTooLarge) return failure('bodyTooLarge', locale);
      if (!(err instanceof SyntaxError)) throw err;
      return invalid();
    }
    try {
      const token = accessTokenOf(req);
      const data = outcome
        ? await runtime.reportOutcome(serviceId, token, body, raw, locale)
        : await runtime.decide(serviceId, token, body, req.socket.remoteAddress ?? null, locale, raw);
      return [200, JSON.stringify({ code: 0, data, message: messageOf('success', locale) })];
    } catch (err) {
      if (err instanceof AppError) return failure(err.codeName, locale, err.details);
      throw err;
    }
  };

  return (req, res) => {
    const url = req.url ?? '';
    if (!url.startsWith(DECIDE_PREFIX)) return false;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const given = headerOf(req, REQUEST_ID_HEADER);
    const requestId = given && SAFE_REQUEST_ID.test(given) ? given : randomUUID().replace(/-/g, '');
    const locale = resolveLocale(headerOf(req, LANGUAGE_HEADER));
    answer(req, path, locale)
      .catch((err: unknown) => {
        logger.error('unhandled error', { requestId, path, err });
        return failure('internalError', locale);
      })
      .then(([status, text]) => send(req, res, requestId, status, text))
      .catch((err: unknown) => {
        logger.warn('decision reply failed', { requestId, err });
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    return true;
  };
}

/** The same address as Koa middleware: hands the request to the plain handler. */
export function accessAddressMiddleware(handler: RawHandler): AppMiddleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(DECIDE_PREFIX)) return next();
    ctx.respond = false;
    handler(ctx.req, ctx.res);
  };
}
