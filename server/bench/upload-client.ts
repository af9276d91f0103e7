/**
 * The client side of `server/bench/upload.ts`, run in its own process as a browser would be:
 * `tsx server/bench/upload-client.ts <baseUrl> <token> <file> [inFlight] [partMiB]`. Starts an upload
 * (`file/uploadpartinit`), sends the file's parts with `node:http` (keep-alive, `inFlight`
 * parts at a time), completes it, and prints `{"ms": ..., "parts": ..., "partSize": ...}` timed from init to
 * complete. Each part is streamed from the file into the request (1 MiB reads), as a browser
 * sends a `File` slice. With token `-` it only PUTs the parts to `<baseUrl>?partNumber=n` (a
 * bare sink).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { Readable } from 'node:stream';

const [base, token, file, inFlightArg = '1', partMiB = '8'] = process.argv.slice(2) as [string, string, string, string?, string?];
const partSize = Number(partMiB) * 1024 * 1024;
const inFlight = Math.max(1, Number(inFlightArg));
const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight + 1 });

function request(url: string, method: string, headers: Record<string, string | number>, body: string | Readable): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (typeof body === 'string') req.end(body);
    else body.pipe(req);
  });
}

async function call<T>(name: string, body: unknown): Promise<T> {
  const text = JSON.stringify(body);
  const r = await request(`${base}/api/${name}`, 'POST', { Authorization: token, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }, text);
  const env = JSON.parse(r.text) as { code: number; message: string; data: T };
  if (r.status !== 200 || env.code !== 0) throw new Error(`${name}: HTTP ${r.status} ${env.message}`);
  return env.data;
}

const size = (await fsp.stat(file)).size;
const bare = token === '-';
const t = performance.now();
const init = bare
  ? { uploadId: '', partSize, partCount: Math.ceil(size / partSize) }
  : await call<{ uploadId: string; partSize: number; partCount: number }>('file/uploadpartinit', { name: 'data.csv', size, partSize });
let next = 1;
async function sender(): Promise<void> {
  while (next <= init.partCount) {
    const n = next++;
    const start = (n - 1) * init.partSize;
    const length = Math.min(init.partSize, size - start);
    const url = bare ? `${base}?partNumber=${n}` : `${base}/api/file/uploadOneFile?uploadId=${init.uploadId}&partNumber=${n}`;
    const headers: Record<string, string | number> = { 'Content-Type': 'application/octet-stream', 'Content-Length': length };
    if (!bare) headers.Authorization = token;
    const r = await request(url, 'PUT', headers, fs.createReadStream(file, { start, end: start + length - 1, highWaterMark: 1024 * 1024 }));
    if (r.status !== 200) throw new Error(`part ${n}: HTTP ${r.status} ${r.text}`);
  }
}
await Promise.all(Array.from({ length: inFlight }, sender));
if (!bare) await call('file/uploadPartComplete', { uploadId: init.uploadId });
const ms = performance.now() - t;
agent.destroy();
console.log(JSON.stringify({ ms, parts: init.partCount, partSize: init.partSize }));
