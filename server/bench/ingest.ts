/**
 * `npx tsx server/bench/ingest.ts [--size-mb=1024] [--upload]`: server-side dataset ingest of a
 * generated csv (numeric and text columns) next to DuckDB's own `read_csv` of the same file in
 * the same run, both writing Parquet; the ratio is DuckDB's time over ours (goal >= 0.8).
 * With `--upload`, also the multipart upload of the same file over loopback into an in-process
 * server (8 MiB parts) next to a plain file copy (goal >= 0.5).
 * Prints one JSON line per figure. `npm run bench -- ingest [--size-mb=N] [--upload]`.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { sqlString, withDuck } from '../src/modules/datasets/duck';
import { ingestCsv } from '../src/modules/datasets/ingest';
import { createUser, issueToken } from '../src/test/factories';
import type { TestServer } from '../src/test/server';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const sizeMb = Number(arg('size-mb', '1024'));
const withUpload = process.argv.includes('--upload');

async function generate(file: string, bytes: number): Promise<number> {
  const out = fs.createWriteStream(file);
  out.write('id,price,qty,city,score,note\n');
  const cities = ['Beijing', 'Shanghai', 'Shenzhen', 'Hangzhou', 'Chengdu', 'Wuhan'];
  let written = 0;
  let rows = 0;
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  while (written < bytes) {
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) {
      rows += 1;
      lines.push(`${rows},${(rnd() * 1000).toFixed(2)},${Math.floor(rnd() * 100)},${cities[rows % 6]},${rnd().toFixed(6)},item ${rows % 997}`);
    }
    const chunk = lines.join('\n') + '\n';
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise<void>((r) => out.end(r));
  return rows;
}

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'decisio-bench-ingest-'));
try {
  const csv = path.join(dir, 'data.csv');
  const rows = await generate(csv, sizeMb * 1024 * 1024);
  const size = (await fsp.stat(csv)).size;

  // Warm the engine once (instance start, csv reader).
  await withDuck((c) => c.run(`SELECT count(*) FROM read_csv(${sqlString(csv)}) LIMIT 1`));

  const duck = await time(() =>
    withDuck((c) => c.run(`COPY (SELECT * FROM read_csv(${sqlString(csv)})) TO ${sqlString(path.join(dir, 'duck.parquet'))} (FORMAT parquet, COMPRESSION zstd)`)),
  );
  const ours = await time(() => ingestCsv(csv, path.join(dir, 'ours.parquet')));
  if (ours.value.rows !== rows) throw new Error(`ingest read ${ours.value.rows} rows, expected ${rows}`);
  console.log(
    JSON.stringify({
      bench: 'server-ingest-csv',
      value: Math.round(ours.ms),
      unit: 'ms',
      sizeMb: Math.round(size / 1024 / 1024),
      rows,
      throughputMBs: Math.round(size / 1024 / 1024 / (ours.ms / 1000)),
      baseline: 'duckdb read_csv -> parquet, same file, same run',
      baselineValue: Math.round(duck.ms),
      ratio: Number((duck.ms / ours.ms).toFixed(3)),
      goal: 0.8,
    }),
  );

  if (withUpload) {
    const copy = await time(() => fsp.copyFile(csv, path.join(dir, 'copy.csv')));
    // Context: a bare Node HTTP server that only drains the same parts (same client, same process).
    const sink = http.createServer((req, res) => {
      req.on('data', () => undefined);
      req.on('end', () => res.end('{}'));
    });
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
    const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/`;
    const bare = await time(async () => {
      const fd = await fsp.open(csv, 'r');
      try {
        const part = 8 * 1024 * 1024;
        for (let off = 0; off < size; off += part) {
          const buf = Buffer.alloc(Math.min(part, size - off));
          await fd.read(buf, 0, buf.length, off);
          await (await fetch(sinkUrl, { method: 'PUT', body: buf as unknown as BodyInit })).text();
        }
      } finally {
        await fd.close();
      }
    });
    sink.close();
    await fsp.rm(path.join(dir, 'copy.csv'));
    const dataDir = path.join(dir, 'server');
    const app = createApp({
      ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', STORAGE_USER_QUOTA_MB: String(sizeMb * 4 + 1024) }),
      port: 0,
      host: '127.0.0.1',
    });
    await app.migrate();
    const { url } = await app.listen();
    try {
      const shim = { app } as unknown as TestServer;
      const token = await issueToken(shim, await createUser(shim));
      const headers = { Authorization: token, 'Content-Type': 'application/json' };
      const upload = await time(async () => {
        const init = (await (await fetch(`${url}/api/file/uploadpartinit`, { method: 'POST', headers, body: JSON.stringify({ name: 'data.csv', size }) })).json()) as {
          data: { uploadId: string; partSize: number; partCount: number };
        };
        const { uploadId, partSize, partCount } = init.data;
        const fd = await fsp.open(csv, 'r');
        try {
          for (let n = 1; n <= partCount; n++) {
            const buf = Buffer.alloc(Math.min(partSize, size - (n - 1) * partSize));
            await fd.read(buf, 0, buf.length, (n - 1) * partSize);
            const r = await fetch(`${url}/api/file/uploadOneFile?uploadId=${uploadId}&partNumber=${n}`, {
              method: 'PUT',
              headers: { Authorization: token, 'Content-Type': 'application/octet-stream' },
              body: buf as unknown as BodyInit,
            });
            if (r.status !== 200) throw new Error(`part ${n}: HTTP ${r.status}`);
          }
        } finally {
          await fd.close();
        }
        const done = await fetch(`${url}/api/file/uploadPartComplete`, { method: 'POST', headers, body: JSON.stringify({ uploadId }) });
        if (done.status !== 200) throw new Error(`complete: HTTP ${done.status}`);
      });
      console.log(
        JSON.stringify({
          bench: 'server-upload-loopback',
          value: Math.round(size / 1024 / 1024 / (upload.ms / 1000)),
          unit: 'MB/s',
          sizeMb: Math.round(size / 1024 / 1024),
          baseline: 'fs.copyFile of the same file',
          baselineValue: Math.round(size / 1024 / 1024 / (copy.ms / 1000)),
          ratio: Number((copy.ms / upload.ms).toFixed(3)),
          goal: 0.5,
          bareHttpSinkMBs: Math.round(size / 1024 / 1024 / (bare.ms / 1000)),
          ratioToBareHttp: Number((bare.ms / upload.ms).toFixed(3)),
        }),
      );
    } finally {
      await app.close();
    }
  }
} finally {
  await fsp.rm(dir, { recursive: true, force: true });
}
process.exit(0);
