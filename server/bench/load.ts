/**
 * What the HTTP benches (`api.ts`, `serve.ts`) share: their command-line options, autocannon in
 * a child process (so the server under test keeps its own event loop), a loopback listener, and
 * the bare Koa endpoint they are measured against.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';

/** The repository root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `--name value` or `--name=value` of the command line, else undefined. */
export function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === `--${name}` && args[i + 1] !== undefined) return args[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

/** A numeric option, else `fallback`. */
export function flag(name: string, fallback: number): number {
  const v = option(name);
  return v === undefined ? fallback : Number(v);
}

/** The part of autocannon's JSON result the benches read. */
export interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}

/** Runs autocannon (POST `body` with `headers` to `url`) in a child process; resolves with its JSON result. */
export function cannon(url: string, seconds: number, connections: number, body: string, headers: Record<string, string>): Promise<CannonResult> {
  const args = [path.join(root, 'node_modules/autocannon/autocannon.js'), '-j', '-d', String(seconds), '-c', String(connections), '-m', 'POST', '-b', body];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}: ${err.slice(-500)}`));
      try {
        resolve(JSON.parse(out) as CannonResult);
      } catch {
        reject(new Error(`autocannon printed no JSON: ${out.slice(0, 300)} ${err.slice(-300)}`));
      }
    });
  });
}

/** A server on a free loopback port (keep-alive 30 s). */
export function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

/** A bare Koa endpoint that answers every request with `constant` (JSON text): the floor of an HTTP call. */
export function bareEndpoint(constant: string): Promise<{ server: http.Server; url: string }> {
  const bare = new Koa();
  bare.use((ctx) => {
    ctx.type = 'application/json';
    ctx.body = constant;
  });
  return listen(bare.callback());
}

/** Closes a server (its idle keep-alive connections first). */
export function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
}
