/**
 * The calls the specification names (platform §7, workflow §7), as listed in
 * `docs/spec-calls.json` (the spec itself is kept outside the repository), against the running
 * server:
 * 1. every call marked `supported` is mounted under the spec's own name with the spec's method
 *    (`POST` unless the spec says `GET`, `PUT` or `DELETE`; `{id}` is a path parameter);
 * 2. its segment is in `ROUTE_PERMISSIONS` (the route-table test proves the reverse for every
 *    route);
 * 3. over HTTP, without a token: a call the list marks `public` (sign-in, sign-up, codes,
 *    captcha, the electric demo) answers its own answer (400 on an empty body, or 2xx), never
 *    401, "no such route" (404), "method not allowed" (405) or a server fault; every other call
 *    answers a token error (401);
 * 4. a call marked `not supported` carries its reason and is not mounted (once it is, the list
 *    must say so); a call the spec only describes (`described`) is served by the calls named.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, ROUTE_PERMISSIONS, routeSegment } from '@decisio/domain';
import { newId } from '../db/ids';
import { databases, startTestServer, type TestServer } from '../test/server';

interface SpecCall {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  spec: string[];
  status: 'supported' | 'not supported';
  /** Made before signing in, or by the public electric pages. */
  public?: boolean;
  note?: string;
  reason?: string;
}
interface SpecDescribed {
  spec: string[];
  text: string;
  servedBy: string[];
  status: string;
}
interface SpecList {
  calls: SpecCall[];
  described: SpecDescribed[];
}

const TOKEN_ERRORS = new Set<number>([ErrorCode.unauthorized, ErrorCode.tokenInvalid, ErrorCode.tokenExpired]);
const LIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/spec-calls.json');
const list = JSON.parse(fs.readFileSync(LIST, 'utf8')) as SpecList;

interface Layer {
  path: string | RegExp;
  methods: string[];
}

/** `METHOD name` of every route of the running server, path parameters written `{id}`. */
function mounted(server: TestServer): Set<string> {
  const routers = (server.app.app.middleware as unknown as { router?: { stack: Layer[] } }[]).filter((m) => m.router).map((m) => m.router!);
  const out = new Set<string>();
  for (const layer of routers.flatMap((r) => r.stack)) {
    const name = String(layer.path).replace(/^\/api\//, '').replace(/:[A-Za-z]+/g, '{id}');
    for (const method of layer.methods) out.add(`${method} ${name}`);
  }
  return out;
}

describe('docs/spec-calls.json', () => {
  it('lists each call once, with its spec section and a known status', () => {
    expect(list.calls.length).toBeGreaterThan(200);
    const keys = list.calls.map((c) => `${c.method} ${c.name}`);
    expect(keys.length - new Set(keys).size).toBe(0);
    for (const c of list.calls) {
      expect(c.name, JSON.stringify(c)).toMatch(/^[A-Za-z]+(\/[A-Za-z{}]+)*$/);
      expect(['GET', 'POST', 'PUT', 'DELETE'], c.name).toContain(c.method);
      expect(c.spec.length, c.name).toBeGreaterThan(0);
      for (const s of c.spec) expect(s, c.name).toMatch(/^(platform|workflow) §7 /);
      expect(['supported', 'not supported'], c.name).toContain(c.status);
      if (c.status === 'not supported') expect(c.reason, c.name).toBeTruthy();
      // Only sign-in and its codes, the captcha and the public electric demo go without a token.
      if (c.public) expect(['index', 'captcha', 'electricShow'], c.name).toContain(routeSegment(c.name));
    }
  });
});

describe.each(databases)('the spec calls on %s', (kind) => {
  let server: TestServer;
  let routes: Set<string>;
  beforeAll(async () => {
    server = await startTestServer(kind);
    routes = mounted(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('mounts every supported call under the spec name and method, in the permission table', () => {
    const missing = list.calls.filter((c) => c.status === 'supported' && !routes.has(`${c.method} ${c.name}`)).map((c) => `${c.method} ${c.name} (${c.spec.join('; ')})`);
    expect(missing).toEqual([]);
    const unlisted = list.calls.filter((c) => !Object.prototype.hasOwnProperty.call(ROUTE_PERMISSIONS, routeSegment(c.name))).map((c) => c.name);
    expect(unlisted).toEqual([]);
  });

  it('does not mount a call listed as not supported, and mounts what serves a described call', () => {
    const mountedAnyway = list.calls.filter((c) => c.status === 'not supported' && routes.has(`${c.method} ${c.name}`)).map((c) => `${c.method} ${c.name}`);
    expect(mountedAnyway).toEqual([]);
    for (const d of list.described) for (const key of d.servedBy) expect(routes.has(key), `${key} (${d.spec.join('; ')})`).toBe(true);
  });

  it('answers every supported call over HTTP without a token: 401, or a public call’s own answer (never 401/404/405/5xx)', async () => {
    const wrong: string[] = [];
    for (const c of list.calls.filter((x) => x.status === 'supported')) {
      const url = c.name.replace(/\{id\}/g, newId());
      const reply = await server.call(url, { method: c.method, body: c.method === 'GET' ? undefined : {} });
      const answer = `${c.method} ${c.name} -> ${reply.status} ${JSON.stringify(reply.body).slice(0, 160)}`;
      if (c.public) {
        if (reply.status === 401 || reply.status === 404 || reply.status === 405 || reply.status >= 500) wrong.push(answer);
      } else if (reply.status !== 401 || !TOKEN_ERRORS.has(reply.body.code)) {
        wrong.push(answer);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
