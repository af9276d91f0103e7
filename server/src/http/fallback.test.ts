import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createLogger } from '../logger';
import type { AppState } from './context';
import { installErrorFallback } from './fallback';
import { requestId } from './request-id';

// The fallback on its own Koa app: failures that no envelope middleware catches (here there is
// none at all), over a real socket.
describe('error fallback', () => {
  const logged: Record<string, any>[] = [];
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    const app = new Koa<AppState>();
    installErrorFallback(app, createLogger('debug', (_l, line) => logged.push(JSON.parse(line))));
    app.on('error', () => undefined);
    app.use(requestId());
    app.use(async (ctx) => {
      ctx.set('X-Leak', 'must go');
      if (ctx.path === '/boom') throw new Error('secret detail');
      if (ctx.path === '/big') throw Object.assign(new Error('request entity too large'), { status: 413 });
      if (ctx.path === '/string') throw 'a string';
      if (ctx.path === '/late') {
        ctx.type = 'text/plain';
        let sent = false;
        ctx.body = new Readable({
          read() {
            if (!sent) {
              sent = true;
              this.push('first part');
            } else this.destroy(new Error('disk went away'));
          },
        });
      }
    });
    server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('answers an error thrown ahead of every envelope middleware with the 500 envelope, logged with the request id', async () => {
    const res = await fetch(`${url}/boom`, { headers: { RequestId: 'fb-1', 'Accept-Language': 'en-US' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('requestid')).toBe('fb-1');
    expect(res.headers.get('x-leak')).toBeNull();
    expect(res.headers.get('content-security-policy')).toBeTruthy();
    expect(await res.json()).toEqual({ code: ErrorCode.internalError, data: null, message: 'Internal server error' });
    expect(logged.find((e) => e.requestId === 'fb-1')).toMatchObject({ level: 'error', msg: 'unhandled error', path: '/boom', err: { message: 'secret detail' } });
    const s = await fetch(`${url}/string`, { headers: { RequestId: 'fb-2' } });
    expect(s.status).toBe(500);
    expect(((await s.json()) as { code: number }).code).toBe(ErrorCode.internalError);
    expect(logged.find((e) => e.requestId === 'fb-2')).toMatchObject({ level: 'error' });
  });

  it('keeps the meaning of a library HTTP error: 413 -> bodyTooLarge, not logged as a fault', async () => {
    const res = await fetch(`${url}/big`, { headers: { RequestId: 'fb-3' } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: number }).code).toBe(ErrorCode.bodyTooLarge);
    expect(logged.find((e) => e.requestId === 'fb-3')).toBeUndefined();
  });

  it('logs a body that fails after its headers went out, with the request id', async () => {
    await fetch(`${url}/late`, { headers: { RequestId: 'fb-4' } })
      .then((r) => r.text())
      .catch(() => undefined);
    await expect.poll(() => logged.find((e) => e.requestId === 'fb-4')).toMatchObject({ level: 'error', err: { message: 'disk went away' } });
  });
});
