/**
 * `npm run bench -- upload [--size-mb=1024] [--part-mb=N] [--in-flight=1] [--rounds=3]`: multipart
 * upload of a generated csv over loopback into an in-process server, in the browser client's
 * parts (`partSizeFor`: 32 MiB for a 1 GiB file) unless `--part-mb` says otherwise, next to a plain
 * file copy (`fs.copyFile`) of the same file in the same run; ratio = copy time / upload time
 * (goal >= 0.5). The client runs in its own process (`upload-client.ts`, `node:http`), as the
 * browser does: a client in the server's process shares its event loop and measures itself.
 * For context, the same client against a bare Node HTTP server that only drains the parts.
 * Each round times copy, bare sink and upload back to back; the round with the median ratio is
 * reported and every round is listed (the machine is shared, so rounds are noisy), with the
 * load average. Also the server process's CPU time (all threads) per GiB uploaded.
 * Prints one JSON line.
 */
import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createUser, issueToken } from '../src/test/factories';
import type { TestServer } from '../src/test/server';
import { partSizeFor } from '@decisio/sdk-plugin/upload.ts';
import { generateCsv } from './csv-file';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const sizeMb = Number(arg('size-mb', '1024'));
const inFlight = Number(arg('in-flight', '1'));
const partMbArg = arg('part-mb', '');
const rounds = Number(arg('rounds', '3'));
const here = path.dirname(fileURLToPath(import.meta.url));
const tsxCli = path.join(here, '../../node_modules/tsx/dist/cli.mjs');

/** Runs the client in its own process; resolves with the time it measured (ms). */
function client(base: string, token: string, file: string, partMb: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsxCli, path.join(here, 'upload-client.ts'), base, token, file, String(inFlight), String(partMb)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`upload client exited with ${code}`));
      else resolve((JSON.parse(out.trim().split('\n').pop()!) as { ms: number }).ms);
    });
  });
}

const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'decisio-bench-upload-'));
try {
  const csv = path.join(dir, 'data.csv');
  await generateCsv(csv, sizeMb * 1024 * 1024);
  const size = (await fsp.stat(csv)).size;
  const mb = size / 1024 / 1024;
  // The browser client's part size for this file unless one is given.
  const partMb = partMbArg ? Number(partMbArg) : partSizeFor(size) / 1024 / 1024;

  const sink = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/`;

  const app = createApp({
    ...loadConfig({ DATA_DIR: path.join(dir, 'server'), LOG_LEVEL: 'silent', STORAGE_USER_QUOTA_MB: String(sizeMb * (rounds + 2) + 1024) }),
    port: 0,
    host: '127.0.0.1',
  });
  await app.migrate();
  const { url } = await app.listen();
  const results: { copyMs: number; bareMs: number; uploadMs: number; cpuMs: number; sinkCpuMs: number }[] = [];
  try {
    const shim = { app } as unknown as TestServer;
    const token = await issueToken(shim, await createUser(shim));
    for (let r = 0; r < rounds; r++) {
      const copy = path.join(dir, 'copy.csv');
      let t = performance.now();
      await fsp.copyFile(csv, copy);
      const copyMs = performance.now() - t;
      await fsp.rm(copy);
      const sinkCpu = process.cpuUsage();
      const bareMs = await client(sinkUrl, '-', csv, partMb);
      const sinkUsed = process.cpuUsage(sinkCpu);
      const cpu = process.cpuUsage();
      const uploadMs = await client(url, token, csv, partMb);
      const used = process.cpuUsage(cpu);
      results.push({ copyMs, bareMs, uploadMs, cpuMs: (used.user + used.system) / 1000, sinkCpuMs: (sinkUsed.user + sinkUsed.system) / 1000 });
    }
  } finally {
    sink.close();
    await app.close();
  }
  const best = [...results].sort((a, b) => a.copyMs / a.uploadMs - b.copyMs / b.uploadMs)[Math.floor((results.length - 1) / 2)]!;
  const mbs = (ms: number) => Math.round(mb / (ms / 1000));
  console.log(
    JSON.stringify({
      bench: 'server-upload-loopback',
      value: mbs(best.uploadMs),
      unit: 'MB/s',
      sizeMb: Math.round(mb),
      partsInFlight: inFlight,
      partMiB: partMb,
      baseline: 'fs.copyFile of the same file, same round',
      baselineValue: mbs(best.copyMs),
      ratio: Number((best.copyMs / best.uploadMs).toFixed(3)),
      goal: 0.5,
      bareHttpSinkMBs: mbs(best.bareMs),
      ratioToBareHttp: Number((best.bareMs / best.uploadMs).toFixed(3)),
      serverCpuMsPerGiB: Math.round((best.cpuMs / mb) * 1024),
      bareSinkCpuMsPerGiB: Math.round((best.sinkCpuMs / mb) * 1024),
      loadAverage: os.loadavg().map((x) => Number(x.toFixed(1))),
      rounds: results.map((x) => ({ copy: mbs(x.copyMs), bare: mbs(x.bareMs), upload: mbs(x.uploadMs), ratio: Number((x.copyMs / x.uploadMs).toFixed(3)) })),
    }),
  );
} finally {
  await fsp.rm(dir, { recursive: true, force: true });
}
process.exit(0);
